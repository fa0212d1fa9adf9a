package parquet

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// poolAllocator is an arrow memory.Allocator that recycles buffers freed
// by arrow-go (page and decompression buffers, released when a column
// chunk reader closes) through per-size-class pools. arrow-go's default
// allocator leaves every page buffer to the garbage collector, which at
// scan speed costs more CPU than decoding plain values.
//
// Buffers are power-of-two sized, from 4 KiB to 64 MiB; other sizes fall
// back to plain allocation and Free ignores them. Allocate returns zeroed
// memory, as the default allocator does.
//
// Freed buffers go first to a free list of at most keepBytes, which the
// garbage collector leaves alone, then to sync.Pools. A pool alone loses
// its buffers every second collection, and a scan's heap is small while
// it allocates fast, so collections come every few megabytes: most page
// buffers were allocated anew (19 MB a run of TPC-H Q10). keepBytes covers
// the buffers in use at once by a few scans of wide tables (each column
// chunk being read holds up to three page-sized buffers).
type poolAllocator struct {
	mu        sync.Mutex
	kept      [maxClass + 1][]unsafe.Pointer // per class: buffers' first bytes
	keptBytes int
	pools     [maxClass + 1]sync.Pool // of unsafe.Pointer to the buffer's first byte
}

const (
	minClass  = 12
	maxClass  = 26
	keepBytes = 16 << 20
)

var bufferPool = &poolAllocator{}

var _ memory.Allocator = bufferPool

func sizeClass(n int) int {
	if n <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(n - 1))
}

func (a *poolAllocator) Allocate(size int) []byte {
	c := sizeClass(size)
	if c > maxClass {
		return make([]byte, size)
	}
	a.mu.Lock()
	p, ok := unsafe.Pointer(nil), false
	if k := a.kept[c]; len(k) > 0 {
		p, ok = k[len(k)-1], true
		a.kept[c] = k[:len(k)-1]
		a.keptBytes -= 1 << c
	}
	a.mu.Unlock()
	if !ok {
		p, ok = a.pools[c].Get().(unsafe.Pointer)
	}
	if ok {
		b := unsafe.Slice((*byte)(p), 1<<c)[:size]
		clear(b)
		return b
	}
	return make([]byte, size, 1<<c)
}

func (a *poolAllocator) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *poolAllocator) Free(b []byte) {
	c := cap(b)
	if c < 1<<minClass || c > 1<<maxClass || c&(c-1) != 0 {
		return
	}
	class, p := bits.Len(uint(c))-1, unsafe.Pointer(unsafe.SliceData(b[:c]))
	a.mu.Lock()
	if a.keptBytes+c <= keepBytes {
		a.kept[class] = append(a.kept[class], p)
		a.keptBytes += c
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	a.pools[class].Put(p)
}
