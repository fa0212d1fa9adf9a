package hashtab

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// textArena stores byte strings in chunks that are never moved: adding a
// string never copies the earlier ones (a growing []byte copied every byte
// about four times over and faulted in fresh pages each time), and a
// string is named by a pointer-free reference, so tables of references
// cost the garbage collector nothing to scan.
type textArena struct {
	chunks [][]byte
	own    int64 // the bytes of the chunks it allocated
	// lent: buffers a caller lends for the arena's life (lend), by
	// address; last is the one the last string found lay in, and
	// lentUsed the bytes of those strings were found in.
	lent     []lentBuf
	last     int
	lentUsed int64
}

// lentBuf is a lent buffer: its bytes [lo, hi) in memory, its chunk
// number, and whether a string was found in it (so counted in bytes).
type lentBuf struct {
	lo, hi uintptr
	chunk  uint32
	used   bool
}

// Chunks start small (most tables hold a few keys) and double up to
// maxTextChunk; a longer string gets a chunk of its own.
const (
	minTextChunk = 4 << 10
	maxTextChunk = 1 << 20
)

// room returns the last chunk's number after making sure it has n bytes
// free: a new chunk, twice the last one's size up to maxTextChunk (or n
// when larger), when it has not.
func (a *textArena) room(n int) int {
	last := len(a.chunks) - 1
	if last < 0 || len(a.chunks[last])+n > cap(a.chunks[last]) {
		size := minTextChunk
		if last >= 0 {
			size = min(2*cap(a.chunks[last]), maxTextChunk)
		}
		a.chunks = append(a.chunks, make([]byte, 0, max(size, n)))
		last++
		a.own += int64(cap(a.chunks[last]))
	}
	return last
}

// add copies s into the arena and returns its reference: the chunk number
// in the high 32 bits, the offset in the low 32.
func (a *textArena) add(s []byte) uint64 {
	c := a.room(len(s))
	off := len(a.chunks[c])
	a.chunks[c] = append(a.chunks[c], s...)
	return uint64(c)<<32 | uint64(off)
}

// lend makes bufs part of the arena: a string that lies inside one of
// them is then referred to where it lies instead of copied (place). The
// caller must not change them afterwards. A parallel GROUP BY's final
// lends the buffers its partition's rows were dealt into: the rows it
// reads are slices of them, and copying each new key once more cost
// DISTINCT over 10M mostly distinct titles a tenth of its page faults.
func (a *textArena) lend(bufs [][]byte) {
	for _, b := range bufs {
		if len(b) == 0 {
			continue
		}
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		a.lent = append(a.lent, lentBuf{lo: lo, hi: lo + uintptr(len(b)), chunk: uint32(len(a.chunks))})
		// Full (capacity = length), so that add never appends to it.
		a.chunks = append(a.chunks, b[:len(b):len(b)])
	}
	slices.SortFunc(a.lent, func(x, y lentBuf) int { return cmpUintptr(x.lo, y.lo) })
}

func cmpUintptr(x, y uintptr) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// place returns a reference to s: where s lies when that is inside a lent
// buffer, else to a copy (add).
func (a *textArena) place(s []byte) uint64 {
	if len(a.lent) == 0 || len(s) == 0 {
		return a.add(s)
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	end := p + uintptr(len(s))
	b := &a.lent[a.last]
	if p < b.lo || end > b.hi {
		// The buffer starting last at or before p, if s lies in it.
		i, found := slices.BinarySearchFunc(a.lent, p, func(x lentBuf, p uintptr) int { return cmpUintptr(x.lo, p) })
		if !found {
			i--
		}
		if i < 0 || end > a.lent[i].hi {
			return a.add(s)
		}
		a.last = i
		b = &a.lent[i]
	}
	if !b.used {
		b.used = true
		a.lentUsed += int64(b.hi - b.lo)
	}
	return uint64(b.chunk)<<32 | uint64(p-b.lo)
}

// addPrefixed copies s into the arena behind its length as a uvarint, so
// that the reference alone finds it again (leadKeys.str), and returns the
// reference.
func (a *textArena) addPrefixed(s []byte) uint64 {
	c := a.room(binary.MaxVarintLen64 + len(s))
	off := len(a.chunks[c])
	a.chunks[c] = append(binary.AppendUvarint(a.chunks[c], uint64(len(s))), s...)
	return uint64(c)<<32 | uint64(off)
}

// get returns the n bytes at ref; the slice's capacity ends with it, so an
// append by the caller cannot overwrite the next string.
func (a *textArena) get(ref uint64, n uint32) []byte {
	c := a.chunks[ref>>32]
	off := uint32(ref)
	return c[off : off+n : off+n]
}

// prefixed returns the string addPrefixed stored at ref.
func (a *textArena) prefixed(ref uint64) []byte {
	c := a.chunks[ref>>32]
	off := uint32(ref)
	n, k := binary.Uvarint(c[off:])
	start := off + uint32(k)
	end := start + uint32(n)
	return c[start:end:end]
}

// bytes is the memory the arena holds: its own chunks, and the lent
// buffers it refers to (the lender may count those it lent as freed).
func (a *textArena) bytes() int64 {
	return a.own + a.lentUsed
}

// growth is what the next strings may allocate: one new chunk (a string
// longer than that gets one of its own, which no estimate foresees).
func (a *textArena) growth() int64 {
	if len(a.chunks) == 0 {
		return minTextChunk
	}
	return int64(min(2*cap(a.chunks[len(a.chunks)-1]), maxTextChunk))
}
