package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// The settings of the memory manager (executor/memory) and the spill files
// (executor/spill), as DuckDB names them.
func init() {
	Register(Setting{
		Name: "memory_limit", Aliases: []string{"max_memory"}, Type: "VARCHAR",
		Description: "The most memory a query's operators may hold before they spill or fail (e.g. 4GB, 80%; -1 or none for no limit)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.MemoryLimit = 0
				return nil
			}
			n, err := ParseMemoryLimit(v)
			if err != nil {
				return err
			}
			st.MemoryLimit = n
			return nil
		},
		Show: func(st *Settings) columnar.Value {
			switch n := EffectiveMemoryLimit(st.MemoryLimit); {
			case n <= 0:
				return stringValue("unlimited")
			default:
				return stringValue(memory.FormatSize(n))
			}
		},
	})
	Register(Setting{
		Name: "temp_directory", Type: "VARCHAR",
		Description: "The directory operators spill to ('' disables spilling; default: the system's temp directory)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.TempDirectory, st.SpillOff = "", false
				return nil
			}
			if !v.Type.IsString() {
				return fmt.Errorf("expected a directory name, got %s", v.String())
			}
			st.TempDirectory, st.SpillOff = v.S, v.S == ""
			return nil
		},
		Show: func(st *Settings) columnar.Value { return stringValue(TempDirectory(st)) },
	})
	Register(Setting{
		Name: "max_temp_directory_size", Type: "VARCHAR",
		Description: "The most bytes a query's spill files may take in temp_directory (e.g. 10GB; -1 or none for no bound)",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.MaxTempSize = 0
				return nil
			}
			n, err := parseSize(v)
			if err != nil {
				return err
			}
			st.MaxTempSize = max(n, 0)
			return nil
		},
		Show: func(st *Settings) columnar.Value {
			if st.MaxTempSize <= 0 {
				return stringValue("unlimited")
			}
			return stringValue(memory.FormatSize(st.MaxTempSize))
		},
	})
	Register(Setting{
		Name: "debug_force_external", Type: "BOOLEAN",
		Description: "DEBUG SETTING: every operator that can spill (sort, hash aggregate, hash join, window, DISTINCT, set operations, CTEs) writes what it holds to temp_directory as if over its memory limit",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.ForceExternal = false
				return nil
			}
			on, err := settingBool(v)
			st.ForceExternal = on
			return err
		},
		Show: func(st *Settings) columnar.Value { return boolValue(st.ForceExternal) },
	})
}

// EffectiveMemoryLimit is the limit a query runs under for the setting n
// (Settings.MemoryLimit): 0 is the default, < 0 none (returned as -1).
func EffectiveMemoryLimit(n int64) int64 {
	switch {
	case n == 0:
		if d := memory.DefaultLimit(); d > 0 {
			return d
		}
		return -1
	case n < 0:
		return -1
	}
	return n
}

// TempDirectory is where queries with settings st spill ("" when off).
func TempDirectory(st *Settings) string {
	switch {
	case st.SpillOff:
		return ""
	case st.TempDirectory != "":
		return st.TempDirectory
	}
	return os.TempDir()
}

// ParseMemoryLimit reads a memory_limit value: a size with a unit ('4GB',
// '512 MiB', as DuckDB), a percentage of the memory the process may use
// ('80%', of memory.Total), or -1 / 'none' / 'unlimited' for no limit
// (returned as -1). A plain number of bytes is refused, as DuckDB does: a
// missing unit is more often a mistake than a byte count.
func ParseMemoryLimit(v columnar.Value) (int64, error) {
	if v.Type.IsString() {
		t := strings.TrimSpace(v.S)
		if p, ok := strings.CutSuffix(t, "%"); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || f <= 0 || f > 100 {
				return 0, fmt.Errorf("expected a percentage of memory between 0 and 100, got %q", t)
			}
			total := memory.Total()
			if total <= 0 {
				return 0, fmt.Errorf("cannot take %s of memory: the machine's memory is unknown; give a size such as 4GB", t)
			}
			return int64(float64(total) * f / 100), nil
		}
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("a memory limit of 0 bytes leaves no memory for any query (use -1 or 'none' for no limit)")
	}
	return n, nil
}

// parseSize reads a byte size setting; -1, 'none' and 'unlimited' are -1.
func parseSize(v columnar.Value) (int64, error) {
	switch {
	case v.Type.IsInteger() && v.I < 0:
		return -1, nil
	case v.Type.IsString():
		switch strings.ToLower(strings.TrimSpace(v.S)) {
		case "none", "unlimited", "-1":
			return -1, nil
		}
		return memory.ParseSize(v.S)
	}
	return 0, fmt.Errorf("expected a size such as '4GB', got %s", v.String())
}
