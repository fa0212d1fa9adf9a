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
