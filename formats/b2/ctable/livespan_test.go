package ctable

import "testing"

// TestLiveSpan checks what a table knows of a span's live rows without
// its mask, for a table without deletions, one with spare capacity past
// its rows (python-blosc2 sizes _valid_rows to a capacity) and one with
// deleted rows, against counts made by hand.
func TestLiveSpan(t *testing.T) {
	full := &Table{nphys: 100, liveEnd: 100, live: 100}
	capacity := &Table{nphys: 100, liveEnd: 60, live: 60}
	deleted := &Table{nphys: 100, liveEnd: 90, live: 85}
	cases := []struct {
		t     *Table
		lo    int64
		n     int
		known bool
		live  int
	}{
		{full, 0, 100, true, 100},
		{full, 40, 30, true, 30},
		{capacity, 0, 60, true, 60},
		{capacity, 50, 10, true, 10},
		{capacity, 50, 20, false, 0}, // straddles the end: the mask says
		{capacity, 60, 40, true, 0},
		{capacity, 70, 5, true, 0},
		{deleted, 0, 10, false, 0}, // a deletion may be anywhere below 90
		{deleted, 80, 20, false, 0},
		{deleted, 90, 10, true, 0},
	}
	for _, c := range cases {
		known, live := c.t.liveSpan(c.lo, c.n)
		if known != c.known || live != c.live {
			t.Errorf("liveEnd %d live %d: liveSpan(%d, %d) = %v, %d; want %v, %d",
				c.t.liveEnd, c.t.live, c.lo, c.n, known, live, c.known, c.live)
		}
	}
}

func TestFillOnes(t *testing.T) {
	for n := 0; n <= 70; n++ {
		b := make([]byte, n+1)
		b[n] = 7
		fillOnes(b[:n])
		for i, v := range b[:n] {
			if v != 1 {
				t.Fatalf("n=%d: byte %d is %d", n, i, v)
			}
		}
		if b[n] != 7 {
			t.Fatalf("n=%d: wrote past the end", n)
		}
	}
}
