package memory

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's setting.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGC: the collector runs at 25% from 256 MiB held and at 12% from
// 1 GiB, stays at a level down to half its threshold, and gets its
// setting back below half the first.
func TestTuneGC(t *testing.T) {
	if gcTune.userSet {
		t.Skip("GOGC is set in the environment: left alone")
	}
	before := gcPercent()
	steps := []struct {
		held int64
		want int
	}{
		{256<<20 - 1, before},
		{256 << 20, 25},
		{1<<30 - 1, 25},
		{1 << 30, 12},
		{512 << 20, 12},   // half the second threshold: still
		{512<<20 - 1, 25}, // under it: a level down
		{128 << 20, 25},   // half the first: still
		{128<<20 - 1, before},
		{3 << 30, 12}, // straight up two levels
		{1, before},   // and down two
	}
	for _, s := range steps {
		tuneGC(s.held)
		if got := gcPercent(); got != s.want {
			t.Fatalf("at %d bytes held: GOGC %d, want %d", s.held, got, s.want)
		}
	}
}
