package executor

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// Stretches of rows equal in the sort prefix are ordered by the keys the
// prefix leaves undecided. When those keys are integers and short
// strings without NULLs, each row of a stretch is first written as a few
// words whose unsigned order, word by word, is the keys' order (an
// integer as wordAt gives it, a string zero-padded with its length in the
// last byte, as stringPrefix does, every word flipped for DESC): sorting
// then compares words in a scratch instead of reading each key column of
// both rows per comparison (TPC-H Q16's 18,325 groups under ORDER BY
// count DESC, brand, type, size: stretches of equal count and brand
// prefix ordered by brand, type and size, a tenth of the query).

// sortEntry is one row to sort: a normalized prefix of its first key (16
// bytes of a string, an integer whole), so that most comparisons are one
// or two integer compares and touch no row, and its row number, which
// breaks ties (an unstable sort on (key, row) is the stable sort on key).
type sortEntry struct {
	pfx0, pfx1 uint64
	row        int32
}

// sortEntryBytes is what sortPerm holds per row: the entry (sorted in
// place, quickSort) and the row's place in the permutation it returns.
const sortEntryBytes = 24 + 4

// descFlip is what a prefix word is XORed with for key spec: all ones
// descending (reversing the unsigned order), else 0.
func descFlip(spec SortKey) uint64 {
	if spec.Desc {
		return ^uint64(0)
	}
	return 0
}

// wordAt is stored row r of an integer column as a word whose unsigned
// order is the values' order (a signed value with its sign bit flipped).
func (col *storeColumn) wordAt(r int) uint64 {
	if col.typ.Phys() == columnar.PhysUint {
		return col.uints[r>>chunkBits][r&chunkMask]
	}
	return uint64(col.intAt(r>>chunkBits, r&chunkMask)) ^ 1<<63
}

// bytesAt returns stored row r of a bytes column, sharing the store, or
// written into buf when it is a wide column's value held narrower than
// its key (store_wide.go).
func (col *storeColumn) bytesAt(r int, buf *[wideKeyBytes]byte) []byte {
	ch, i := r>>chunkBits, r&chunkMask
	if col.wide {
		if col.cw[ch] == wideBits {
			return col.data[ch][wideKeyBytes*i : wideKeyBytes*(i+1)]
		}
		return columnar.AppendInt128Key(buf[:0], columnar.Int128Of(col.intAt(ch, i)))
	}
	offs := col.offs[ch]
	return col.data[ch][offs[i]:offs[i+1]]
}

// isNull reports whether stored row r of col is NULL.
func (col *storeColumn) isNull(r int) bool {
	if !col.nulls {
		return false
	}
	vb := col.valid[r>>chunkBits]
	return vb != nil && !vb.Get(r&chunkMask)
}

// maxRestWords bounds the words a row of a stretch takes.
const maxRestWords = 8

// restWords describes the undecided keys as words: per key, how many
// words it takes (0: not a word key).
type restWords struct {
	cols  []*storeColumn
	size  []int
	flip  []uint64
	w     int // words a row
	words []uint64
	pos   []int32
	tmp   []sortEntry
}

// wordKeys returns the word layout of the store columns keys, or nil when
// one of them cannot be written as words or they take too many.
func (st *chunkedStore) wordKeys(keys []int, spec []SortKey) *restWords {
	if len(keys) == 0 {
		return nil
	}
	r := &restWords{}
	for k, c := range keys {
		col := &st.cols[c]
		if col.nulls {
			return nil
		}
		n := 0
		switch col.typ.Phys() {
		case columnar.PhysInt, columnar.PhysUint:
			n = 1
		case columnar.PhysBytes:
			longest := 0
			var buf [wideKeyBytes]byte
			for i := 0; i < st.n; i++ {
				longest = max(longest, len(col.bytesAt(i, &buf)))
			}
			n = longest/8 + 1 // room for the length byte
		default:
			return nil
		}
		r.w += n
		if r.w > maxRestWords {
			return nil
		}
		r.cols, r.size, r.flip = append(r.cols, col), append(r.size, n), append(r.flip, descFlip(spec[k]))
	}
	return r
}

// sort orders the stretch es (entries equal in their prefix) by the
// words of their rows, then by row.
func (r *restWords) sort(es []sortEntry) {
	n, w := len(es), r.w
	r.words = slices.Grow(r.words[:0], n*w)[:n*w]
	for i, e := range es {
		row := int(e.row)
		out := r.words[i*w : i*w+w]
		for k, col := range r.cols {
			size, flip := r.size[k], r.flip[k]
			if col.typ.Phys() != columnar.PhysBytes {
				out[0] = col.wordAt(row) ^ flip
				out = out[1:]
				continue
			}
			var b [8 * maxRestWords]byte
			var buf [wideKeyBytes]byte
			s := col.bytesAt(row, &buf)
			copy(b[:], s)
			b[8*size-1] = byte(len(s))
			for j := 0; j < size; j++ {
				out[j] = binary.BigEndian.Uint64(b[8*j:]) ^ flip
			}
			out = out[size:]
		}
	}
	r.pos = slices.Grow(r.pos[:0], n)[:n]
	for i := range r.pos {
		r.pos[i] = int32(i)
	}
	words := r.words
	slices.SortFunc(r.pos, func(a, b int32) int {
		wa, wb := words[int(a)*w:int(a)*w+w], words[int(b)*w:int(b)*w+w]
		for j := range wa {
			if wa[j] != wb[j] {
				return cmp.Compare(wa[j], wb[j])
			}
		}
		return cmp.Compare(es[a].row, es[b].row)
	})
	r.tmp = append(r.tmp[:0], es...)
	for i, p := range r.pos {
		es[i] = r.tmp[p]
	}
}
