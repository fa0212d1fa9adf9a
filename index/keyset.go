package index

import "sync/atomic"

// KeySet is the membership test of an InSet predicate: a hash join's build
// keys (a runtime join filter), which a scan under the join's probe side
// applies to its rows so that the other columns of the rows it drops are
// never decoded. The test is one-sided: a key of the set always passes, a
// key outside it may pass too (a bloom filter's false positive), which the
// join then matches with nothing.
//
// A KeySet is shared by every worker of a scan and safe for concurrent
// use. The scan reports what it tested (Record), and stops testing once the
// test proves not to pay (Active), as the JoinFilterOp above a scan does:
// a set holding most of the probe keys drops almost nothing.
type KeySet struct {
	// Desc names the set for EXPLAIN, e.g. "c_custkey from orders".
	Desc string
	// Has reports whether k may be in the set.
	Has func(k int64) bool
	// Select, when non-nil, is Has over a batch, without a call per key:
	// it keeps the rows i of sel whose key vals[i] may be in the set,
	// rewriting sel in place; when dense, sel's rows are 0..len(sel)-1
	// (its contents are not read).
	Select func(vals []int64, sel []int, dense bool) []int
	// Dropped, when non-nil, receives the number of rows the test dropped.
	Dropped *atomic.Int64

	seen, dropped atomic.Int64
	off           atomic.Bool
}

// Active reports whether scans should still apply the test.
func (s *KeySet) Active() bool { return !s.off.Load() }

// Record adds a batch's outcome: n rows tested, of which dropped failed.
func (s *KeySet) Record(n, dropped int) {
	seen := s.seen.Add(int64(n))
	d := s.dropped.Add(int64(dropped))
	if dropped > 0 && s.Dropped != nil {
		s.Dropped.Add(int64(dropped))
	}
	if !SetTestPays(seen, d) {
		s.off.Store(true)
	}
}

// SetTestPays reports whether a membership test that dropped dropped of
// the seen rows it tested is worth running on: always during the first
// setTrialRows rows, then while it drops at least 1 row in setMinDrop.
// Testing a row costs about what carrying it one operator further costs,
// so a test that keeps nearly every row only adds time.
func SetTestPays(seen, dropped int64) bool {
	return seen < setTrialRows || dropped*setMinDrop >= seen
}

const (
	setTrialRows = 1 << 16
	setMinDrop   = 16
)
