package b2

import (
	"context"
	"reflect"
	"testing"

	"github.com/b2sql/b2sql/storage"
)

// aheadLog is a storage.Prefetcher that records what it is asked for.
type aheadLog struct{ asked []storage.Range }

func (a *aheadLog) ReadAt(p []byte, off int64) (int, error) { return len(p), nil }
func (a *aheadLog) Prefetch(ctx context.Context, rs []storage.Range) error {
	return nil
}
func (a *aheadLog) PrefetchAhead(rs []storage.Range) { a.asked = append(a.asked, rs...) }

// TestAheadFrame: reads in order start the read-ahead on the third, in
// windows growing from aheadMin, asked again when half is left and cut at
// the frame's end; reads far apart (a lookup) and reads outside the
// frame's chunk bytes ask for nothing; a local file has no follower.
func TestAheadFrame(t *testing.T) {
	const lo, hi = 1000, 1000 + 3*aheadMin
	log := &aheadLog{}
	a := newAheadFrame(log, lo, hi)
	read := func(off, n int64) { a.note(off, n) }

	read(0, 100)       // the frame header: outside the chunk bytes
	read(lo, 40000)    // run 1
	read(lo+40000, 10) // run 2
	if len(log.asked) != 0 {
		t.Fatalf("asked %v before the third read in order", log.asked)
	}
	read(lo+40010, 30000) // run 3: the first window, from the run's end
	end := int64(lo + 70010)
	want := []storage.Range{{Off: end, Len: aheadMin}}
	if !reflect.DeepEqual(log.asked, want) {
		t.Fatalf("asked %v, want %v", log.asked, want)
	}
	read(end, aheadMin/4) // more than half of the window is left: nothing
	if len(log.asked) != 1 {
		t.Fatalf("asked %v with most of the window left", log.asked)
	}
	read(end+aheadMin/4, aheadMin/2) // less than half left: the next, aheadGrow times as large, cut at hi
	want = append(want, storage.Range{Off: end + aheadMin, Len: hi - (end + aheadMin)})
	if !reflect.DeepEqual(log.asked, want) {
		t.Fatalf("asked %v, want %v", log.asked, want)
	}
	read(end+3*aheadMin/4, aheadMin) // at the end of the frame: nothing more
	if len(log.asked) != 2 {
		t.Fatalf("asked %v past the frame's end", log.asked)
	}

	// A lookup: reads a megabyte apart never make a run.
	log2 := &aheadLog{}
	b := newAheadFrame(log2, 0, 100<<20)
	for i := range int64(10) {
		b.note(i*(2<<20), 65536)
	}
	if len(log2.asked) != 0 {
		t.Fatalf("a lookup asked for %v", log2.asked)
	}

	if newAheadFrame(bytesReaderAt{}, 0, 100) != nil {
		t.Fatal("a local reader got a read-ahead")
	}
}

type bytesReaderAt struct{}

func (bytesReaderAt) ReadAt(p []byte, off int64) (int, error) { return len(p), nil }

// TestAheadFrameGrows: a frame read from end to end in 256 KiB reads gets
// windows of 512 KiB, 2, 8 and then 16 MiB each, every one asked for
// when less than half of the one before is left, and none past the end.
func TestAheadFrameGrows(t *testing.T) {
	const hi = 300 << 20
	log := &aheadLog{}
	a := newAheadFrame(log, 0, hi)
	for off := int64(0); off < hi; off += 256 << 10 {
		a.note(off, 256<<10)
	}
	var got []int64
	var next int64 = 3 * 256 << 10 // the first window starts after the third read
	for _, r := range log.asked {
		if r.Off != next {
			t.Fatalf("window at %d, want %d (windows %v)", r.Off, next, log.asked)
		}
		next = r.Off + r.Len
		got = append(got, r.Len>>10)
	}
	want := []int64{512, 2 << 10, 8 << 10, 16 << 10, 16 << 10, 16 << 10}
	if next != hi || !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatalf("windows (KiB) %v up to %d, want %v… up to %d", got, next, want, int64(hi))
	}
}
