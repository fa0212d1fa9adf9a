package parquet

import (
	"encoding/binary"
	"sort"
)

// Dictionary indices of numeric pages are not unpacked when the page is
// loaded: the page's hybrid runs are indexed (headers only), and indices
// are extracted when rows are read, a range at a time for dense reads, one
// by one for the few rows a selective filter or late materialization
// reads. A page of 40,000 dates of which a filter keeps 4% then costs 4%
// of its unpacking.

// hrun is one run of a hybrid-encoded page: values [start, start+n).
type hrun struct {
	start, n int
	rle      bool
	val      int32 // RLE: the repeated value
	off      int   // bit-packed: offset in src of the run's first byte
}

// lazyCodes is a page of dictionary indices in the RLE/bit-packed hybrid
// encoding, decoded on demand. Every index it returns is below lim.
type lazyCodes struct {
	src  []byte
	bw   int
	lim  uint32
	runs []hrun
	cur  int // run of the last lookup (reads move forward)
}

// reset indexes the n values of src (bit width bw), checking the run
// structure as decodeHybrid does; RLE values are checked against lim here,
// bit-packed ones when extracted.
func (l *lazyCodes) reset(src []byte, bw, n int, lim uint32) error {
	l.src, l.bw, l.lim, l.cur = src, bw, lim, 0
	l.runs = l.runs[:0]
	if bw < 0 || bw > 32 {
		return corruptf("hybrid encoding bit width %d", bw)
	}
	pos, got := 0, 0
	for got < n {
		h, k := binary.Uvarint(src[pos:])
		if k <= 0 {
			return corruptf("hybrid run header truncated after %d of %d values", got, n)
		}
		pos += k
		if h&1 == 0 {
			cnt := h >> 1
			nb := (bw + 7) / 8
			if len(src)-pos < nb {
				return corruptf("hybrid RLE run truncated")
			}
			var v uint32
			for i := nb - 1; i >= 0; i-- {
				v = v<<8 | uint32(src[pos+i])
			}
			pos += nb
			if cnt == 0 {
				return corruptf("hybrid RLE run of 0 values")
			}
			cnt = min(cnt, uint64(n-got))
			if bw < 32 && v>>uint(bw) != 0 {
				return corruptf("hybrid RLE value %d wider than %d bits", v, bw)
			}
			if v >= lim {
				return corruptf("dictionary index %d, dictionary has %d values", v, lim)
			}
			l.runs = append(l.runs, hrun{start: got, n: int(cnt), rle: true, val: int32(v)})
			got += int(cnt)
			continue
		}
		groups := h >> 1
		if groups == 0 {
			return corruptf("hybrid bit-packed run of 0 groups")
		}
		if bw > 0 && groups > uint64((len(src)-pos)/bw) {
			return corruptf("hybrid bit-packed run truncated")
		}
		cnt := n - got
		if groups < uint64(cnt+7)/8 { // groups is bounded only when bw > 0
			cnt = int(groups) * 8
		}
		if bw == 0 {
			// Every value is 0: an RLE run of 0.
			if lim == 0 {
				return corruptf("dictionary index 0, dictionary has 0 values")
			}
			l.runs = append(l.runs, hrun{start: got, n: cnt, rle: true})
		} else {
			l.runs = append(l.runs, hrun{start: got, n: cnt, off: pos})
		}
		pos += int(groups) * bw
		got += cnt
	}
	return nil
}

// run returns the index of the run holding value i (< the page's n).
func (l *lazyCodes) run(i int) int {
	c := l.cur
	if c >= len(l.runs) || i < l.runs[c].start {
		c = sort.Search(len(l.runs), func(j int) bool { return l.runs[j].start+l.runs[j].n > i })
	}
	for l.runs[c].start+l.runs[c].n <= i {
		c++
	}
	l.cur = c
	return c
}

// at returns index i.
func (l *lazyCodes) at(i int) (int32, error) {
	r := &l.runs[l.run(i)]
	if r.rle {
		return r.val, nil
	}
	bit := (i - r.start) * l.bw
	var w uint64
	if p := r.off + bit>>3; p+8 <= len(l.src) {
		w = binary.LittleEndian.Uint64(l.src[p:]) >> uint(bit&7)
	} else {
		w = bitsAt(l.src, r.off*8+bit, l.bw)
	}
	c := uint32(w) & (1<<uint(l.bw) - 1)
	if c >= l.lim {
		return 0, corruptf("dictionary index %d, dictionary has %d values", c, l.lim)
	}
	return int32(c), nil
}

// fill decodes indices [i, i+len(out)) into out.
func (l *lazyCodes) fill(i int, out []int32) error {
	for len(out) > 0 {
		r := &l.runs[l.run(i)]
		k := min(len(out), r.start+r.n-i)
		if r.rle {
			fill(out[:k], r.val)
		} else {
			rel := i - r.start
			j := 0
			// Values before the next group boundary one by one, then whole
			// groups from a byte boundary.
			for ; j < k && (rel+j)%8 != 0; j++ {
				c, err := l.at(i + j)
				if err != nil {
					return err
				}
				out[j] = c
			}
			if j < k {
				unpack(l.src[r.off+(rel+j)/8*l.bw:], l.bw, k-j, out[j:j])
				for _, c := range out[j:k] {
					if uint32(c) >= l.lim {
						return corruptf("dictionary index %d, dictionary has %d values", c, l.lim)
					}
				}
			}
		}
		out = out[k:]
		i += k
	}
	return nil
}
