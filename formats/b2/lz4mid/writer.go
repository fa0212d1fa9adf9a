package lz4mid

// minMatch is the shortest match a sequence can hold: its token stores
// the match length minus 4.
const minMatch = 4

// writer appends LZ4 sequences to a fixed buffer and notes when the next
// one would not fit (full) instead of growing it: a block that does not
// fit in the caller's budget is stored raw.
type writer struct {
	dst    []byte
	pos    int
	anchor int // start of the literals not yet written
	full   bool
}

// sequence writes literals lits followed by a match of mlen bytes at
// distance off: a token (literal length and match length - 4, 15 meaning
// "more bytes follow"), the extra literal length bytes, the literals, the
// offset (2 bytes, little-endian) and the extra match length bytes.
func (w *writer) sequence(lits []byte, off, mlen int) {
	ll, ml := len(lits), mlen-minMatch
	if w.pos+1+extraLength(ll)+ll+2+extraLength(ml) > len(w.dst) {
		w.full = true
		return
	}
	w.dst[w.pos] = byte(min(ll, 15))<<4 | byte(min(ml, 15))
	w.pos++
	w.length(ll)
	w.pos += copy(w.dst[w.pos:], lits)
	w.dst[w.pos], w.dst[w.pos+1] = byte(off), byte(off>>8)
	w.pos += 2
	w.length(ml)
}

// literalsOnly writes the block's last sequence: literals and no match.
func (w *writer) literalsOnly(lits []byte) {
	ll := len(lits)
	if w.full || w.pos+1+extraLength(ll)+ll > len(w.dst) {
		w.full = true
		return
	}
	w.dst[w.pos] = byte(min(ll, 15)) << 4
	w.pos++
	w.length(ll)
	w.pos += copy(w.dst[w.pos:], lits)
}

// extraLength is how many bytes length writes for n.
func extraLength(n int) int {
	if n < 15 {
		return 0
	}
	return (n-15)/255 + 1
}

// length writes the bytes continuing a length the token holds as 15:
// n-15 as a run of 255s and a final byte below 255.
func (w *writer) length(n int) {
	if n < 15 {
		return
	}
	n -= 15
	for n >= 255 {
		w.dst[w.pos] = 255
		w.pos++
		n -= 255
	}
	w.dst[w.pos] = byte(n)
	w.pos++
}
