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
type poolAllocator struct {
	pools [maxClass + 1]sync.Pool // of unsafe.Pointer to the buffer's first byte
}

const (
	minClass = 12
	maxClass = 26
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
	if p, ok := a.pools[c].Get().(unsafe.Pointer); ok {
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
	a.pools[bits.Len(uint(c))-1].Put(unsafe.Pointer(unsafe.SliceData(b[:c])))
}
