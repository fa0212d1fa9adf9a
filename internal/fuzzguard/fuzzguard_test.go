package fuzzguard

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records Fatalf instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

var sink []byte

func TestDoneCatchesLargeAllocation(t *testing.T) {
	r := &recorder{TB: t}
	g := Start(r, 100)
	sink = make([]byte, 64<<20) // what a hostile length field would cause
	g.Done()
	if r.failed == "" {
		t.Fatal("a 64 MiB allocation for a 100-byte input was not reported")
	}
	sink = nil
}

func TestDoneAllowsBudget(t *testing.T) {
	r := &recorder{TB: t}
	g := Start(r, 1<<10)
	g.Allow(8 << 20)
	for range 100 {
		sink = make([]byte, 1<<10) // small allocations, within PerByte × n
	}
	sink = make([]byte, 8<<20) // Allow'ed output
	g.Done()
	if r.failed != "" {
		t.Fatalf("an input within its budget failed: %s", r.failed)
	}
	sink = nil
}
