package engine

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
)

// SET and RESET change the session they run on, and only it.
func TestSessionSettings(t *testing.T) {
	e := New(catalog.New(catalog.Options{}))
	a := e.NewSession(Settings{Threads: 1, Pruning: true})
	b := a.Clone()
	names := planner.SwitchNames()
	r0, r1 := names[0], names[1]
	str, num := columnar.StringValue, func(n int64) columnar.Value { return columnar.IntValue(columnar.TInt64, n) }
	steps := []struct {
		name  string
		v     columnar.Value
		reset bool
		check func(Settings) bool
		err   bool
	}{
		{"threads", num(1), false, func(s Settings) bool { return s.Threads == 1 }, false},
		{"pruning", str("off"), false, func(s Settings) bool { return !s.Pruning }, false},
		{"pruning", columnar.Value{}, true, func(s Settings) bool { return s.Pruning }, false},
		{"disabled_rules", str(r0 + ", " + r1), false, func(s Settings) bool { return len(s.RulesOff) == 2 }, false},
		{r1, str("on"), false, func(s Settings) bool { return len(s.RulesOff) == 1 && s.RulesOff[r0] }, false},
		{"disabled_rules", columnar.Value{}, true, func(s Settings) bool { return len(s.RulesOff) == 0 }, false},
		{"threads", columnar.Value{}, true, func(s Settings) bool { return s.Threads == 0 }, false},
		{"threads", num(0), false, nil, true},
		{"threads", str("many"), false, nil, true},
		{"pruning", str("sometimes"), false, nil, true},
		{"no_such_setting", num(1), false, nil, true},
		{"disabled_rules", str("no_such_rule"), false, nil, true},
	}
	for _, st := range steps {
		err := a.set(st.name, st.v, st.reset)
		if (err != nil) != st.err {
			t.Fatalf("SET %s = %v (reset %v): err = %v, want error %v", st.name, st.v, st.reset, err, st.err)
		}
		if st.check != nil && !st.check(a.Settings()) {
			t.Errorf("after SET %s = %v (reset %v): settings %+v", st.name, st.v, st.reset, a.Settings())
		}
	}
	if got := b.Settings(); got.Threads != 1 || !got.Pruning || len(got.RulesOff) != 0 {
		t.Errorf("the clone's settings changed with the original's: %+v", got)
	}
}
