package function

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

var (
	mu     sync.RWMutex
	byName = map[key]*Set{} // names and aliases, lower case, per kind
	sets   []*Set
)

// key names a set: one name may be a scalar function and an aggregate
// (bit_and is the & operator's call and an aggregate).
type key struct {
	kind Kind
	name string
}

// Register adds function sets. It is called from package initialization;
// a name or alias registered twice is a programming error and panics.
func Register(ss ...*Set) {
	mu.Lock()
	defer mu.Unlock()
	for _, s := range ss {
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			k := key{s.Kind, strings.ToLower(n)}
			if _, dup := byName[k]; dup {
				panic(fmt.Sprintf("function: %q registered twice", n))
			}
			byName[k] = s
		}
		sets = append(sets, s)
	}
}

// Lookup returns the scalar function registered under name or one of its
// aliases (any case).
func Lookup(name string) (*Set, bool) { return Find(Scalar, name) }

// Find returns the set of the kind registered under name or one of its
// aliases (any case).
func Find(kind Kind, name string) (*Set, bool) {
	mu.RLock()
	defer mu.RUnlock()
	s, ok := byName[key{kind, strings.ToLower(name)}]
	return s, ok
}

// All returns every registered set, sorted by name. The slice is the
// caller's; the sets are shared and must not be changed.
func All() []*Set {
	mu.RLock()
	out := slices.Clone(sets)
	mu.RUnlock()
	slices.SortFunc(out, func(a, b *Set) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return int(a.Kind) - int(b.Kind)
	})
	return out
}

// Names returns every name and alias users may write (Internal sets left
// out) of the kinds (every kind when none is given), sorted and without
// repeats: for completion and "did you mean" hints.
func Names(kinds ...Kind) []string {
	var out []string
	for _, s := range All() {
		if !s.Internal && (len(kinds) == 0 || slices.Contains(kinds, s.Kind)) {
			out = append(out, s.Name)
			out = append(out, s.Aliases...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// IsVolatile reports whether the named function is registered as Volatile.
func IsVolatile(name string) bool {
	s, ok := Lookup(name)
	return ok && s.Stability == Volatile
}
