package engine

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
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
	// AnyOrder is preserve_insertion_order = false: unsorted results may
	// come in any order (planner/order.go).
	AnyOrder bool
	// RulesOff: optimizer rules (planner.Rules names) and scan rules
	// (index.ScanRule names) switched off one by one, snake_case.
	RulesOff map[string]bool
	// OptimizersOff is disabled_optimizers as last set: DuckDB's optimizer
	// names, whose b2sql rules are in RulesOff (settings_optimizers.go).
	OptimizersOff []string
	// MemoryLimit is the query memory limit in bytes: 0 = the default
	// (memory.DefaultLimit), < 0 = none (settings_memory.go).
	MemoryLimit int64
	// TempDirectory is where operators spill ("" = the system's temp
	// directory); SpillOff (SET temp_directory = '') disables spilling.
	TempDirectory string
	SpillOff      bool
	MaxTempSize   int64 // max_temp_directory_size in bytes; <= 0 = none
	// ForceExternal is debug_force_external: operators that can spill
	// spill whatever they hold (settings_memory.go).
	ForceExternal bool
	// TimeZone is the zone TIMESTAMP WITH TIME ZONE values are shown and
	// split into fields in ("" = the machine's local zone, settings_time.go).
	TimeZone string
	// NullOrder and DefaultOrder are the defaults of ORDER BY keys that
	// do not say NULLS FIRST/LAST or ASC/DESC (settings_order.go): the
	// zero values are DuckDB's defaults, NULLS LAST and ascending;
	// DefaultOrder is "", "ASC" or "DESC".
	NullOrder    sql.NullOrder
	DefaultOrder string
	// RegexFull is regex_match_operator_semantics = 'full': x ~ p must
	// match the whole of x (settings_regex.go); the default is partial.
	RegexFull bool
	// SubqueryAnyRow is scalar_subquery_error_on_multiple_rows = false
	// (settings_semantics.go): a scalar subquery's first row, not an error.
	SubqueryAnyRow bool
	// NoIEEE is ieee_floating_point_ops = false: a floating-point division
	// or remainder by zero is NULL (settings_semantics.go, sql/bind_ieee.go).
	NoIEEE bool
	// OrderByLiteral is order_by_non_integer_literal = true: ORDER BY 'a'
	// is allowed and orders nothing (settings_semantics.go).
	OrderByLiteral bool
	// ExplainOutput is explain_output as set ("": PHYSICAL_ONLY), any
	// case (explain_output.go).
	ExplainOutput string
	// storage reads the catalog's storage configuration, which the s3_*
	// and http_* settings change database-wide (secrets.go).
	storage func() *storage.Config
}

// Session is one connection's view of the database: the shared catalog
// and its own settings, so that SET on one database/sql connection leaves
// the others alone. Safe for concurrent use.
type Session struct {
	e        *Engine
	mu       sync.RWMutex
	s        Settings
	prepared map[string]prepared // PREPARE's statements by lower-case name (prepare.go)
	vars     map[string]variable // SET VARIABLE's values by lower-case name (variables.go)
	// random is the token of the session's random engine, which setseed
	// reseeds and random() draws from (executor/random.go).
	random int64
	tx     *txn // the open transaction (tx.go); nil: autocommit
	// path is where unqualified names resolve (USE; attach.go).
	path sql.Path
}

// txn is a session's open transaction (tx.go).
type txn struct {
	cat      *catalog.Catalog
	readOnly bool
	aborted  bool
}

// variable is a SQL variable a session keeps (variables.go): its name as
// last set, and its value.
type variable struct {
	name  string
	value columnar.Value
}

// prepared is a statement PREPARE keeps in its session.
type prepared struct {
	src  sql.Source
	stmt sql.Statement
}

// NewSession returns a session with settings s (Threads already clamped,
// see ClampThreads).
func (e *Engine) NewSession(s Settings) *Session {
	s.storage = e.Cat.StorageConfig
	return &Session{e: e, s: s, random: executor.NewRandomEngine()}
}

// Clone returns a new session starting from s's current settings.
func (s *Session) Clone() *Session {
	return &Session{e: s.e, s: s.Settings(), random: executor.NewRandomEngine()}
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

// buildOptions are the session's settings as the planner takes them.
func (s *Session) buildOptions(analyze bool, threads int) (planner.Options, planner.BuildOptions) {
	st := s.Settings()
	disabled, scanOff := planner.SwitchesOff(st.RulesOff)
	if threads == 0 {
		threads = s.threads()
	}
	return planner.Options{AllOff: !st.Pruning, Disabled: disabled}, planner.BuildOptions{
		Threads: threads, NoPrune: !st.Pruning, ScanRulesOff: scanOff, Analyze: analyze,
		MemoryLimit: st.MemoryLimit, TempDirectory: TempDirectory(&st), NoSpill: st.SpillOff, MaxTempSize: st.MaxTempSize,
		AnyOrder: st.AnyOrder, ForceSpill: st.ForceExternal,
	}
}
