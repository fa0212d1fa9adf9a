package engine

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/internal/dml"
)

// Engine is what the sessions of one database share: its catalog.
type Engine struct {
	Cat *catalog.Catalog
}

// New returns an engine over cat.
func New(cat *catalog.Catalog) *Engine { return &Engine{Cat: cat} }

// Settings are a session's settings: what SET changes.
type Settings struct {
	Threads int  // 0 = GOMAXPROCS
	Pruning bool // statistics and indexes may skip data
	// RulesOff: optimizer rules (planner.Rules names) and scan rules
	// (index.ScanRule names) switched off one by one, snake_case.
	RulesOff    map[string]bool
	MemoryLimit int64 // bytes; 0 = none
}

// Session is one connection's view of the database: the shared catalog
// and its own settings, so that SET on one database/sql connection leaves
// the others alone. Safe for concurrent use.
type Session struct {
	e  *Engine
	mu sync.RWMutex
	s  Settings
}

// NewSession returns a session with settings s (Threads already clamped,
// see ClampThreads).
func (e *Engine) NewSession(s Settings) *Session { return &Session{e: e, s: s} }

// Clone returns a new session starting from s's current settings.
func (s *Session) Clone() *Session {
	return &Session{e: s.e, s: s.Settings()}
}

// Settings returns a copy of the session's settings.
func (s *Session) Settings() Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := s.s
	if c.RulesOff != nil {
		c.RulesOff = make(map[string]bool, len(s.s.RulesOff))
		for k, v := range s.s.RulesOff {
			c.RulesOff[k] = v
		}
	}
	return c
}

// Engine returns the engine the session belongs to.
func (s *Session) Engine() *Engine { return s.e }

// threads is the parallelism of the session's queries.
func (s *Session) threads() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.s.Threads > 0 {
		return s.s.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// usableCPUs is how many CPUs this process may run on: the affinity mask
// (runtime.NumCPU honours it) further limited by a cgroup v2 CPU quota.
func usableCPUs() (int, string) {
	n, why := runtime.NumCPU(), "CPU affinity"
	if b, err := os.ReadFile("/sys/fs/cgroup/cpu.max"); err == nil {
		f := strings.Fields(string(b))
		if len(f) == 2 && f[0] != "max" {
			quota, err1 := strconv.ParseFloat(f[0], 64)
			period, err2 := strconv.ParseFloat(f[1], 64)
			if err1 == nil && err2 == nil && period > 0 {
				if q := int(quota/period + 0.999); q > 0 && q < n {
					n, why = q, "cgroup CPU quota"
				}
			}
		}
	}
	return n, why
}

// ClampThreads limits n to the usable CPUs, warning once per database.
func (e *Engine) ClampThreads(n int) int {
	cpus, why := usableCPUs()
	if n <= cpus {
		return n
	}
	e.Cat.Warn(fmt.Sprintf("threads = %d exceeds the %d CPUs this process may use (%s); using %d", n, cpus, why, cpus))
	return cpus
}

// set changes a session setting (reset restores its default).
func (s *Session) set(name string, v columnar.Value, reset bool) error {
	name = strings.ToLower(name)
	switch name {
	case "threads", "worker_threads":
		n := 0
		if !reset {
			x, err := settingInt(v)
			if err != nil || x < 1 {
				return fmt.Errorf("SET threads: expected a positive integer, got %s", v.String())
			}
			n = s.e.ClampThreads(int(x))
		}
		s.mu.Lock()
		s.s.Threads = n
		s.mu.Unlock()
	case "pruning", "optimizer":
		on, err := onOff(name, v, reset)
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.s.Pruning = on
		s.mu.Unlock()
	case "disabled_rules", "disabled_optimizers":
		off := map[string]bool{}
		if !reset {
			if !v.Type.IsString() {
				return fmt.Errorf("SET %s: expected a string of comma-separated rule names, got %s", name, v.String())
			}
			for _, r := range strings.Split(v.S, ",") {
				if r = strings.TrimSpace(r); r == "" {
					continue
				}
				canon, ok := canonicalRule(r)
				if !ok {
					return fmt.Errorf("SET %s: unknown rule %q (rules: %s)", name, r, strings.Join(ruleNames(), ", "))
				}
				off[canon] = true
			}
		}
		s.mu.Lock()
		s.s.RulesOff = off
		s.mu.Unlock()
	default:
		canon, ok := canonicalRule(name)
		if !ok {
			return fmt.Errorf("unknown setting %q (settings: threads, pruning, disabled_rules, or a rule name: %s)", name, strings.Join(ruleNames(), ", "))
		}
		on, err := onOff(name, v, reset)
		if err != nil {
			return err
		}
		s.mu.Lock()
		off := map[string]bool{}
		for k := range s.s.RulesOff {
			off[k] = true
		}
		if on {
			delete(off, canon)
		} else {
			off[canon] = true
		}
		s.s.RulesOff = off
		s.mu.Unlock()
	}
	return nil
}

// planOptions are the session's settings as the planner takes them.
func (s *Session) planOptions() (pruning bool, disabled map[string]bool, scanOff index.RuleSet, memLimit int64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	disabled, scanOff = rulesOff(s.s.RulesOff)
	return s.s.Pruning, disabled, scanOff, s.s.MemoryLimit
}

// onOff reads the value of SET name = v, a switch (on by default).
func onOff(name string, v columnar.Value, reset bool) (bool, error) {
	if reset {
		return true, nil
	}
	b, err := settingBool(v)
	if err != nil {
		return false, fmt.Errorf("SET %s: %v", name, err)
	}
	return b, nil
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
