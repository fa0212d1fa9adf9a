package memory

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/executor/spill"
)

// Manager accounts the memory one query's operators reserve against one
// limit. It is safe for concurrent use by the operators of parallel
// pipelines.
type Manager struct {
	limit   int64  // bytes; <= 0: unlimited
	tempDir string // where spill files go; "" disables spilling
	maxTemp int64  // max_temp_directory_size (<= 0: none)
	// forceSpill is debug_force_external: a reservation that can spill
	// and holds something is refused every further byte (ForceSpill).
	forceSpill bool

	used atomic.Int64
	peak atomic.Int64

	mu   sync.Mutex
	held []*Reservation // every reservation taken, for Close and EXPLAIN ANALYZE
}

// NewManager returns a manager with the given limit (bytes, <= 0 for none),
// temp directory ("" to disable spilling) and max_temp_directory_size
// (bytes, <= 0 for none). Built with the tag b2sql_noaccounting it returns
// nil, which allows everything: a benchmark's measure of what accounting
// costs (accounting.go).
func NewManager(limit int64, tempDir string, maxTemp int64) *Manager {
	if !accounting {
		return nil
	}
	return &Manager{limit: limit, tempDir: tempDir, maxTemp: maxTemp}
}

// SpillDir is where the query's operators spill.
func (m *Manager) SpillDir() *spill.Dir { return spill.DirFor(m.tempDir) }

// MaxTemp is max_temp_directory_size in bytes (<= 0: none).
func (m *Manager) MaxTemp() int64 {
	if m == nil {
		return 0
	}
	return m.maxTemp
}

// Limit is the manager's limit in bytes (<= 0: none).
func (m *Manager) Limit() int64 {
	if m == nil {
		return 0
	}
	return m.limit
}

// TempDir is the directory spill files go to ("" when spilling is off).
func (m *Manager) TempDir() string {
	if m == nil {
		return ""
	}
	return m.tempDir
}

// Used is the bytes reserved now; Peak the most reserved at once.
func (m *Manager) Used() int64 {
	if m == nil {
		return 0
	}
	return m.used.Load()
}

// Peak is the most bytes the query's reservations held at once.
func (m *Manager) Peak() int64 {
	if m == nil {
		return 0
	}
	return m.peak.Load()
}

// ForceSpill makes the manager answer ErrSpill to every Grow of a
// reservation that can spill and already holds something, whatever the
// limit: debug_force_external, which DuckDB uses to run its out-of-core
// paths on small inputs. Every operator that can spill then spills as soon
// as it holds more than its first reservation, so the spill paths (sort
// runs and their merge, aggregate and join partitions and their recursive
// rounds, window partitions) run in tests whose data fits in memory many
// times over, and must give the answers they give in memory. The first
// Grow of a reservation is granted so that every operator makes progress,
// as a spilled partition's first batch is (Force). It must be called
// before the query runs.
func (m *Manager) ForceSpill(on bool) {
	if m != nil {
		m.forceSpill = on
	}
}

// forced reports whether Grow must refuse r because spilling is forced.
func (r *Reservation) forced() bool {
	return r.m.forceSpill && r.canSpill && r.m.tempDir != "" && r.size.Load() > 0
}

// Spillable is passed to Reserve by operators that can write what they hold
// to disk when Grow refuses.
const Spillable = true

// Reserve registers an operator's reservation, empty at first. name is what
// an out-of-memory error calls the operator ("sort", "hash join build").
func (m *Manager) Reserve(name string, canSpill bool) *Reservation {
	if m == nil {
		return nil
	}
	r := &Reservation{m: m, name: name, canSpill: canSpill}
	m.mu.Lock()
	m.held = append(m.held, r)
	m.mu.Unlock()
	return r
}

// Close frees every reservation still held: the query ended, whichever
// way. The manager may be used again (a re-executed plan).
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	held := m.held
	m.held = nil
	m.mu.Unlock()
	for _, r := range held {
		r.Free()
	}
}

// Reservations lists the reservations taken so far (for EXPLAIN ANALYZE).
func (m *Manager) Reservations() []*Reservation {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Reservation(nil), m.held...)
}

// add reserves n bytes if they fit under the query's limit and the
// process's (for an operator that can spill to the query's temp directory,
// under spillShare of them); it answers which refused them otherwise.
func (m *Manager) add(n int64, canSpill bool) (ok, byProcess bool) {
	canSpill = canSpill && m.tempDir != ""
	limit := m.limit
	if canSpill {
		limit = spillShare(limit)
	}
	var u int64
	for {
		u = m.used.Load()
		if limit > 0 && n > 0 && u+n > limit {
			return false, false
		}
		if m.used.CompareAndSwap(u, u+n) {
			break
		}
	}
	// A query without a limit (memory_limit = none) is never refused, but
	// what it holds still counts against the other queries.
	if m.limit <= 0 {
		process.used.Add(n)
	} else if !process.add(n, canSpill) {
		m.used.Add(-n)
		return false, true
	}
	m.notePeak(u + n)
	tuneGC(process.used.Load()) // gc.go
	return true, false
}

// notePeak raises the peak to u.
func (m *Manager) notePeak(u int64) {
	for {
		p := m.peak.Load()
		if u <= p || m.peak.CompareAndSwap(p, u) {
			return
		}
	}
}

// sub returns n bytes to the query and the process.
func (m *Manager) sub(n int64) {
	m.used.Add(-n)
	tuneGC(process.used.Add(-n))
}

// ErrSpill is Grow's answer to an operator that can spill when the bytes it
// asks for do not fit: write out what it holds, Shrink, and go on.
var ErrSpill = errors.New("memory: spill")

// OutOfMemory is the error that ends a query whose operator needs more than
// the limit allows and cannot spill (or has nothing left to spill).
type OutOfMemory struct {
	Operator string
	Need     int64 // bytes the operator would hold
	Limit    int64 // the query's memory_limit
	// Process > 0: the query was within its limit, but the queries of the
	// process together hold Held of the process limit Process.
	Process, Held int64
}

func (e *OutOfMemory) Error() string {
	if e.Process > 0 {
		return fmt.Sprintf("out of memory: %s needs %s, and the queries running in this process hold %s of its %s; retry when they are done, or set temp_directory",
			e.Operator, FormatSize(e.Need), FormatSize(e.Held), FormatSize(e.Process))
	}
	return fmt.Sprintf("out of memory: %s needs %s, memory_limit is %s; set memory_limit or temp_directory",
		e.Operator, FormatSize(e.Need), FormatSize(e.Limit))
}

// Reservation is the memory one operator holds. It is used by that
// operator's goroutine only; the manager behind it is shared.
type Reservation struct {
	m        *Manager
	name     string
	canSpill bool

	size    atomic.Int64
	peak    atomic.Int64
	spilled atomic.Int64 // bytes written to spill files
}

// Grow asks for n more bytes. nil: they are reserved. ErrSpill: the
// operator said it can spill, holds something and a temp directory is set;
// it should spill and Shrink (nothing was reserved). *OutOfMemory: the
// query cannot go on.
func (r *Reservation) Grow(n int64) error {
	if r == nil || n <= 0 {
		if r != nil {
			r.Shrink(-n)
		}
		return nil
	}
	if r.forced() {
		return ErrSpill
	}
	ok, byProcess := r.m.add(n, r.canSpill)
	if ok {
		s := r.size.Add(n)
		if s > r.peak.Load() {
			r.peak.Store(s)
		}
		return nil
	}
	if r.canSpill && r.m.tempDir != "" && r.size.Load() > 0 {
		return ErrSpill
	}
	e := &OutOfMemory{Operator: r.name, Need: r.size.Load() + n, Limit: r.m.limit}
	if byProcess {
		e.Process, e.Held = process.limit.Load(), process.used.Load()
	}
	return e
}

// Force reserves n bytes even past the limit, for an operator that must
// hold a minimum to make progress (a spilled partition's first batch);
// the manager's Used and Peak show the excess.
func (r *Reservation) Force(n int64) {
	if r == nil || n <= 0 {
		return
	}
	process.used.Add(n)
	r.m.notePeak(r.m.used.Add(n))
	if s := r.size.Add(n); s > r.peak.Load() {
		r.peak.Store(s)
	}
}

// Shrink returns n bytes (at most what is held).
func (r *Reservation) Shrink(n int64) {
	if r == nil || n <= 0 {
		return
	}
	n = min(n, r.size.Load())
	r.size.Add(-n)
	r.m.sub(n)
}

// Free returns everything the reservation holds; it may grow again.
func (r *Reservation) Free() {
	if r == nil {
		return
	}
	n := r.size.Swap(0)
	r.m.sub(n)
}

// Spilled records n bytes written to spill files (EXPLAIN ANALYZE).
func (r *Reservation) Spilled(n int64) {
	if r != nil {
		r.spilled.Add(n)
	}
}

// Name is the operator's name; Size, Peak and SpilledBytes its figures.
func (r *Reservation) Name() string {
	if r == nil {
		return ""
	}
	return r.name
}

// Size is the bytes held now.
func (r *Reservation) Size() int64 {
	if r == nil {
		return 0
	}
	return r.size.Load()
}

// Peak is the most bytes held at once.
func (r *Reservation) Peak() int64 {
	if r == nil {
		return 0
	}
	return r.peak.Load()
}

// SpilledBytes is the bytes written to spill files so far.
func (r *Reservation) SpilledBytes() int64 {
	if r == nil {
		return 0
	}
	return r.spilled.Load()
}
