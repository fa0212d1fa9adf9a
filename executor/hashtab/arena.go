package hashtab

import "encoding/binary"

// textArena stores byte strings in chunks that are never moved: adding a
// string never copies the earlier ones (a growing []byte copied every byte
// about four times over and faulted in fresh pages each time), and a
// string is named by a pointer-free reference, so tables of references
// cost the garbage collector nothing to scan.
type textArena struct {
	chunks [][]byte
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

// bytes is the memory the arena holds.
func (a *textArena) bytes() int64 {
	n := int64(0)
	for _, c := range a.chunks {
		n += int64(cap(c))
	}
	return n
}

// growth is what the next strings may allocate: one new chunk (a string
// longer than that gets one of its own, which no estimate foresees).
func (a *textArena) growth() int64 {
	if len(a.chunks) == 0 {
		return minTextChunk
	}
	return int64(min(2*cap(a.chunks[len(a.chunks)-1]), maxTextChunk))
}
