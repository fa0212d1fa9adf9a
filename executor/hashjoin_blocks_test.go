package executor

import "testing"

// Values added one by one and in runs that straddle block ends come out
// flat in order: 3 blocks and a bit, pairs added across the boundaries.
func TestBlockListFlat(t *testing.T) {
	var l blockList[int64]
	const n = 3*blockLen + 5
	for i := int64(0); i < n; i += 2 {
		if i+1 < n {
			l.add(i, i+1)
		} else {
			l.add(i)
		}
	}
	if l.n != n || len(l.blocks) != 4 {
		t.Fatalf("n %d in %d blocks, want %d in 4", l.n, len(l.blocks), n)
	}
	got := l.flat()
	if len(got) != n {
		t.Fatalf("flat: %d values, want %d", len(got), n)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("value %d is %d", i, v)
		}
	}
	if l.n != 0 || l.blocks != nil || len(l.flat()) != 0 {
		t.Fatal("flat did not empty the list")
	}
}
