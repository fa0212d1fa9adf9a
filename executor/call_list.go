package executor

import (
	"fmt"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// Scalar functions over LIST, STRUCT and MAP values, as DuckDB 1.5 names
// and defines them (func_list.go registers them). The hot ones (len,
// list_contains, list_extract, struct_extract, map_keys/values) are
// vectorized over the child vectors; the rest work on a row's Values.

// newListForm builds the nested-value calls that are not kernels over
// rows: struct_extract, map_keys and map_values read a child of their
// argument without copying it, and the lambda functions evaluate their
// lambda over the elements; ok is false for other names, which the
// registry builds (func_list.go).
func newListForm(fn string, args []Expr, ret columnar.Type) (Expr, bool, error) {
	switch fn {
	case "list_transform", "list_filter":
		x, err := newListLambda(fn, args, ret) // lambda.go
		return x, true, err
	case "list_reduce":
		x, err := newListReduce(args, ret)
		return x, true, err
	case "struct_extract":
		f, ok := ConstValue(args[1])
		if !ok || f.Null {
			return nil, true, errorf("struct_extract needs a constant field")
		}
		return &fieldExpr{arg: args[0], field: int(f.I), t: ret}, true, nil
	case "map_keys", "map_values", "map_entries":
		part := 0 // map_keys
		switch fn {
		case "map_values":
			part = 1
		case "map_entries":
			part = entriesPart
		}
		return &mapPartExpr{arg: args[0], part: part, t: ret}, true, nil
	}
	return nil, false, nil
}

// listLenKernel: the number of elements of each list.
func listLenKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x := args[0]
	if x.Const {
		n := int64(x.Ends[0] - x.Starts[0])
		b.ForEach(func(i int) { out.Ints[i] = n })
		return nil
	}
	starts, ends := x.Starts, x.Ends
	if b.Sel == nil {
		ints := out.Ints[:b.Len]
		for i := range ints {
			ints[i] = int64(ends[i] - starts[i])
		}
		return nil
	}
	for _, i := range b.Sel {
		out.Ints[i] = int64(ends[i] - starts[i])
	}
	return nil
}

// cardinalityKernel: the number of entries of each map (UBIGINT).
func cardinalityKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x := args[0]
	b.ForEach(func(i int) {
		j := idx(x, i)
		out.Uints[i] = uint64(x.Ends[j] - x.Starts[j])
	})

	return nil
}

// listContainsKernel: whether a list holds the value (NULL elements never
// match), over the child vector; integer children without NULLs compare
// the payload directly.
func listContainsKernel(elem columnar.Type) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x, y := args[0], args[1]
		k := x.Kids[0]
		if elem.Phys() == columnar.PhysInt && k.Dict == nil {
			ints := k.Ints
			b.ForEach(func(i int) {
				j := idx(x, i)
				want := y.Ints[idx(y, i)]
				found := false
				for r := x.Starts[j]; r < x.Ends[j]; r++ {
					if ints[r] == want && (k.Valid == nil || k.Valid.Get(int(r))) {
						found = true
						break
					}
				}
				out.Bools[i] = found
			})

			return nil
		}
		b.ForEach(func(i int) {
			j, yi := idx(x, i), idx(y, i)
			found := false
			for r := int(x.Starts[j]); r < int(x.Ends[j]); r++ {
				if !k.IsNull(r) && columnar.CompareRows(k, r, y, yi) == 0 {
					found = true
					break
				}
			}
			out.Bools[i] = found
		})

		return nil
	}
}

// listExtractKernel: element n of a list, counted from 1 (from the end
// when negative); NULL when out of range or 0.
func listExtractKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x, p := args[0], args[1]
	k := x.Kids[0]
	b.ForEach(func(i int) {
		if out.IsNull(i) {
			return
		}
		j := idx(x, i)
		s, e := int64(x.Starts[j]), int64(x.Ends[j])
		n := p.Ints[idx(p, i)]
		r := int64(-1)
		switch {
		case n > 0 && n <= e-s:
			r = s + n - 1
		case n < 0 && -n <= e-s:
			r = e + n
		}
		if r < 0 {
			out.SetNull(i, b.Len)
			return
		}
		out.CopyRow(i, k, int(r), b.Len)
	})

	return nil
}

// listValueKernel: a list of the arguments' values (NULLs included).
func listValueKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	b.ForEach(func(i int) {
		out.Starts[i] = int32(out.KidLen)
		for _, a := range args {
			out.AppendKid(a, idx(a, i))
		}
		out.Ends[i] = int32(out.KidLen)
	})

	return nil
}

// structPackKernel: a struct of the arguments' values, field by field.
func structPackKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	for f, a := range args {
		k := out.Kids[f]
		k.ExtendValid(b.Len)
		b.ForEach(func(i int) { k.CopyRow(i, a, idx(a, i), b.Len) })
	}
	return nil
}

// fieldExpr is struct_extract: a struct's field is its child vector, whose
// rows are NULL where the struct is (columnar's invariant), so it is
// returned as is.
type fieldExpr struct {
	arg   Expr
	field int
	t     columnar.Type
	out   columnar.Vector // the field with the struct's NULLs added
	valid columnar.Bitmap
}

func (e *fieldExpr) Type() columnar.Type { return e.t }

func (e *fieldExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	v, err := e.arg.Eval(b)
	if err != nil {
		return nil, err
	}
	if v.Const {
		if v.IsNull(0) {
			return columnar.ConstVector(columnar.NullValue(e.t)), nil
		}
		return columnar.ConstVector(v.Kids[e.field].Value(0)), nil
	}
	kid := v.Kids[e.field]
	if v.Valid == nil {
		return kid, nil
	}
	// A NULL struct's field is NULL, whatever its child row holds.
	if kid.Const {
		flat := columnar.NewVector(kid.Type, b.Len)
		for i := range b.Len {
			flat.CopyRow(i, kid, 0, b.Len)
		}
		kid = flat
	}
	words := (b.Len + 63) / 64
	e.valid = slices.Grow(e.valid[:0], words)[:words]
	for w := range e.valid {
		x := v.Valid[w]
		if kid.Valid != nil {
			x &= kid.Valid[w]
		}
		e.valid[w] = x
	}
	e.out = *kid
	e.out.Valid = e.valid
	return &e.out, nil
}

func (e *fieldExpr) String() string { return fmt.Sprintf("struct_extract(%v, %d)", e.arg, e.field+1) }

// mapPartExpr is map_keys/map_values/map_entries: the list of the map's
// keys, values or entries shares the map's ranges and the entries' key or
// value child (or the entries themselves).
type mapPartExpr struct {
	arg  Expr
	part int
	t    columnar.Type
	out  columnar.Vector
}

// entriesPart is mapPartExpr's part for map_entries: the entries.
const entriesPart = 2

func (e *mapPartExpr) Type() columnar.Type { return e.t }

func (e *mapPartExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	v, err := e.arg.Eval(b)
	if err != nil {
		return nil, err
	}
	kid := v.Kids[0] // the entries
	if e.part != entriesPart {
		kid = kid.Kids[e.part]
	}
	e.out = columnar.Vector{Type: e.t, Valid: v.Valid, Const: v.Const, Starts: v.Starts, Ends: v.Ends, KidLen: v.KidLen,
		Kids: []*columnar.Vector{kid}}
	return &e.out, nil
}

func (e *mapPartExpr) String() string {
	return [...]string{"map_keys", "map_values", "map_entries"}[e.part] + fmt.Sprintf("(%v)", e.arg)
}
