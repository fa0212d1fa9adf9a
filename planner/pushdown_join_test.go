package planner

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// pushTable accepts every predicate inexactly.
type pushTable struct{ statsTable }

func (t *pushTable) SupportsFilter(index.Pred) index.Support { return index.Inexact }

func TestPushFiltersThroughJoin(t *testing.T) {
	schema := columnar.Schema{{Name: "k", Type: columnar.TInt64}, {Name: "v", Type: columnar.TInt64}}
	lk := Column{ID: 1, Name: "k", Type: columnar.TInt64}
	lv := Column{ID: 2, Name: "v", Type: columnar.TInt64}
	rk := Column{ID: 3, Name: "k", Type: columnar.TInt64}
	rv := Column{ID: 4, Name: "v", Type: columnar.TInt64}
	scan := func(a, b Column) *Scan {
		return &Scan{Table: &pushTable{statsTable{schema: schema}}, Name: "t", TableCols: []int{0, 1}, Cols: []Column{a, b}, Limit: -1}
	}
	eq := func(a, b Expr) Expr { return &Call{Fn: "=", Args: []Expr{a, b}, T: columnar.TBool} }
	k7 := &Const{Val: columnar.IntValue(columnar.TInt64, 7)}
	where := JoinAnd([]Expr{eq(&ColRef{Col: lk}, &ColRef{Col: rk}), eq(&ColRef{Col: lv}, k7), eq(&ColRef{Col: rv}, k7)})
	for _, tc := range []struct {
		kind           JoinKind
		wantKind       JoinKind
		leftPushed     bool
		rightPushed    bool
		keysFromFilter int
	}{
		{JoinCross, JoinInner, true, true, 1},
		{JoinLeft, JoinLeft, true, false, 0},
		{JoinRight, JoinRight, false, true, 0},
		{JoinFull, JoinFull, false, false, 0},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			plan := &Filter{Input: &Join{Left: scan(lk, lv), Right: scan(rk, rv), Kind: tc.kind}, Cond: where}
			got := pushFilters(plan)
			var j *Join
			if f, ok := got.(*Filter); ok {
				j = f.Input.(*Join)
			} else {
				j = got.(*Join)
			}
			if j.Kind != tc.wantKind {
				t.Errorf("kind %s, want %s", j.Kind, tc.wantKind)
			}
			if len(j.EquiKeys) != tc.keysFromFilter {
				t.Errorf("%d equi-keys, want %d", len(j.EquiKeys), tc.keysFromFilter)
			}
			if p := pushedTo(j.Left); p != tc.leftPushed {
				t.Errorf("left pushed = %v, want %v", p, tc.leftPushed)
			}
			if p := pushedTo(j.Right); p != tc.rightPushed {
				t.Errorf("right pushed = %v, want %v", p, tc.rightPushed)
			}
		})
	}
}

// pushedTo reports whether a scan under n was offered a predicate.
func pushedTo(n Node) bool {
	for {
		switch x := n.(type) {
		case *Scan:
			return len(x.Filter) > 0 && strings.Contains(x.Filter[0].String(x.Table.Schema()), "7")
		case *Filter:
			n = x.Input
		default:
			return false
		}
	}
}

func TestFactorOrs(t *testing.T) {
	col := func(id ColID, name string) Expr {
		return &ColRef{Col: Column{ID: id, Name: name, Type: columnar.TInt64}}
	}
	k := func(v int64) Expr { return &Const{Val: columnar.IntValue(columnar.TInt64, v)} }
	eq := func(a, b Expr) Expr { return &Call{Fn: "=", Args: []Expr{a, b}, T: columnar.TBool} }
	or := func(es ...Expr) Expr { return &Call{Fn: "or", Args: es, T: columnar.TBool} }
	lk, lv, rk, rv := col(1, "k"), col(2, "v"), col(3, "k"), col(4, "v")
	key := eq(lk, rk)
	b1 := JoinAnd([]Expr{key, eq(lv, k(1)), eq(rv, k(10))})
	b2 := JoinAnd([]Expr{eq(lk, rk), eq(lv, k(2)), eq(rv, k(20))}) // the key rebuilt: equal by structure

	got := factorOrs([]Expr{or(b1, b2)})
	if len(got) != 2 || exprKey(got[0]) != exprKey(key) {
		t.Fatalf("factorOrs = %v, want [k = k, or(…)]", got)
	}
	if br := splitOr(got[1]); len(br) != 2 || len(SplitAnd(br[0])) != 2 || len(SplitAnd(br[1])) != 2 {
		t.Fatalf("rest = %s, want two branches of two conjuncts", got[1])
	}

	// Implied per side: left gets v = 1 OR v = 2 on column 2 only.
	l := orImplied(got[1], map[ColID]bool{1: true, 2: true})
	if l == nil || len(splitOr(l)) != 2 || !within(l, map[ColID]bool{2: true}) {
		t.Fatalf("implied on left = %v", l)
	}
	// A branch saying nothing about a side implies nothing there.
	if r := orImplied(or(eq(lv, k(1)), eq(rv, k(2))), map[ColID]bool{3: true, 4: true}); r != nil {
		t.Errorf("implied on right = %s, want nil", r)
	}

	// Columns with the same name but other IDs are not shared.
	notShared := or(JoinAnd([]Expr{eq(lv, k(1)), eq(rv, k(2))}), JoinAnd([]Expr{eq(rv, k(1)), eq(lv, k(3))}))
	if got := factorOrs([]Expr{notShared}); len(got) != 1 {
		t.Errorf("factored %v out of an OR with nothing shared", got)
	}
	// A branch that is only the shared part absorbs the others: A ∨ (A ∧ B) = A.
	if got := factorOrs([]Expr{or(key, b1)}); len(got) != 1 || exprKey(got[0]) != exprKey(key) {
		t.Errorf("factorOrs(A or A and B) = %v, want [A]", got)
	}
}
