package planner

import "testing"

// TestOrderedScans: a scan keeps table order when its rows reach the root
// through Projects, Filters and Limits, and not under an operator that
// reorders them anyway.
func TestOrderedScans(t *testing.T) {
	a, b := &Scan{Name: "a"}, &Scan{Name: "b"}
	cases := []struct {
		name string
		plan Node
		a, b bool
	}{
		{"filter project limit", &Limit{Input: &Project{Input: &Filter{Input: a}}, Count: 5}, true, false},
		{"aggregate", &Project{Input: &Aggregate{Input: a}}, false, false},
		{"sort", &Sort{Input: &Filter{Input: a}}, false, false},
		{"join", &Join{Left: a, Right: b}, false, false},
		{"positional join", &PositionalJoin{Left: a, Right: &Project{Input: b}}, true, true},
	}
	for _, c := range cases {
		got := orderedScans(c.plan)
		if got[a] != c.a || got[b] != c.b {
			t.Errorf("%s: ordered a=%v b=%v, want %v %v", c.name, got[a], got[b], c.a, c.b)
		}
	}
}
