package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/planner"
)

// Setting is one entry of the settings registry: everything SET, RESET,
// current_setting and the settings listing know about a name. Entries live
// in the file of the feature they configure and register themselves from
// an init function (Register), so adding a setting touches no switch.
type Setting struct {
	Name    string   // canonical snake_case name, as listed
	Aliases []string // other names SET accepts (DuckDB's, e.g. worker_threads)
	// Type is the SQL type of the value as the listing shows it
	// ("BIGINT", "BOOLEAN", "VARCHAR").
	Type        string
	Description string
	// Global marks a setting of the process (every session sees a SET of
	// it), not of the session.
	Global bool
	// Apply changes st from the value of SET name = v; on RESET, v is the
	// zero Value and reset is true, and Apply restores the default. An
	// error says what was expected (Apply adds no "SET name:" prefix). Apply
	// runs with the session's lock held: it must not call back into it.
	Apply func(e *Engine, st *Settings, v columnar.Value, reset bool) error
	// Show is the setting's value in st, as current_setting shows it.
	Show func(st *Settings) columnar.Value
}

var registry struct {
	sync.RWMutex
	byName map[string]*Setting // canonical names and aliases, lower case
	all    []*Setting
}

// Register adds a setting to the registry. It panics on a name or alias
// already taken: two features claiming one name is a programming error
// found at start-up.
func Register(s Setting) {
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]*Setting{}
	}
	e := &s
	for _, n := range append([]string{s.Name}, s.Aliases...) {
		n = strings.ToLower(n)
		if registry.byName[n] != nil {
			panic(fmt.Sprintf("engine: setting %q registered twice", n))
		}
		registry.byName[n] = e
	}
	registry.all = append(registry.all, e)
}

// lookup finds a setting by name or alias (any case); the optimizer and
// scan rules are settings too (rules.go), one switch each.
func lookup(name string) (*Setting, bool) {
	registry.RLock()
	s, ok := registry.byName[strings.ToLower(strings.TrimSpace(name))]
	registry.RUnlock()
	if ok {
		return s, true
	}
	if sw, ok := planner.LookupSwitch(name); ok {
		return ruleSetting(sw), true
	}
	return nil, false
}

// Settings lists every registered setting by name, then every rule switch.
func (s *Session) SettingsList() []SettingRow {
	registry.RLock()
	all := slices.Clone(registry.all)
	registry.RUnlock()
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	for _, sw := range planner.Switches() {
		all = append(all, ruleSetting(sw))
	}
	st := s.Settings()
	rows := make([]SettingRow, len(all))
	for i, e := range all {
		rows[i] = SettingRow{Name: e.Name, Value: e.Show(&st), Description: e.Description, Type: e.Type, Aliases: e.Aliases, Global: e.Global}
	}
	return rows
}

// SettingRow is one line of the settings listing (duckdb_settings()).
type SettingRow struct {
	Name        string
	Value       columnar.Value
	Description string
	Type        string
	Aliases     []string
	Global      bool
}

// Setting returns the current value of a setting (current_setting(name)).
func (s *Session) Setting(name string) (columnar.Value, error) {
	e, ok := lookup(name)
	if !ok {
		return columnar.Value{}, unknownSetting(name)
	}
	st := s.Settings()
	return e.Show(&st), nil
}

// set changes a session setting (reset restores its default).
func (s *Session) set(name string, v columnar.Value, reset bool) error {
	e, ok := lookup(name)
	if !ok {
		return unknownSetting(name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Apply works on a copy so that a failed SET changes nothing.
	st := s.s
	st.RulesOff = cloneSet(s.s.RulesOff)
	if err := e.Apply(s.e, &st, v, reset); err != nil {
		return fmt.Errorf("SET %s: %w", strings.ToLower(name), err)
	}
	s.s = st
	return nil
}

func unknownSetting(name string) error {
	registry.RLock()
	var names []string
	for _, e := range registry.all {
		names = append(names, e.Name)
	}
	registry.RUnlock()
	sort.Strings(names)
	return fmt.Errorf("unknown setting %q (settings: %s, or a rule name: %s)", name, strings.Join(names, ", "), strings.Join(planner.SwitchNames(), ", "))
}

func cloneSet(m map[string]bool) map[string]bool {
	if m == nil {
		return nil
	}
	c := make(map[string]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// boolValue and the other constructors make Show's results.
func boolValue(b bool) columnar.Value { return columnar.BoolValue(b) }

func intValue(n int64) columnar.Value { return columnar.IntValue(columnar.TInt64, n) }

func stringValue(s string) columnar.Value { return columnar.StringValue(s) }

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
