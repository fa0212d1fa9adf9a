package index

import (
	"sync/atomic"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestKeySetRecord: a set stays active through its trial (2^16 rows),
// then while it drops at least 1 row in 16; drops reach Dropped.
func TestKeySetRecord(t *testing.T) {
	var dropped atomic.Int64
	s := &KeySet{Dropped: &dropped}
	s.Record(1<<16-1, 0)
	if !s.Active() {
		t.Fatal("stopped during the trial")
	}
	// 2^16 + 4095 rows seen, 4095 dropped: 4095*16 >= 69631 fails.
	s.Record(4096, 4095)
	if s.Active() {
		t.Errorf("active after dropping 4095 of %d rows", 1<<16+4095)
	}
	if got := dropped.Load(); got != 4095 {
		t.Errorf("Dropped = %d, want 4095", got)
	}

	s = &KeySet{}
	s.Record(1<<16, 1<<12) // exactly 1 in 16
	if !s.Active() {
		t.Error("stopped at exactly 1 drop in 16")
	}
	s.Record(16, 0)
	if s.Active() {
		t.Error("active below 1 drop in 16")
	}

	for _, tc := range []struct {
		seen, dropped int64
		want          bool
	}{{0, 0, true}, {1<<16 - 1, 0, true}, {1 << 16, 0, false}, {1 << 20, 1 << 16, true}, {1 << 20, 1<<16 - 1, false}} {
		if got := SetTestPays(tc.seen, tc.dropped); got != tc.want {
			t.Errorf("SetTestPays(%d, %d) = %v", tc.seen, tc.dropped, got)
		}
	}
}

// TestInSetVerdict: statistics never rule a unit in or out by a key set,
// except an all-NULL unit (NULL is in no set).
func TestInSetVerdict(t *testing.T) {
	p := Pred{Col: 0, Op: InSet, Set: &KeySet{Desc: "k from d"}}
	lo, hi := columnar.IntValue(columnar.TInt64, 5), columnar.IntValue(columnar.TInt64, 5)
	for _, tc := range []struct {
		s    Stats
		want Verdict
	}{
		{Stats{HasMinMax: true, Min: lo, Max: hi, NullCount: 0, Rows: 10}, Maybe},
		{Stats{NullCount: -1, Rows: 10}, Maybe},
		{Stats{NullCount: 10, Rows: 10}, None},
	} {
		if got := tc.s.Verdict(p); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.s, got, tc.want)
		}
	}
	if got := p.String(columnar.Schema{{Name: "k", Type: columnar.TInt64}}); got != "k IN SET(k from d)" {
		t.Errorf("String = %q", got)
	}
}
