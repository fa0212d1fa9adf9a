package executor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// sortPerm returns the stored rows 0..st.n-1 ordered by spec on the store
// columns keys, ties in row order. It stops with the context's error when
// the query is cancelled.
func sortPerm(ctx context.Context, st *chunkedStore, keys []int, spec []SortKey) ([]int32, error) {
	n := st.n
	es := make([]sortEntry, n)
	decided, some := st.normalizePrefix(es, keys, spec)
	rest, restSpec := keys[decided:], spec[decided:]
	byRows := func(a, b sortEntry) int {
		if c := st.compareRows(rest, restSpec, int(a.row), int(b.row)); c != 0 {
			return c
		}
		return cmp.Compare(a.row, b.row)
	}
	if !some {
		if err := quickSort(ctx, es, byRows); err != nil {
			return nil, err
		}
		return entryRows(es), nil
	}
	// First by prefix and row alone: integer compares that touch no row.
	if err := quickSort(ctx, es, comparePrefix); err != nil {
		return nil, err
	}
	src := es
	if len(rest) > 0 {
		// Then each stretch of equal prefixes by the whole keys: a stretch
		// is small next to the input, so its rows stay in cache while it
		// is sorted.
		// Stretches up to sortRun rows compare as words when the keys
		// allow (sort_words.go).
		words := st.wordKeys(rest, restSpec)
		done := 0
		for lo := 0; lo < n; {
			hi := lo + 1
			for hi < n && src[hi].pfx0 == src[lo].pfx0 && src[hi].pfx1 == src[lo].pfx1 {
				hi++
			}
			switch {
			case hi-lo > sortRun: // a long stretch: in runs, cancellable
				if err := quickSort(ctx, src[lo:hi], byRows); err != nil {
					return nil, err
				}
			case hi-lo > 1 && words != nil:
				words.sort(src[lo:hi])
			case hi-lo > 1:
				slices.SortFunc(src[lo:hi], byRows)
			}
			if done += hi - lo; done >= sortRun {
				done = 0
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			lo = hi
		}
	}
	return entryRows(src), nil
}

// comparePrefix orders entries by prefix, then row.
func comparePrefix(a, b sortEntry) int {
	if a.pfx0 != b.pfx0 {
		return cmp.Compare(a.pfx0, b.pfx0)
	}
	if a.pfx1 != b.pfx1 {
		return cmp.Compare(a.pfx1, b.pfx1)
	}
	return cmp.Compare(a.row, b.row)
}

// entryRows returns the rows of the sorted entries es.
func entryRows(es []sortEntry) []int32 {
	if es == nil {
		return nil
	}
	perm := make([]int32, len(es))
	for i, e := range es {
		perm[i] = e.row
	}
	return perm
}

// normalizePrefix fills each entry's row and a prefix of its leading keys
// whose unsigned order is their order (directions included). some
// reports whether there is a prefix; decided how many leading keys it
// decides entirely, so that comparing them again is unneeded: an integer
// key, or strings of at most 15 bytes (zero-padded, the length in the last
// byte, so that "a" sorts before "a\x00"). An integer first key takes
// pfx0 and leaves pfx1 to the second key (an integer, or 8 bytes of a
// string: decided when every one has at most 7), so that ORDER BY
// count DESC, name (TPC-H Q16) compares rows only within equal
// (count, name prefix) stretches. Keys with NULLs, floats, booleans and
// nested values get no prefix: the full comparison decides.
func (st *chunkedStore) normalizePrefix(es []sortEntry, keys []int, spec []SortKey) (decided int, some bool) {
	for i := range es {
		es[i].row = int32(i)
	}
	if len(keys) == 0 {
		return 0, false
	}
	col := &st.cols[keys[0]]
	if col.nulls {
		return 0, false
	}
	flip := descFlip(spec[0])
	switch col.typ.Phys() {
	case columnar.PhysInt, columnar.PhysUint:
		for i := range es {
			es[i].pfx0 = col.wordAt(i) ^ flip
		}
		if len(keys) == 1 {
			return 1, true
		}
		return 1 + st.secondPrefix(es, keys[1], spec[1]), true
	case columnar.PhysBytes:
		if col.stringPrefix(es, 16, flip) {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// secondPrefix fills pfx1 with the normalized prefix of stored column c
// (the second sort key) and returns 1 when it decides that key, 0 when
// rows equal in it must still be compared (or it has no prefix: pfx1
// stays 0).
func (st *chunkedStore) secondPrefix(es []sortEntry, c int, spec SortKey) int {
	col := &st.cols[c]
	if col.nulls {
		return 0
	}
	flip := descFlip(spec)
	switch col.typ.Phys() {
	case columnar.PhysInt, columnar.PhysUint:
		for i := range es {
			es[i].pfx1 = col.wordAt(i) ^ flip
		}
		return 1
	case columnar.PhysBytes:
		if col.stringPrefix(es, 8, flip) {
			return 1
		}
	}
	return 0
}

// stringPrefix sets the prefix of each entry to the first size bytes of
// its row of col (16: pfx0 and pfx1; 8: pfx1), zero-padded, with the
// length in the last byte when every string has at most size-1 bytes; it
// reports whether they all do (the prefix then decides the key).
func (col *storeColumn) stringPrefix(es []sortEntry, size int, flip uint64) bool {
	short := true
	var buf [wideKeyBytes]byte
	for i := range es {
		if len(col.bytesAt(i, &buf)) > size-1 {
			short = false
			break
		}
	}
	for i := range es {
		var b [16]byte
		s := col.bytesAt(i, &buf)
		copy(b[:size], s)
		if short {
			b[size-1] = byte(len(s))
		}
		if size == 16 {
			es[i].pfx0 = binary.BigEndian.Uint64(b[:8]) ^ flip
			es[i].pfx1 = binary.BigEndian.Uint64(b[8:]) ^ flip
		} else {
			es[i].pfx1 = binary.BigEndian.Uint64(b[:8]) ^ flip
		}
	}
	return short
}

// compareRows orders stored rows a and b on the store columns keys, as
// compareRows does vectors: NULLs placed per key, NaN greatest.
func (st *chunkedStore) compareRows(keys []int, spec []SortKey, a, b int) int {
	for k, c := range keys {
		col := &st.cols[c]
		an, bn := col.isNull(a), col.isNull(b)
		if an || bn {
			if an && bn {
				continue
			}
			c := -1 // NULL sorts after values unless NullsFirst
			if an {
				c = 1
			}
			if spec[k].NullsFirst {
				c = -c
			}
			return c
		}
		ca, ia, cb, ib := a>>chunkBits, a&chunkMask, b>>chunkBits, b&chunkMask
		var r int
		switch col.typ.Phys() {
		case columnar.PhysInt:
			r = cmp.Compare(col.intAt(ca, ia), col.intAt(cb, ib))
		case columnar.PhysUint:
			r = cmp.Compare(col.uints[ca][ia], col.uints[cb][ib])
		case columnar.PhysFloat:
			r = columnar.CompareFloat(col.floats[ca][ia], col.floats[cb][ib])
		case columnar.PhysBytes:
			var ka, kb [wideKeyBytes]byte
			r = bytes.Compare(col.bytesAt(a, &ka), col.bytesAt(b, &kb))
		case columnar.PhysNested:
			r = columnar.CompareRows(col.nested[ca], ia, col.nested[cb], ib)
		case columnar.PhysBool:
			r = cmp.Compare(b2i(col.bools[ca][ia]), b2i(col.bools[cb][ib]))
		}
		if r != 0 {
			if spec[k].Desc {
				return -r
			}
			return r
		}
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
