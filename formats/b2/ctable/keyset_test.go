package ctable

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// A join filter's key set (index.InSet) is not evaluated by late
// materialization (the JoinFilterOp above a CTable scan tests it), and a
// row check that meets one (valueIn) applies it: even keys pass here.
func TestKeySetPred(t *testing.T) {
	p := index.Pred{Col: 0, Op: index.InSet, Set: &index.KeySet{Has: func(k int64) bool { return k%2 == 0 }}}
	if lateEvaluable(p, columnar.TInt64) {
		t.Error("InSet is late-evaluable")
	}
	for k, want := range map[int64]bool{0: true, 1: false, -4: true, 7: false} {
		if got := valueIn(p, columnar.IntValue(columnar.TInt64, k)); got != want {
			t.Errorf("valueIn(%d) = %v, want %v", k, got, want)
		}
	}
	if valueIn(p, columnar.StringValue("2")) {
		t.Error("a string passes an integer key set")
	}
}
