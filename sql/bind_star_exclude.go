package sql

import (
	"fmt"
	"strings"
)

// DuckDB's SELECT * EXCLUDE (a, b): the star's columns without those
// named (rewrite.go cuts the list out of the text and keeps it by the
// star's ordinal).

// starExclusions returns the names star number k excludes, lower case,
// each mapped to true until a column of that name is left out.
func (b *binder) starExclusions(k int) (map[string]bool, error) {
	names := b.q.rw.starExclude[k]
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	for _, n := range names {
		l := strings.ToLower(n)
		if _, dup := out[l]; dup {
			// Blame the second mention of the name.
			first := b.q.findName("", n, b.cl.sel)
			at := b.q.findName("", n, span{first + 1, b.cl.sel.hi})
			return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("column %q is excluded twice", n))
		}
		out[l] = true
	}
	return out, nil
}

// excludedAll reports an EXCLUDE name of star k that matched no column.
// A column the table has but b2sql does not read is not in the star
// anyway: excluding it is no error.
func (b *binder) excludedAll(k int, exclude map[string]bool) error {
	for _, n := range b.q.rw.starExclude[k] {
		if _, unread := b.unreadable[strings.ToLower(n)]; exclude[strings.ToLower(n)] && !unread {
			return b.errAt(b.q.findName("", n, b.cl.sel), ErrUnknownColumn, fmt.Sprintf("column %q in EXCLUDE is not in the FROM clause", n))
		}
	}
	return nil
}
