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

// TestTuneGC: the collector runs at gcTightPercent from gcTightFrom bytes
// held, stays so down to half that, and gets its setting back below.
func TestTuneGC(t *testing.T) {
	if gcTune.userSet {
		t.Skip("GOGC is set in the environment: left alone")
	}
	before := gcPercent()
	tuneGC(gcTightFrom - 1)
	if got := gcPercent(); got != before {
		t.Fatalf("under the threshold: GOGC %d, want %d", got, before)
	}
	tuneGC(gcTightFrom)
	if got := gcPercent(); got != gcTightPercent {
		t.Fatalf("at the threshold: GOGC %d, want %d", got, gcTightPercent)
	}
	tuneGC(gcTightFrom / 2)
	if got := gcPercent(); got != gcTightPercent {
		t.Fatalf("at half the threshold: GOGC %d, want still %d", got, gcTightPercent)
	}
	tuneGC(gcTightFrom/2 - 1)
	if got := gcPercent(); got != before {
		t.Fatalf("below half: GOGC %d, want %d back", got, before)
	}
}
