package executor

import (
	"context"
	"fmt"
	"github.com/b2sql/b2sql/executor/executortest"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// rangeInput makes the probe rows (x, s) and build rows (lo, hi, t) of the
// range join tests: x and lo with NULLs, hi = lo + i%7, strings that sort
// differently from the numbers.
func rangeInput() (left, right [][]columnar.Value) {
	for i := range 300 {
		x := i64(int64((i * 37) % 211))
		if i%13 == 0 {
			x = null(columnar.TInt64)
		}
		left = append(left, []columnar.Value{x, str(fmt.Sprintf("s%d", (i*31)%97))})
	}
	for i := range 200 {
		lo := i64(int64((i * 91) % 199))
		hi := i64(lo.I + int64(i%7))
		if i%17 == 0 {
			lo, hi = null(columnar.TInt64), i64(int64(i))
		}
		right = append(right, []columnar.Value{lo, hi, str(fmt.Sprintf("s%d", (i*17)%89))})
	}
	return left, right
}

// holds applies op to two non-NULL values.
func holds(op string, a, b columnar.Value) bool {
	c := columnar.Compare(a, b)
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// A nested-loop join with inequality conjuncts sorts its build rows
// (RangeJoin): one key, and two bounding one build column (a band), of
// every operator, inner, left and anti, against pairs checked here one
// by one.
func TestRangeJoin(t *testing.T) {
	lrows, rrows := rangeInput()
	ltypes := []columnar.Type{columnar.TInt64, columnar.TVarchar}
	rtypes := []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TVarchar}
	type key struct {
		lcol, rcol int
		op         string
	}
	cases := [][]key{
		{{0, 0, "<"}}, {{0, 0, "<="}}, {{0, 1, ">"}}, {{0, 1, ">="}}, {{1, 2, "<"}}, {{1, 2, ">="}},
		{{0, 0, ">="}, {0, 0, "<"}},  // lo <= x < lo: nothing
		{{0, 0, ">"}, {0, 0, "<="}},  // nothing either
		{{0, 0, ">="}, {0, 1, "<="}}, // lo <= x <= hi: the first key sorts, the second filters
		{{1, 2, ">="}, {1, 2, "<="}}, // s = t as a band
		{{0, 1, "<"}, {0, 1, ">"}},   // empty band
		{{0, 1, "<="}, {0, 1, ">="}}, // x = hi as a band
	}
	for _, keys := range cases {
		for _, kind := range []JoinKind{JoinInner, JoinLeft, JoinAnti} {
			name := fmt.Sprintf("%v/%s", keys, joinKindNames[kind])
			t.Run(name, func(t *testing.T) {
				var want []string
				for _, l := range lrows {
					matched := false
					for _, r := range rrows {
						ok := true
						for _, k := range keys {
							a, b := l[k.lcol], r[k.rcol]
							ok = ok && !a.Null && !b.Null && holds(k.op, a, b)
						}
						if !ok {
							continue
						}
						matched = true
						if kind != JoinAnti {
							want = append(want, fmt.Sprintf("%s|%s|%s|%s|%s", l[0], l[1], r[0], r[1], r[2]))
						}
					}
					if !matched && kind == JoinLeft {
						want = append(want, fmt.Sprintf("%s|%s|NULL|NULL|NULL", l[0], l[1]))
					}
					if !matched && kind == JoinAnti {
						want = append(want, fmt.Sprintf("%s|%s", l[0], l[1]))
					}
				}
				slices.Sort(want)
				runSizes(t, func(t *testing.T, n int) {
					var cond Expr
					var ranges []RangeKey
					for _, k := range keys {
						lt, rt := ltypes[k.lcol], rtypes[k.rcol]
						l, r := ColumnExpr(k.lcol, lt), ColumnExpr(k.rcol, rt)
						c := mustCall(t, k.op, columnar.TBool, l, ColumnExpr(2+k.rcol, rt))
						if cond == nil {
							cond = c
						} else {
							cond = mustCall(t, "and", columnar.TBool, cond, c)
						}
						// As the planner: a second key from the other side, on
						// the same build column or not.
						if len(ranges) == 0 || lower(k.op) != lower(keys[0].op) {
							ranges = append(ranges, RangeKey{Left: l, Right: r, Op: k.op, SameRight: k.rcol == keys[0].rcol})
						}
					}
					j := &HashJoin{Left: &source{types: ltypes, rows: lrows, n: n}, Right: &source{types: rtypes, rows: rrows, n: n},
						Kind: kind, Cond: cond, Ranges: ranges}
					got := drain(t, j)
					slices.Sort(got)
					if !equalStrings(got, want) {
						t.Fatalf("got %d rows, want %d (first %v, want %v)", len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
					}
					if j.String()[:9] != "RangeJoin" {
						t.Fatalf("EXPLAIN says %q", j.String())
					}
				})
			})
		}
	}
}

// An interval join (lo <= x AND x <= hi) over many blocks: the answer of
// every pair checked here, with the blocks pruned by hi.
func TestRangeJoinIntervals(t *testing.T) {
	var lrows, rrows [][]columnar.Value
	for i := range 1000 {
		lrows = append(lrows, []columnar.Value{f64(float64((i * 7919) % 5003))})
	}
	for i := range 3000 {
		lo := float64((i * 104729) % 4999)
		rrows = append(rrows, []columnar.Value{f64(lo), f64(lo + float64(i%9))})
	}
	want := 0
	for _, l := range lrows {
		for _, r := range rrows {
			if r[0].F <= l[0].F && l[0].F <= r[1].F {
				want++
			}
		}
	}
	ft := columnar.TFloat64
	x, lo, hi := ColumnExpr(0, ft), ColumnExpr(0, ft), ColumnExpr(1, ft)
	cond := mustCall(t, "and", columnar.TBool, mustCall(t, ">=", columnar.TBool, x, ColumnExpr(1, ft)), mustCall(t, "<=", columnar.TBool, x, ColumnExpr(2, ft)))
	runSizes(t, func(t *testing.T, n int) {
		j := &HashJoin{Left: &source{types: []columnar.Type{ft}, rows: lrows, n: n}, Right: &source{types: []columnar.Type{ft, ft}, rows: rrows, n: n},
			Kind: JoinInner, Cond: cond, Ranges: []RangeKey{{Left: x, Right: lo, Op: ">="}, {Left: x, Right: hi, Op: "<="}}}
		if got := len(drain(t, j)); got != want || want == 0 {
			t.Fatalf("got %d pairs, want %d", got, want)
		}
	})
}

// Under a limit far below the build side, a nested-loop join (plain and
// range) builds in blocks and replays its probe side from a spool: the
// same rows as made here pair by pair, for every kind (probe rows' and
// build rows' marks carried across the blocks), at every batch size, one
// join or copies sharing one build (each reading it in blocks), with
// nothing left reserved or on disk.
func TestNestedLoopBlocks(t *testing.T) {
	lrows, rrows := rangeInput()
	for range 11 { // a build side of 2,400 rows: three batches of 1024
		_, r := rangeInput()
		rrows = append(rrows, r...)
	}
	ltypes := []columnar.Type{columnar.TInt64, columnar.TVarchar}
	rtypes := []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TVarchar}
	want := map[JoinKind][]string{}
	matched := make([]bool, len(rrows))
	row := func(vs ...columnar.Value) string {
		s := make([]string, len(vs))
		for i, v := range vs {
			s[i] = v.String()
		}
		return strings.Join(s, "|")
	}
	nulls := []columnar.Value{null(columnar.TInt64), null(columnar.TVarchar)}
	for _, l := range lrows {
		found := false
		for k, r := range rrows {
			if !l[0].Null && !r[0].Null && l[0].I < r[0].I && l[1].S != r[2].S {
				want[JoinInner] = append(want[JoinInner], row(l[0], l[1], r[0], r[1], r[2]))
				matched[k], found = true, true
			}
		}
		lr := row(l...)
		want[JoinMark] = append(want[JoinMark], row(l[0], l[1], columnar.BoolValue(found)))
		if found {
			want[JoinSemi] = append(want[JoinSemi], lr)
		} else {
			want[JoinAnti] = append(want[JoinAnti], lr)
			want[JoinLeft] = append(want[JoinLeft], row(l[0], l[1], null(columnar.TInt64), null(columnar.TInt64), null(columnar.TVarchar)))
		}
	}
	want[JoinLeft] = append(want[JoinLeft], want[JoinInner]...)
	want[JoinRight] = append([]string(nil), want[JoinInner]...)
	for k, r := range rrows {
		s := row(r...)
		if matched[k] {
			want[JoinRightSemi] = append(want[JoinRightSemi], s)
		} else {
			want[JoinRightAnti] = append(want[JoinRightAnti], s)
			want[JoinRight] = append(want[JoinRight], row(append(nulls, r...)...))
		}
	}
	want[JoinFull] = append(append([]string(nil), want[JoinRight]...), want[JoinLeft][:len(want[JoinAnti])]...)
	kinds := []JoinKind{JoinInner, JoinLeft, JoinFull, JoinRight, JoinSemi, JoinAnti, JoinMark, JoinRightSemi, JoinRightAnti}
	for _, kind := range kinds {
		for _, copies := range []int{0, 2, 3} { // 0: one join, no shared build
			for _, ranged := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/copies=%d/range=%v", joinKindNames[kind], copies, ranged), func(t *testing.T) {
					w := want[kind]
					slices.Sort(w)
					runSizes(t, func(t *testing.T, n int) {
						if copies > 0 && n < 7 {
							t.Skip("one batch size of each kind runs one join at 1 and 2")
						}
						tmp := t.TempDir()
						m := memory.NewManager(16<<10, tmp, 0)
						mk := func(left Operator, shared *JoinBuild) *blockCounter {
							// Each copy its own expressions, as the planner compiles them.
							x, lo := ColumnExpr(0, columnar.TInt64), ColumnExpr(0, columnar.TInt64)
							cond := mustCall(t, "and", columnar.TBool, mustCall(t, "<", columnar.TBool, x, ColumnExpr(2, columnar.TInt64)),
								mustCall(t, "<>", columnar.TBool, ColumnExpr(1, columnar.TVarchar), ColumnExpr(4, columnar.TVarchar)))
							j := &HashJoin{Left: left, Kind: kind, Cond: cond, Shared: shared}
							if shared == nil {
								j.Right = &source{types: rtypes, rows: rrows, n: n}
							}
							if ranged {
								j.Ranges = []RangeKey{{Left: x, Right: lo, Op: "<"}}
							}
							j.SetMemory(m)
							return &blockCounter{HashJoin: j}
						}
						var op Operator
						var joins []*blockCounter
						if copies == 0 {
							joins = append(joins, mk(&source{types: ltypes, rows: lrows, n: n}, nil))
							op = joins[0]
						} else {
							shared := &JoinBuild{Right: &source{types: rtypes, rows: rrows, n: n}, Probes: copies}
							g := &Gather{}
							for c := range copies {
								part := &source{types: ltypes, n: n}
								for i, r := range lrows {
									if i%copies == c {
										part.rows = append(part.rows, r)
									}
								}
								joins = append(joins, mk(part, shared))
								g.Inputs = append(g.Inputs, joins[c])
							}
							op = g
						}
						got := drain(t, op)
						slices.Sort(got)
						if !equalStrings(got, w) {
							t.Fatalf("got %d rows, want %d (first %v, want %v)", len(got), len(w), got[:min(3, len(got))], w[:min(3, len(w))])
						}
						for _, j := range joins {
							if j.passes < 2 {
								t.Fatalf("%d block passes: the test wants several", j.passes)
							}
						}
						executortest.Released(t, tmp, m, -1)
					})
				})
			}
		}
	}
}

// blockCounter records the most block passes its join went through,
// before Close drops them.
type blockCounter struct {
	*HashJoin
	passes int
}

func (b *blockCounter) Next(ctx context.Context) (*columnar.Batch, error) {
	out, err := b.HashJoin.Next(ctx)
	if b.blk != nil {
		b.passes = max(b.passes, b.blk.pass)
	}
	return out, err
}

// countingExpr counts the rows its expression is evaluated over.
type countingExpr struct {
	Expr
	rows int
}

func (c *countingExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	c.rows += b.Live()
	return c.Expr.Eval(b)
}

// TestNestedLoopSettledRows: a SEMI, ANTI or MARK nested loop stops trying
// a probe row's pairs once it matched: within the build rows (after the
// batch of pairs holding its match) and in every later block of a block
// nested loop. 300 probe rows x, 4,000 build rows y (y = 1000 + i, so
// every x < y holds and every probe row matches its first build row):
// the condition sees at most one batch of pairs per probe row, where an
// INNER join sees all 1.2M; the answers are every probe row (SEMI, MARK
// true) or none (ANTI).
func TestNestedLoopSettledRows(t *testing.T) {
	var lrows, rrows [][]columnar.Value
	for i := range 300 {
		lrows = append(lrows, []columnar.Value{i64(int64(i))})
	}
	for i := range 4000 {
		rrows = append(rrows, []columnar.Value{i64(int64(1000 + i))})
	}
	for _, kind := range []JoinKind{JoinInner, JoinSemi, JoinAnti, JoinMark} {
		for _, limit := range []int64{0, 16 << 10} { // 16 KB: blocks
			t.Run(fmt.Sprintf("%s/limit=%d", joinKindNames[kind], limit), func(t *testing.T) {
				cond := &countingExpr{Expr: mustCall(t, "<", columnar.TBool, ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64))}
				j := &HashJoin{Left: &source{types: []columnar.Type{columnar.TInt64}, rows: lrows, n: 100},
					Right: &source{types: []columnar.Type{columnar.TInt64}, rows: rrows, n: 1000}, Kind: kind, Cond: cond}
				if limit > 0 {
					j.SetMemory(memory.NewManager(limit, t.TempDir(), 0))
				}
				got := drain(t, j)
				want := map[JoinKind]int{JoinInner: 300 * 4000, JoinSemi: 300, JoinAnti: 0, JoinMark: 300}[kind]
				if len(got) != want {
					t.Fatalf("%d rows, want %d", len(got), want)
				}
				if kind == JoinMark && !strings.HasSuffix(got[0], "|true") {
					t.Fatalf("mark row %s, want true", got[0])
				}
				if kind == JoinInner {
					if cond.rows != 300*4000 {
						t.Fatalf("inner: condition over %d pairs, want all %d", cond.rows, 300*4000)
					}
					return
				}
				if most := 300 * columnar.MaxBatch; cond.rows > most {
					t.Fatalf("condition over %d pairs, want at most %d (one batch per probe row)", cond.rows, most)
				}
			})
		}
	}
}
