package engine

import (
	"fmt"
	"runtime"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
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
		Name: "pruning", Aliases: []string{"optimizer", "enable_optimizer"}, Type: "BOOLEAN",
		Description: "Whether statistics, indexes and optimizer rules may skip work (results never change)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			on, err := onOff(v, reset)
			st.Pruning = on
			return err
		},
		Show: func(st *Settings) columnar.Value { return boolValue(st.Pruning) },
	})
	Register(Setting{
		Name: "preserve_insertion_order", Type: "BOOLEAN",
		Description: "Whether results without ORDER BY keep the order of the files and tables they were read from (off: parallel scans hand rows on as they finish)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			on, err := onOff(v, reset)
			st.AnyOrder = !on
			return err
		},
		Show: func(st *Settings) columnar.Value { return boolValue(!st.AnyOrder) },
	})
	Register(Setting{
		Name: "disabled_rules", Type: "VARCHAR",
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
			st.RulesOff, st.OptimizersOff = off, nil
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
