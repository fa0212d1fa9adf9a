package engine

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// DuckDB settings whose default is what b2sql does and whose other values
// ask for a mechanism b2sql does not have. SET to the default is accepted
// (it states what holds), to any other value refused with the reason, so
// that a script written for DuckDB runs where its meaning is kept and
// fails where it is not.
var fixedSettings = []struct {
	name, typ, desc string
	value           columnar.Value // the one value b2sql has
	why             string         // why the others are refused
}{
	{"debug_verify_vector", "VARCHAR", "DEBUG SETTING: enable vector verification",
		columnar.StringValue("NONE"), "DuckDB's vector verification modes exercise DuckDB's own vector formats"},
	{"debug_window_mode", "VARCHAR", "DEBUG SETTING: switch window mode to use",
		columnar.StringValue("WINDOW"), "b2sql's window operator picks its frame algorithm per function; there is no switch to force DuckDB's COMBINE or SEPARATE modes"},
	{"old_implicit_casting", "BOOLEAN", "Allow implicit casting to/from VARCHAR",
		columnar.BoolValue(false), "b2sql casts a VARCHAR implicitly only where DuckDB does now (string literals)"},
	{"enable_caching_operators", "BOOLEAN", "Enables caching operators that cache intermediate results",
		columnar.BoolValue(true), "b2sql has no switch for the operators that keep intermediate results"},
}

func init() {
	for _, f := range fixedSettings {
		Register(Setting{
			Name: f.name, Type: f.typ, Description: f.desc + " (b2sql: " + f.value.String() + " only)",
			Apply: func(_ *Engine, _ *Settings, v columnar.Value, reset bool) error {
				if reset || sameSetting(v, f.value) {
					return nil
				}
				return fmt.Errorf("only %s is supported: %s", f.value.String(), f.why)
			},
			Show: func(*Settings) columnar.Value { return f.value },
		})
	}
}

// sameSetting reports whether the value of a SET is v: a boolean as on/off
// in any spelling, a string in any case.
func sameSetting(x, v columnar.Value) bool {
	if v.Type.ID == columnar.Bool {
		b, err := settingBool(x)
		return err == nil && b == v.Bool()
	}
	if x.Type.ID == columnar.Bool && v.Type.IsString() {
		return false
	}
	return x.Type.IsString() && strings.EqualFold(strings.TrimSpace(x.S), v.S)
}
