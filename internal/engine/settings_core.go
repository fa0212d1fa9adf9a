package engine

import (
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/planner"
)

// The settings of the planner: parallelism and the optimizer's switches.
func init() {
	Register(Setting{
		Name: "threads", Aliases: []string{"worker_threads"}, Type: "BIGINT",
		Description: "The number of threads a query uses (default: the usable CPUs)",
		Apply: func(e *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.Threads = 0
				return nil
			}
			x, err := settingInt(v)
			if err != nil || x < 1 {
				return fmt.Errorf("expected a positive integer, got %s", v.String())
			}
			st.Threads = e.ClampThreads(int(x))
			return nil
		},
		Show: func(st *Settings) columnar.Value {
			if st.Threads > 0 {
				return intValue(int64(st.Threads))
			}
			return intValue(int64(runtime.GOMAXPROCS(0)))
		},
	})
	Register(Setting{
		Name: "pruning", Aliases: []string{"optimizer"}, Type: "BOOLEAN",
		Description: "Whether statistics, indexes and optimizer rules may skip work (results never change)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			on, err := onOff(v, reset)
			st.Pruning = on
			return err
		},
		Show: func(st *Settings) columnar.Value { return boolValue(st.Pruning) },
	})
	Register(Setting{
		Name: "disabled_rules", Aliases: []string{"disabled_optimizers"}, Type: "VARCHAR",
		Description: "Comma-separated optimizer and scan rules switched off",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			off := map[string]bool{}
			if !reset {
				if !v.Type.IsString() {
					return fmt.Errorf("expected a string of comma-separated rule names, got %s", v.String())
				}
				for _, r := range strings.Split(v.S, ",") {
					if r = strings.TrimSpace(r); r == "" {
						continue
					}
					sw, ok := planner.LookupSwitch(r)
					if !ok {
						return fmt.Errorf("unknown rule %q (rules: %s)", r, strings.Join(planner.SwitchNames(), ", "))
					}
					off[sw.Name] = true
				}
			}
			st.RulesOff = off
			return nil
		},
		Show: func(st *Settings) columnar.Value {
			var off []string
			for r := range st.RulesOff {
				off = append(off, r)
			}
			sort.Strings(off)
			return stringValue(strings.Join(off, ","))
		},
	})
}

// ruleSetting is the switch of one optimizer or scan rule (canonical
// snake_case name): SET rule = off switches it off, RESET back on.
func ruleSetting(sw planner.Switch) *Setting {
	canon := sw.Name
	return &Setting{
		Name: canon, Type: "BOOLEAN",
		Description: sw.Description + " (off never changes a result)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			on, err := onOff(v, reset)
			if err != nil {
				return err
			}
			if st.RulesOff == nil {
				st.RulesOff = map[string]bool{}
			}
			if on {
				delete(st.RulesOff, canon)
			} else {
				st.RulesOff[canon] = true
			}
			return nil
		},
		Show: func(st *Settings) columnar.Value { return boolValue(!st.RulesOff[canon]) },
	}
}

// onOff reads the value of SET name = v, a switch (on by default).
func onOff(v columnar.Value, reset bool) (bool, error) {
	if reset {
		return true, nil
	}
	return settingBool(v)
}

func settingInt(v columnar.Value) (int64, error) {
	switch {
	case v.Type.IsInteger():
		return v.I, nil
	case v.Type.IsString():
		return strconv.ParseInt(strings.TrimSpace(v.S), 10, 64)
	}
	return 0, fmt.Errorf("not an integer")
}

// settingBool reads an on/off value of SET.
func settingBool(v columnar.Value) (bool, error) {
	switch {
	case v.Type.ID == columnar.Bool:
		return v.Bool(), nil
	case v.Type.IsInteger():
		return v.I != 0, nil
	case v.Type.IsString():
		return dml.OnOff(v.S)
	}
	return false, fmt.Errorf("expected on or off, got %s", v.String())
}
