package index

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// EXPLAIN prints a pushed comparison's constant as SQL would write it:
// strings and date/time values quoted, numbers bare.
func TestPredStringQuotes(t *testing.T) {
	s := columnar.Schema{{Name: "t", Type: columnar.TTime}, {Name: "n", Type: columnar.TInt64}, {Name: "s", Type: columnar.TVarchar}}
	noon := columnar.IntValue(columnar.TTime, 12*3600*1e6)
	cases := []struct {
		p    Pred
		want string
	}{
		{Pred{Col: 0, Op: Gt, Vals: []columnar.Value{noon}}, "t > '12:00:00'"},
		{Pred{Col: 1, Op: Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 1), columnar.IntValue(columnar.TInt64, 9)}}, "n BETWEEN 1 AND 9"},
		{Pred{Col: 2, Op: Eq, Vals: []columnar.Value{columnar.StringValue("it's")}}, "s = 'it''s'"},
	}
	for _, c := range cases {
		if got := c.p.String(s); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
