package ctable

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// The writer stores a STRUCT column as python-blosc2's from_arrow does
// (leaves.go): one column per leaf, at any depth through STRUCTs, named by
// its dotted path (a dot inside a field name escaped by a backslash),
// nullable with mask nulls, and the STRUCT in the schema's
// metadata.struct_parents with the leaves' kinds. A NULL struct is a row
// whose leaves are all NULL; so, in python-blosc2 as in b2sql, is a
// struct whose fields are all NULL.

// leafWriter writes the leaves of one STRUCT column.
type leafWriter struct {
	name   string
	typ    columnar.Type
	names  []string // per leaf: its column name
	paths  [][]int  // per leaf: its field indexes
	leaves []colWriter
}

// newLeafWriter makes the writers of f's leaves with newCol (the
// Writer's column writers).
func newLeafWriter(f columnar.Field, newCol func(columnar.Field) (colWriter, error)) (*leafWriter, error) {
	lw := &leafWriter{name: f.Name, typ: f.Type}
	var walk func(t columnar.Type, name string, path []int) error
	walk = func(t columnar.Type, name string, path []int) error {
		for i, fd := range t.Fields() {
			p := append(path[:len(path):len(path)], i)
			n := name + "." + strings.ReplaceAll(fd.Name, ".", `\.`)
			if fd.Type.ID == columnar.Struct {
				if err := walk(fd.Type, n, p); err != nil {
					return err
				}
				continue
			}
			cw, err := newCol(columnar.Field{Name: n, Type: fd.Type, Nullable: true})
			if err != nil {
				return fmt.Errorf("field %q: %w", n, err)
			}
			lw.names, lw.paths, lw.leaves = append(lw.names, n), append(lw.paths, p), append(lw.leaves, cw)
		}
		return nil
	}
	if err := walk(f.Type, f.Name, nil); err != nil {
		lw.abort()
		return nil, err
	}
	return lw, nil
}

func (lw *leafWriter) write(v *columnar.Vector, rows []int) error {
	for k, cw := range lw.leaves {
		if err := cw.write(leafVector(v, lw.paths[k], rows), rows); err != nil {
			return err
		}
	}
	return nil
}

// finish is not used: Writer.Close finishes each leaf as a column of its
// own (finishLeaves).
func (lw *leafWriter) finish(int64) (jsonObj, mpMap, error) {
	return nil, nil, errors.New("ctable: a struct's leaves are finished one by one")
}

func (lw *leafWriter) abort() {
	for _, cw := range lw.leaves {
		cw.abort()
	}
}

// finishLeaves finishes every leaf: their schema entries (with names) and
// SUMMARY catalog entries (by name), and the struct_parents entry.
func (lw *leafWriter) finishLeaves(nrows int64, add func(name string, obj jsonObj, idx mpMap) error) (jsonObj, error) {
	objs := make([]jsonObj, len(lw.leaves))
	for k, cw := range lw.leaves {
		obj, idx, err := cw.finish(nrows)
		if err != nil {
			return nil, err
		}
		if err := add(lw.names[k], obj, idx); err != nil {
			return nil, err
		}
		objs[k] = obj
	}
	k := 0
	var spec func(t columnar.Type, path []int) jsonObj
	spec = func(t columnar.Type, path []int) jsonObj {
		var fields []jsonObj
		for i, fd := range t.Fields() {
			entry := jsonObj{{"name", fd.Name}}
			if fd.Type.ID == columnar.Struct {
				entry = append(entry, spec(fd.Type, append(path[:len(path):len(path)], i))...)
			} else {
				entry = append(entry, objs[k]...)
				k++
			}
			fields = append(fields, entry)
		}
		return jsonObj{{"kind", "struct"}, {"fields", fields}, {"nullable", true}}
	}
	return spec(lw.typ, nil), nil
}

// leafVector returns field path of the STRUCT vector v, for rows, as a
// vector of its own: the field's vector itself when no STRUCT on the way
// has a NULL, else a copy NULL where one is.
func leafVector(v *columnar.Vector, path []int, rows []int) *columnar.Vector {
	var above []*columnar.Vector
	kid := v
	nulls := false
	for _, p := range path {
		above = append(above, kid)
		nulls = nulls || kid.Valid != nil
		kid = kid.Kids[p]
	}
	if !nulls {
		return kid
	}
	size := 0
	for _, r := range rows {
		size = max(size, r+1)
	}
	out := columnar.NewVector(kid.Type, size)
	out.Reset(size)
	for _, r := range rows {
		null := false
		for _, a := range above {
			null = null || a.IsNull(r)
		}
		if null {
			out.SetValue(r, size, columnar.NullValue(kid.Type))
		} else {
			out.CopyRow(r, kid, r, size)
		}
	}
	return out
}
