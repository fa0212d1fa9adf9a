package function

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

var (
	mu     sync.RWMutex
	byName = map[string]*Set{} // names and aliases, lower case
	sets   []*Set
)

// Register adds function sets. It is called from package initialization;
// a name or alias registered twice is a programming error and panics.
func Register(ss ...*Set) {
	mu.Lock()
	defer mu.Unlock()
	for _, s := range ss {
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			k := strings.ToLower(n)
			if _, dup := byName[k]; dup {
				panic(fmt.Sprintf("function: %q registered twice", n))
			}
			byName[k] = s
		}
		sets = append(sets, s)
	}
}

// Lookup returns the set registered under name or one of its aliases
// (any case).
func Lookup(name string) (*Set, bool) {
	mu.RLock()
	defer mu.RUnlock()
	s, ok := byName[strings.ToLower(name)]
	return s, ok
}

// All returns every registered set, sorted by name. The slice is the
// caller's; the sets are shared and must not be changed.
func All() []*Set {
	mu.RLock()
	out := slices.Clone(sets)
	mu.RUnlock()
	slices.SortFunc(out, func(a, b *Set) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Names returns every name and alias users may write (Internal sets left
// out), sorted: for completion and "did you mean" hints.
func Names() []string {
	var out []string
	for _, s := range All() {
		if !s.Internal {
			out = append(out, s.Name)
			out = append(out, s.Aliases...)
		}
	}
	slices.Sort(out)
	return out
}

// IsVolatile reports whether the named function is registered as Volatile.
func IsVolatile(name string) bool {
	s, ok := Lookup(name)
	return ok && s.Stability == Volatile
}
