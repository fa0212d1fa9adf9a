package executor

import (
	"context"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// codedSource re-encodes column col of src's batches as dictionary codes,
// the way a Parquet scan hands over dictionary chunks: each batch gets its
// own dictionary (values in a different order each time, plus values no
// row uses), every third batch stays plain (a chunk that fell back to
// PLAIN pages), and rows hidden by the selection keep their poison value.
type codedSource struct {
	*source
	col int
	k   int
}

func (s *codedSource) Open(ctx context.Context) error { s.k = 0; return s.source.Open(ctx) }

func (s *codedSource) Next(ctx context.Context) (*columnar.Batch, error) {
	b, err := s.source.Next(ctx)
	if err != nil {
		return nil, err
	}
	s.k++
	if s.k%3 == 0 {
		return b, nil
	}
	v := b.Cols[s.col]
	vals := []string{"unused-" + string(rune('a'+s.k%26))}
	for i := range b.Len {
		if !v.IsNull(i) && !slices.Contains(vals, string(v.Bytes[i])) {
			vals = append(vals, string(v.Bytes[i]))
		}
	}
	if s.k%2 == 0 {
		slices.Reverse(vals)
	}
	d := dict.New(vals...)
	codes := dict.Set(v, d, b.Len)
	for i := range b.Len {
		codes[i] = 0 // NULL rows: a stale but in-range code
		if !v.IsNull(i) {
			codes[i] = int32(slices.Index(vals, string(v.Bytes[i])))
		}
	}
	v.Bytes = nil // a coded vector's Bytes is unused: make sure nobody reads it
	return b, nil
}

// fruits: s is coded; x identifies the row.
func fruits(n int) *codedSource {
	null := columnar.NullValue(columnar.TVarchar)
	rows := [][]columnar.Value{
		{str("b"), i64(1)}, {str("a"), i64(2)}, {null, i64(3)}, {str("c"), i64(4)}, {str("a"), i64(5)},
		{str("b"), i64(6)}, {str("a"), i64(7)}, {null, i64(8)}, {str("d"), i64(9)}, {str("a"), i64(10)},
	}
	return &codedSource{source: &source{types: []columnar.Type{columnar.TVarchar, columnar.TInt64}, rows: rows, n: n}}
}

func TestHashAggOnCodes(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		s := ColumnExpr(0, columnar.TVarchar)
		x := ColumnExpr(1, columnar.TInt64)
		agg := &HashAgg{
			Input:  fruits(n),
			Groups: []Expr{s},
			Aggs: []AggSpec{
				{Kind: AggCountStar, Type: columnar.TInt64},
				{Kind: AggSum, Arg: x, Type: columnar.TInt64},
				{Kind: AggCount, Arg: s, Type: columnar.TInt64},
				{Kind: AggMin, Arg: s, Type: columnar.TVarchar},
			},
		}
		got := drain(t, agg)
		slices.Sort(got)
		// a: rows 2,5,7,10; b: 1,6; c: 4; d: 9; NULL: 3,8.
		want := []string{"NULL|2|11|0|NULL", "a|4|24|4|a", "b|2|7|2|b", "c|1|4|1|c", "d|1|9|1|d"}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func TestHashAggOnCodesNoGroupsAndTwoKeys(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		s := ColumnExpr(0, columnar.TVarchar)
		x := ColumnExpr(1, columnar.TInt64)
		all := &HashAgg{Input: fruits(n), Aggs: []AggSpec{
			{Kind: AggCount, Arg: s, Type: columnar.TInt64},
			{Kind: AggCount, Arg: s, Distinct: true, Type: columnar.TInt64},
			{Kind: AggMin, Arg: s, Type: columnar.TVarchar},
			{Kind: AggMax, Arg: s, Type: columnar.TVarchar},
		}}
		if got := drain(t, all); !equalStrings(got, []string{"8|4|a|d"}) {
			t.Fatalf("no groups: got %v", got)
		}
		gt5 := mustCall(t, ">", columnar.TBool, x, ConstExpr(i64(5)))
		two := &HashAgg{Input: fruits(n), Groups: []Expr{s, gt5}, Aggs: []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}}}
		got := drain(t, two)
		slices.Sort(got)
		want := []string{"NULL|false|1", "NULL|true|1", "a|false|2", "a|true|2", "b|false|1", "b|true|1", "c|false|1", "d|true|1"}
		if !equalStrings(got, want) {
			t.Fatalf("two keys: got %v, want %v", got, want)
		}
	})
}

func TestFilterOnCodes(t *testing.T) {
	s := ColumnExpr(0, columnar.TVarchar)
	null := ConstExpr(columnar.NullValue(columnar.TVarchar))
	cases := []struct {
		name string
		fn   string
		args []Expr
		want []string // x of the passing rows
	}{
		{"eq", "=", []Expr{s, ConstExpr(str("a"))}, []string{"2", "5", "7", "10"}},
		{"eq absent", "=", []Expr{s, ConstExpr(str("zz"))}, nil},
		{"eq const first", "=", []Expr{ConstExpr(str("b")), s}, []string{"1", "6"}},
		{"ne", "<>", []Expr{s, ConstExpr(str("a"))}, []string{"1", "4", "6", "9"}},
		{"lt", "<", []Expr{s, ConstExpr(str("c"))}, []string{"1", "2", "5", "6", "7", "10"}},
		{"ge", ">=", []Expr{s, ConstExpr(str("c"))}, []string{"4", "9"}},
		{"eq null", "=", []Expr{s, null}, nil},
		{"in", "in", []Expr{s, ConstExpr(str("a")), ConstExpr(str("d")), ConstExpr(str("zz"))}, []string{"2", "5", "7", "9", "10"}},
		{"not in", "not_in", []Expr{s, ConstExpr(str("a")), ConstExpr(str("d"))}, []string{"1", "4", "6"}},
		{"not in with null", "not_in", []Expr{s, ConstExpr(str("a")), null}, nil},
		{"in with null", "in", []Expr{s, ConstExpr(str("c")), null}, []string{"4"}},
		{"eq column", "=", []Expr{s, s}, []string{"1", "2", "4", "5", "6", "7", "9", "10"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSizes(t, func(t *testing.T, n int) {
				f := &Filter{Input: fruits(n), Cond: mustCall(t, tc.fn, columnar.TBool, tc.args...)}
				p := &Project{Input: f, Exprs: []Expr{ColumnExpr(1, columnar.TInt64)}}
				if got := drain(t, p); !equalStrings(got, tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		})
	}
}

func TestDecodeLive(t *testing.T) {
	d := dict.New("x", "y")
	v := &columnar.Vector{Type: columnar.TVarchar}
	copy(dict.Set(v, d, 4), []int32{1, 0, 1, 0})
	v.SetNull(2, 4)
	var scratch columnar.Vector
	out := decodeLive(v, &columnar.Batch{Len: 4, Sel: []int{0, 2, 3}}, &scratch)
	if out.Dict != nil || string(out.Bytes[0]) != "y" || !out.IsNull(2) || string(out.Bytes[3]) != "x" || out.Bytes[1] != nil {
		t.Fatalf("decoded %q valid=%v", out.Bytes, out.Valid)
	}
	if got := v.Value(0); got.S != "y" {
		t.Fatalf("Value(0) = %v", got)
	}
}
