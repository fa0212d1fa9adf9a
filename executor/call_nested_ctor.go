package executor

import (
	"errors"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// fnStringIndex: a string's character i (from 1; negative from the end),
// "" out of range, as DuckDB's s[i].
func fnStringIndex(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	i := a[1].I
	// DuckDB reads the index as a substring offset, refused past 32 bits.
	switch {
	case i > math.MaxUint32:
		return columnar.Value{}, errorf("Substring offset outside of supported range (> %d)", uint32(math.MaxUint32))
	case i < -math.MaxUint32-1:
		return columnar.Value{}, errorf("Substring offset outside of supported range (< %d)", -math.MaxUint32-1)
	}
	r := []rune(a[0].S)
	switch {
	case i > 0 && i <= int64(len(r)):
		return columnar.StringValue(string(r[i-1])), nil
	case i < 0 && -i <= int64(len(r)):
		return columnar.StringValue(string(r[int64(len(r))+i])), nil
	}
	return columnar.StringValue(""), nil
}

// The map constructors' errors carry DuckDB's exact text (its Invalid Input
// Errors), which scripts written against DuckDB look for.
var (
	errMapKeysUnique  = errors.New("Map keys must be unique.")
	errMapKeyNull     = errors.New("Map keys can not be NULL.")
	errMapListsDiffer = errors.New("The map key list does not align with the map value list.")
)

// fnMapFromEntries: map_from_entries(entries), as DuckDB's: each struct is
// a key and its value; an entry or a key may not be NULL, nor a key
// repeat.
func fnMapFromEntries(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	es := a[0].Elems
	entry := t.Elem()
	out := make([]columnar.Value, len(es))
	for i, e := range es {
		if e.Null || e.Elems[0].Null {
			return columnar.Value{}, errMapKeyNull
		}
		k := e.Elems[0]
		for _, p := range out[:i] {
			if columnar.Compare(p.Elems[0], k) == 0 {
				return columnar.Value{}, errMapKeysUnique
			}
		}
		out[i] = columnar.Value{Type: entry, Elems: []columnar.Value{k, e.Elems[1]}}
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnMapFromLists: map(keys, values), as DuckDB's map(): the lists pair up
// by position; keys may not be NULL or repeat.
func fnMapFromLists(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	ks, vs := a[0].Elems, a[1].Elems
	if len(ks) != len(vs) {
		return columnar.Value{}, errMapListsDiffer
	}
	entry := t.Elem()
	out := make([]columnar.Value, len(ks))
	for i, k := range ks {
		if k.Null {
			return columnar.Value{}, errMapKeyNull
		}
		for _, p := range ks[:i] {
			if columnar.Compare(p, k) == 0 {
				return columnar.Value{}, errMapKeysUnique
			}
		}
		out[i] = columnar.Value{Type: entry, Elems: []columnar.Value{k, vs[i]}}
	}
	return columnar.Value{Type: t, Elems: out}, nil
}
