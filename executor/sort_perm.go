package executor

import (
	"cmp"
	"context"
	"encoding/binary"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// sortEntry is one row to sort: a normalized prefix of its first key, so
// that most comparisons are one integer compare, and its row number, which
// breaks ties (an unstable sort on (key, row) is the stable sort on key).
type sortEntry struct {
	pfx uint64
	row int32
}

// sortRun is how many entries are sorted at once before they are merged;
// the context is checked between runs and every sortRun merged entries, so
// a cancelled sort stops within a few milliseconds.
const sortRun = 1 << 14

// sortPerm returns rows 0..n-1 of the key vectors ordered by spec, ties in
// row order. It stops with the context's error when the query is cancelled.
func sortPerm(ctx context.Context, keys []*columnar.Vector, spec []SortKey, n int) ([]int32, error) {
	es := make([]sortEntry, n)
	exact := normalizePrefix(es, keys, spec)
	rest := keys
	restSpec := spec
	if exact {
		rest, restSpec = keys[1:], spec[1:]
	}
	compare := func(a, b sortEntry) int {
		if a.pfx != b.pfx {
			return cmp.Compare(a.pfx, b.pfx)
		}
		if c := compareRows(rest, restSpec, int(a.row), int(b.row)); c != 0 {
			return c
		}
		return cmp.Compare(a.row, b.row)
	}
	for lo := 0; lo < n; lo += sortRun {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		slices.SortFunc(es[lo:min(lo+sortRun, n)], compare)
	}
	// Bottom-up merge of the sorted runs, through one buffer.
	buf := make([]sortEntry, n)
	src, dst := es, buf
	for width := sortRun; width < n; width *= 2 {
		done := 0
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if compare(src[j], src[i]) < 0 {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
				if done++; done%sortRun == 0 && ctx.Err() != nil {
					return nil, ctx.Err()
				}
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	perm := make([]int32, n)
	for i, e := range src {
		perm[i] = e.row
	}
	return perm, nil
}

// normalizePrefix fills each entry's row and a prefix of its first key
// whose unsigned order is the key's order (direction included). It reports
// whether the prefix decides the first key entirely (an integer key), so
// comparing it again is unneeded. Keys with NULLs, floats and booleans get
// no prefix (zero): the full comparison decides.
func normalizePrefix(es []sortEntry, keys []*columnar.Vector, spec []SortKey) bool {
	for i := range es {
		es[i].row = int32(i)
	}
	if len(keys) == 0 {
		return false
	}
	k := keys[0]
	if k.Valid != nil || k.Const || k.Dict != nil {
		return false
	}
	var flip uint64
	if spec[0].Desc {
		flip = ^uint64(0)
	}
	switch k.Type.Phys() {
	case columnar.PhysInt:
		for i := range es {
			es[i].pfx = (uint64(k.Ints[i]) ^ 1<<63) ^ flip
		}
		return true
	case columnar.PhysUint:
		for i := range es {
			es[i].pfx = k.Uints[i] ^ flip
		}
		return true
	case columnar.PhysBytes:
		var b [8]byte
		for i := range es {
			s := k.Bytes[i]
			if len(s) >= 8 {
				es[i].pfx = binary.BigEndian.Uint64(s) ^ flip
				continue
			}
			b = [8]byte{}
			copy(b[:], s)
			es[i].pfx = binary.BigEndian.Uint64(b[:]) ^ flip
		}
	}
	return false
}
