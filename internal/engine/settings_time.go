package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
)

// TimeZone: the zone of TIMESTAMP WITH TIME ZONE values in this session
// (SET TimeZone = 'Europe/Amsterdam'), by default the machine's local zone
// as in DuckDB. Names are IANA names in any letter case, shown canonical.
func init() {
	Register(Setting{
		Name: "TimeZone", Type: "VARCHAR",
		Description: "The time zone TIMESTAMP WITH TIME ZONE values are shown and split into fields in",
		Apply: func(_ *Engine, st *Settings, v columnar.Value, reset bool) error {
			if reset {
				st.TimeZone = ""
				return nil
			}
			if !v.Type.IsString() {
				return fmt.Errorf("expected a time zone name, got %s", v.String())
			}
			name, err := columnar.ZoneName(v.S)
			if err != nil {
				return err
			}
			st.TimeZone = name
			return nil
		},
		Show: func(st *Settings) columnar.Value { return stringValue(st.zone()) },
	})
}

// zone is the session's time zone name.
func (st *Settings) zone() string {
	if st.TimeZone != "" {
		return st.TimeZone
	}
	return localZone()
}

// Zone is the session's time zone name (the TimeZone setting).
func (s *Session) Zone() string {
	st := s.Settings()
	return st.zone()
}

var localZone = sync.OnceValue(func() string {
	// $TZ, else the zone /etc/localtime links to, else UTC.
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" {
		if name, err := columnar.ZoneName(tz); err == nil {
			return name
		}
	}
	if p, err := filepath.EvalSymlinks("/etc/localtime"); err == nil {
		if _, name, ok := strings.Cut(p, "zoneinfo/"); ok {
			if name, err := columnar.ZoneName(name); err == nil {
				return name
			}
		}
	}
	return "UTC"
})
