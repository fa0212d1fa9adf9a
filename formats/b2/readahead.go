package b2

import (
	"io"
	"sync"

	"github.com/b2sql/b2sql/storage"
)

// Reading a remote frame ahead of its scan.
//
// A scan decodes a column's blocks in order, one unit of rows at a time,
// and each decode reads only the blocks it needs (chunkread.go): over an
// object store 20 ms away that is one round trip per block per column,
// one after the other (a full scan of the 10M-row events .b2z made 2,587
// requests and took 15× its local time). A frame read through a
// storage.Prefetcher (a remote object, or a zip member inside one) follows
// its reads instead: once three reads follow each other in the frame's
// chunk bytes, it asks for the bytes after them before they are read, in windows
// that grow fourfold from aheadMin up to aheadMax, each asked for again when
// less than half of it is left. The storage layer splits a window into
// requests of at most its MaxRequest (8 MiB) and sends them at once, so a
// 16 MiB window is two requests in flight. With windows doubling to 8 MiB a
// 47 MiB column of the events .b2z waited for 10 requests one after the
// other (12 round trips with the metadata, at 200 ms a request); now 9. A
// larger window does not pay: the storage layer lets reads ahead claim
// half of its cache (64 MiB per object), and a scan of four columns whose
// 64 MiB windows took it all left the other columns to read block by
// block. The windows stop at the frame's last chunk byte,
// so a table's other columns are never fetched for it; a lookup that reads
// a few blocks far apart starts no run.

// aheadFrame follows the reads of one frame's chunk bytes.
type aheadFrame struct {
	p      storage.Prefetcher
	lo, hi int64 // the frame's chunk bytes in the object

	mu      sync.Mutex
	end     int64 // the end of the highest read of the current run
	run     int   // reads in the current run
	aheadTo int64 // bytes asked for ahead, up to here
	window  int64 // the next window's size
	last    int64 // the last window's size (0: none asked in this run)
}

const (
	aheadMin  = 512 << 10
	aheadMax  = 16 << 20
	aheadGrow = 4
	// aheadGap: a read that starts at most this far past the run's end
	// (blocks a filter skipped) continues the run, and so does one at most
	// aheadBack before it (the scan's other worker, a unit behind).
	aheadGap  = 256 << 10
	aheadBack = 1 << 20
	// aheadRun reads in order start the read-ahead: a binary search's
	// last steps inside one block do not.
	aheadRun = 3
)

// newAheadFrame returns a follower for the frame whose chunk bytes are
// [lo, hi) of ra, or nil when ra cannot fetch ahead (a local file).
func newAheadFrame(ra io.ReaderAt, lo, hi int64) *aheadFrame {
	p, ok := ra.(storage.Prefetcher)
	if !ok || hi <= lo {
		return nil
	}
	return &aheadFrame{p: p, lo: lo, hi: hi}
}

// note records a read of [off, off+n) and asks for the next window when
// the reads run in order.
func (a *aheadFrame) note(off, n int64) {
	if a == nil || off < a.lo || off >= a.hi {
		return
	}
	a.mu.Lock()
	if a.run == 0 || off > a.end+aheadGap || off < a.end-aheadBack {
		a.run, a.end, a.aheadTo, a.window, a.last = 1, off+n, off+n, aheadMin, 0
		a.mu.Unlock()
		return
	}
	a.run++
	a.end = max(a.end, off+n)
	var r storage.Range
	if a.aheadTo < a.end {
		a.aheadTo = a.end // the reads overtook the window
	}
	if a.run >= aheadRun && a.aheadTo < a.hi && (a.last == 0 || a.aheadTo-a.end < a.last/2) {
		to := min(a.aheadTo+a.window, a.hi)
		r = storage.Range{Off: a.aheadTo, Len: to - a.aheadTo}
		a.aheadTo, a.last = to, a.window
		a.window = min(aheadGrow*a.window, aheadMax)
	}
	a.mu.Unlock()
	if r.Len > 0 {
		a.p.PrefetchAhead([]storage.Range{r})
	}
}

// ReadAheadAll tells the read-ahead of a remote frame that a scan will read
// all its chunk bytes in order: it asks at once for the first window bytes
// and goes on in aheadMax windows, where a run it had to
// detect would start at aheadMin and grow. A scan of one 47 MiB column of
// the events .b2z over S3 waited six windows one after the other (512 KiB,
// 2, 8, 16, 16 MiB, and the rest); the scan, which knows it reads every
// block, sizes window so that its columns together stay within the read-
// ahead share of the source's cache. It starts the run over (a table kept
// open between queries is scanned again from its start); bytes already
// cached or on their way are not asked for twice (the storage layer's
// range cache). A no-op for a local frame.
func (f *Frame) ReadAheadAll(window int64) {
	if f.file == nil || f.file.ahead == nil || window <= 0 {
		return
	}
	a := f.file.ahead
	a.mu.Lock()
	to := min(a.lo+window, a.hi)
	a.run, a.end, a.aheadTo = aheadRun, a.lo, to
	a.last, a.window = to-a.lo, aheadMax
	a.mu.Unlock()
	a.p.PrefetchAhead([]storage.Range{{Off: a.lo, Len: to - a.lo}})
}

// NoReadAhead turns the read-ahead off for f: a frame read by binary
// search (an index's sorted values) reads blocks that draw near each other
// and would look like a run, and fetch a window no lookup needs. Call it
// before the first read.
func (f *Frame) NoReadAhead() {
	if f.file != nil {
		f.file.ahead = nil
	}
}

// ReadAt reads the frame's stored bytes (off is in the object), noting the
// read for the read-ahead.
func (cf *chunkFile) ReadAt(p []byte, off int64) (int, error) {
	cf.ahead.note(off, int64(len(p)))
	return cf.ra.ReadAt(p, off)
}
