package parquet

import "encoding/binary"

// gatherCodes sets out[j] to dict[index i+j] for the indices of a
// dictionary page read through l, in one pass: each bit-packed index is
// extracted, checked against the dictionary and looked up as it is
// unpacked, where lazyCodes.fill followed by a gather would write the
// indices out, read them back to check them and read them again to look
// them up. RLE runs (checked when l was indexed) fill their value.
func gatherCodes[T int64 | float64](l *lazyCodes, i int, dict, out []T) error {
	for len(out) > 0 {
		r := &l.runs[l.run(i)]
		k := min(len(out), r.start+r.n-i)
		if r.rle {
			x := dict[r.val]
			for j := range out[:k] {
				out[j] = x
			}
			out, i = out[k:], i+k
			continue
		}
		// Up to a group of 32 in the run, then 32 at a time by the
		// width's generated function (dictgather_gen.go), then the rest.
		lead := min(k, (32-(i-r.start)%32)%32)
		if err := gatherRun(l, r, i, dict, out[:lead]); err != nil {
			return err
		}
		j := lead
		for ; j+32 <= k; j += 32 {
			p := r.off + (i+j-r.start)/8*l.bw
			if p+4*l.bw > len(l.src) || !gather32(l.bw, l.src[p:], dict, (*[32]T)(out[j:j+32])) {
				break // the page's last bytes, or an index to report
			}
		}
		if err := gatherRun(l, r, i+j, dict, out[j:k]); err != nil {
			return err
		}
		out, i = out[k:], i+k
	}
	return nil
}

// gatherRun is gatherCodes within the bit-packed run r, for indices
// [i, i+len(out)), a group of 8 or one index per load.
func gatherRun[T int64 | float64](l *lazyCodes, r *hrun, i int, dict, out []T) error {
	lim := uint64(len(dict))
	k := len(out)
	bw := uint(l.bw)
	mask := uint64(1)<<bw - 1
	pos := uint(i-r.start) * bw // bit offset of index i in the run
	j := 0
	if bw <= 8 {
		// Up to the next group of 8 one by one, then a group per
		// 8-byte load (8 indices of bw bits are bw bytes).
		for ; j < k && (i+j-r.start)%8 != 0; j++ {
			c, err := l.at(i + j)
			if err != nil {
				return err
			}
			out[j] = dict[c]
			pos += bw
		}
		for ; j+8 <= k; j += 8 {
			p := uint(r.off) + pos>>3
			if p+8 > uint(len(l.src)) {
				break
			}
			w := binary.LittleEndian.Uint64(l.src[p:])
			o := out[j : j+8 : j+8]
			for m := range uint(8) {
				c := w >> (m * bw & 63) & mask
				if c >= lim {
					return corruptf("dictionary index %d, dictionary has %d values", c, lim)
				}
				o[m] = dict[c]
			}
			pos += 8 * bw
		}
	} else {
		// One 8-byte load per index (bw <= 32 bits plus a shift < 8).
		for ; j < k; j++ {
			p := uint(r.off) + pos>>3
			if p+8 > uint(len(l.src)) {
				break
			}
			c := binary.LittleEndian.Uint64(l.src[p:]) >> (pos & 7) & mask
			if c >= lim {
				return corruptf("dictionary index %d, dictionary has %d values", c, lim)
			}
			out[j] = dict[c]
			pos += bw
		}
	}
	for ; j < k; j++ { // near the end of the page's bytes
		c, err := l.at(i + j)
		if err != nil {
			return err
		}
		out[j] = dict[c]
	}
	return nil
}
