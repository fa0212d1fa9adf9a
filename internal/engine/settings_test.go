package engine

import (
	"os"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
)

// The memory settings: values as DuckDB reads and shows them (DuckDB 1.5.6:
// SET memory_limit = '4GB' shows 3.7 GiB, '4 GiB' shows 4.0 GiB, a number
// without a unit is refused), percentages of the machine's memory, and a
// failed SET that changes nothing.
func TestMemorySettings(t *testing.T) {
	e := New(catalog.New(catalog.Options{}))
	s := e.NewSession(Settings{Pruning: true})
	str := columnar.StringValue
	show := func(name string) string {
		t.Helper()
		v, err := s.Setting(name)
		if err != nil {
			t.Fatal(err)
		}
		return v.S
	}
	mustSet := func(name string, v columnar.Value) {
		t.Helper()
		if err := s.set(name, v, false); err != nil {
			t.Fatalf("SET %s = %s: %v", name, v.String(), err)
		}
	}
	mustSet("memory_limit", str("4GB"))
	if got := s.Settings().MemoryLimit; got != 4_000_000_000 {
		t.Errorf("4GB = %d bytes, want 4000000000", got)
	}
	if got := show("memory_limit"); got != "3.7 GiB" {
		t.Errorf("current_setting after 4GB = %q, want 3.7 GiB (DuckDB)", got)
	}
	mustSet("MEMORY_LIMIT", str("4 GiB"))
	if got := show("memory_limit"); got != "4.0 GiB" {
		t.Errorf("current_setting after 4 GiB = %q, want 4.0 GiB", got)
	}
	for _, bad := range []columnar.Value{str("4"), str("4 parsecs"), str("0GB"), str("150%"), columnar.IntValue(columnar.TInt64, 1000)} {
		if err := s.set("memory_limit", bad, false); err == nil {
			t.Errorf("SET memory_limit = %s: no error", bad.String())
		}
	}
	if got := s.Settings().MemoryLimit; got != 4<<30 {
		t.Errorf("a failed SET changed memory_limit to %d", got)
	}
	if total := memory.Total(); total > 0 {
		mustSet("memory_limit", str("50%"))
		if got := s.Settings().MemoryLimit; got != total/2 {
			t.Errorf("50%% = %d, want half of %d", got, total)
		}
	}
	for _, none := range []columnar.Value{str("-1"), str("none"), columnar.IntValue(columnar.TInt64, -1)} {
		mustSet("memory_limit", none)
		if got := s.Settings().MemoryLimit; got != -1 {
			t.Errorf("SET memory_limit = %s: %d, want -1 (none)", none.String(), got)
		}
		if got := show("memory_limit"); got != "unlimited" {
			t.Errorf("current_setting with no limit = %q", got)
		}
	}
	if err := s.set("memory_limit", columnar.Value{}, true); err != nil {
		t.Fatal(err)
	}
	if got, want := show("memory_limit"), memory.FormatSize(memory.DefaultLimit()); memory.DefaultLimit() > 0 && got != want {
		t.Errorf("RESET memory_limit shows %q, want the default %q", got, want)
	}

	if got := show("temp_directory"); got != os.TempDir() {
		t.Errorf("default temp_directory = %q, want %q", got, os.TempDir())
	}
	mustSet("temp_directory", str("/var/tmp/b2"))
	if st := s.Settings(); st.TempDirectory != "/var/tmp/b2" || st.SpillOff || show("temp_directory") != "/var/tmp/b2" {
		t.Errorf("temp_directory = %+v", st)
	}
	mustSet("temp_directory", str(""))
	if st := s.Settings(); !st.SpillOff {
		t.Errorf("SET temp_directory = '' leaves spilling on")
	}
	mustSet("max_temp_directory_size", str("10MB"))
	if got := s.Settings().MaxTempSize; got != 10_000_000 {
		t.Errorf("max_temp_directory_size = %d", got)
	}
	if got := show("max_temp_directory_size"); got != "9.5 MiB" {
		t.Errorf("current_setting(max_temp_directory_size) = %q, want 9.5 MiB", got)
	}
}

// Every registered setting and every rule switch is listed once, with a
// description and a type; current_setting answers for names and aliases.
func TestSettingsList(t *testing.T) {
	s := New(catalog.New(catalog.Options{})).NewSession(Settings{Threads: 3, Pruning: true})
	seen := map[string]bool{}
	for _, r := range s.SettingsList() {
		if seen[r.Name] || r.Description == "" || r.Type == "" {
			t.Errorf("listing row %+v: duplicate or missing description/type", r)
		}
		seen[r.Name] = true
	}
	for _, n := range append([]string{"threads", "pruning", "disabled_rules", "memory_limit", "temp_directory", "max_temp_directory_size"}, planner.SwitchNames()...) {
		if !seen[n] {
			t.Errorf("setting %q missing from the listing", n)
		}
	}
	if v, err := s.Setting("worker_threads"); err != nil || v.I != 3 {
		t.Errorf("current_setting('worker_threads') = %v, %v; want 3", v, err)
	}
	if _, err := s.Setting("no_such"); err == nil || !strings.Contains(err.Error(), "memory_limit") {
		t.Errorf("unknown setting error %v does not list the settings", err)
	}
}
