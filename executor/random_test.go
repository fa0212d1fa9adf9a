package executor

import "testing"

func TestPCG32(t *testing.T) {
	// pcg32::seed(s) on the default stream: state = (s + inc)·mult + inc.
	var p pcg32
	p.seed(42)
	s, inc, mult := uint64(42), uint64(pcgInc), uint64(pcgMult)
	want := (s+inc)*mult + inc
	if p.state != want {
		t.Fatalf("state = %d, want %d", p.state, want)
	}
	// setseed(0.5) then the first random() of DuckDB 1.5: 0.8511131886287325.
	e := &RandomEngine{}
	if err := e.SetSeed(0.5); err != nil {
		t.Fatal(err)
	}
	var site pcg32
	site.seed(e.draw())
	if got := site.float(); got != 0.8511131886287325 {
		t.Errorf("random() after setseed(0.5) = %v, want 0.8511131886287325", got)
	}
	if e.SetSeed(1.5) == nil {
		t.Error("setseed(1.5): no error")
	}
}
