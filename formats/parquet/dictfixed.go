package parquet

import (
	"encoding/binary"
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// Dictionary-encoded numeric chunks (the DictCodes rule, applied to
// decoding): codeReader reads their pages too, converts the dictionary page
// once into the vector's payload type (time units, widening and unsigned
// views applied to each dictionary value, not to each row), then gathers
// values by index. arrow-go's typed readers decode such chunks through a
// per-batch converter that reallocates on every spaced (NULL-bearing)
// batch; gathering from a converted dictionary is the cheaper path. PLAIN
// pages (a writer's fallback) are converted directly.

// fixedPages reports whether codeReader reads column c through readFixed
// (numbers and booleans) rather than read (strings).
func fixedPages(c *column) bool { return fixedWidth(c) > 0 || boolPages(c) }

// readFixed is read for a numeric or BOOLEAN chunk: the next n rows into
// v.Ints, v.Floats or v.Bools (room for n rows), NULL slots zeroed. A non-nil sel (increasing
// rows of [0, n)) says only those rows will be read: pages without NULLs
// then fill only them, and the other rows hold garbage.
func (r *codeReader) readFixed(v *columnar.Vector, n int, validBuf columnar.Bitmap, sel []int) (int, columnar.Bitmap, error) {
	got := 0
	hasNull := false
	float := floatKind(r.c.kind)
	bools := boolPages(r.c)
	si := 0 // sel[si:] are the rows from got on
	for got < n {
		if r.pos == r.rows {
			ok, err := r.nextPage()
			if err != nil {
				return 0, validBuf, err
			}
			if !ok {
				break
			}
			continue
		}
		k := min(n-got, r.rows-r.pos)
		var defs []int32
		if r.defs != nil {
			defs = r.defs[r.pos : r.pos+k]
		}
		var used int
		codes, vpos := r.codes, r.vpos
		switch {
		case sel != nil && defs == nil && r.lazy:
			lo := si
			for si < len(sel) && sel[si] < got+k {
				si++
			}
			var err error
			if float {
				err = gatherLazy(v.Floats, sel[lo:si], got, &r.lc, r.dictF, r.vpos)
			} else {
				err = gatherLazy(v.Ints, sel[lo:si], got, &r.lc, r.dictI, r.vpos)
			}
			if err != nil {
				return 0, validBuf, err
			}
			used = k
		case sel != nil && defs == nil && r.lazyPlain:
			lo := si
			for si < len(sel) && sel[si] < got+k {
				si++
			}
			gatherPlain(r.c, r.plainSrc, sel[lo:si], r.vpos-got, v)
			used = k
		case sel != nil && defs == nil:
			lo := si
			for si < len(sel) && sel[si] < got+k {
				si++
			}
			if bools {
				gatherSeg(v.Bools, sel[lo:si], got, true, nil, nil, r.plainB, r.vpos)
			} else if float {
				gatherSeg(v.Floats, sel[lo:si], got, r.isPlain, r.codes, r.dictF, r.plainF, r.vpos)
			} else {
				gatherSeg(v.Ints, sel[lo:si], got, r.isPlain, r.codes, r.dictI, r.plainI, r.vpos)
			}
			used = k
		case defs == nil && r.lazy:
			// Indices unpacked and looked up in one pass (dictgather.go).
			var err error
			if float {
				err = gatherCodes(&r.lc, r.vpos, r.dictF, v.Floats[got:got+k])
			} else {
				err = gatherCodes(&r.lc, r.vpos, r.dictI, v.Ints[got:got+k])
			}
			if err != nil {
				return 0, validBuf, err
			}
			used = k
		default:
			if r.lazy {
				// This segment's indices, decoded into scratch.
				nv := presentValues(defs, r.maxDef, k)
				r.codeBuf = grow(r.codeBuf, nv)
				if err := r.lc.fill(r.vpos, r.codeBuf[:nv]); err != nil {
					return 0, validBuf, err
				}
				codes, vpos = r.codeBuf[:nv], 0
			}
			if r.lazyPlain {
				// This segment's values, converted straight into v.
				w := fixedWidth(r.c)
				if (r.vpos+k)*w > len(r.plainSrc) {
					if nv := presentValues(defs, r.maxDef, k); (r.vpos+nv)*w > len(r.plainSrc) {
						return 0, validBuf, corruptf("PLAIN page of %d values, value %d asked for", len(r.plainSrc)/w, r.vpos+nv)
					}
				}
				if defs == nil {
					if float {
						convertPlain(r.c, r.plainSrc[r.vpos*w:], nil, v.Floats[got:got+k])
					} else {
						convertPlain(r.c, r.plainSrc[r.vpos*w:], v.Ints[got:got+k], nil)
					}
					used = k
				} else {
					used = fillPlain(r.c, r.plainSrc, r.vpos, defs, int32(r.maxDef), v, got, r.sparseNulls)
				}
			} else if bools {
				used = fillSeg(v.Bools[got:got+k], defs, int32(r.maxDef), true, nil, nil, r.plainB, vpos)
			} else if float {
				used = fillSeg(v.Floats[got:got+k], defs, int32(r.maxDef), r.isPlain, codes, r.dictF, r.plainF, vpos)
			} else {
				used = fillSeg(v.Ints[got:got+k], defs, int32(r.maxDef), r.isPlain, codes, r.dictI, r.plainI, vpos)
			}
		}
		if used != k {
			for j, d := range defs {
				if d != int32(r.maxDef) {
					if !hasNull {
						hasNull = true
						validBuf = validBuf.Resize(n)
					}
					validBuf.Clear(got + j)
				}
			}
		}
		r.vpos += used
		r.pos += k
		got += k
	}
	if hasNull {
		v.Valid = validBuf
	} else {
		v.Valid = nil
	}
	return got, validBuf, nil
}

// gatherSeg is fillSeg for a segment without NULLs whose first row is
// base, filling only the given rows (of out, each in [base, base+segment)).
func gatherSeg[T int64 | float64 | bool](out []T, rows []int, base int, isPlain bool, codes []int32, dict, plain []T, vpos int) {
	off := vpos - base // the value of row i is value off+i of the page
	if isPlain {
		for _, i := range rows {
			out[i] = plain[off+i]
		}
		return
	}
	for _, i := range rows {
		out[i] = dict[codes[off+i]]
	}
}

// gatherPlain is gatherSeg for a PLAIN page of column c read from its
// bytes: row i takes value off+i, converted as decodeFixed does.
func gatherPlain(c *column, src []byte, rows []int, off int, v *columnar.Vector) {
	switch c.kind {
	case kInt32:
		for _, i := range rows {
			v.Ints[i] = int64(int32(binary.LittleEndian.Uint32(src[4*(off+i):]))) * c.mul
		}
	case kUint32:
		for _, i := range rows {
			v.Ints[i] = int64(binary.LittleEndian.Uint32(src[4*(off+i):]))
		}
	case kInt64:
		for _, i := range rows {
			v.Ints[i] = convInt(int64(binary.LittleEndian.Uint64(src[8*(off+i):])), c.mul, c.div)
		}
	case kFloat32:
		for _, i := range rows {
			v.Floats[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*(off+i):])))
		}
	case kFloat64:
		for _, i := range rows {
			v.Floats[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*(off+i):]))
		}
	}
}

// gatherLazy is gatherSeg for a dictionary page whose indices are read
// through l: the rows are taken run by run, each index extracted from its
// run's bytes where a whole 8-byte load fits in the page (lazyCodes.at,
// which finds the run again for every index, only near the page's end).
func gatherLazy[T int64 | float64](out []T, rows []int, base int, l *lazyCodes, dict []T, vpos int) error {
	off := vpos - base // row i is index off+i of the page
	lim := uint64(len(dict))
	mask := uint64(1)<<uint(l.bw) - 1
	for k := 0; k < len(rows); {
		r := &l.runs[l.run(off+rows[k])]
		end := r.start + r.n - off // rows below end are in r
		if r.rle {
			x := dict[r.val]
			for ; k < len(rows) && rows[k] < end; k++ {
				out[rows[k]] = x
			}
			continue
		}
		for ; k < len(rows) && rows[k] < end; k++ {
			i := rows[k]
			bit := uint(off+i-r.start) * uint(l.bw)
			p := uint(r.off) + bit>>3
			if p+8 > uint(len(l.src)) {
				c, err := l.at(off + i)
				if err != nil {
					return err
				}
				out[i] = dict[c]
				continue
			}
			c := binary.LittleEndian.Uint64(l.src[p:]) >> (bit & 7) & mask
			if c >= lim {
				return corruptf("dictionary index %d, dictionary has %d values", c, lim)
			}
			out[i] = dict[c]
		}
	}
	return nil
}

// fillSeg fills out, one slot per row, from the page's values starting at
// value vpos: dictionary entries by code, or PLAIN values; rows whose
// level says NULL get 0 and use no value. It returns the values used.
func fillSeg[T int64 | float64 | bool](out []T, defs []int32, maxDef int32, isPlain bool, codes []int32, dict, plain []T, vpos int) int {
	if defs == nil {
		if isPlain {
			copy(out, plain[vpos:vpos+len(out)])
		} else {
			for j, c := range codes[vpos : vpos+len(out)] {
				out[j] = dict[c]
			}
		}
		return len(out)
	}
	defs = defs[:len(out)]
	start := vpos
	var zero T
	if isPlain {
		for j, d := range defs {
			if d == maxDef {
				out[j] = plain[vpos]
				vpos++
			} else {
				out[j] = zero
			}
		}
		return vpos - start
	}
	for j, d := range defs {
		if d == maxDef {
			out[j] = dict[codes[vpos]]
			vpos++
		} else {
			out[j] = zero
		}
	}
	return vpos - start
}

// emptyDict stands for "dictionary page read" in a numeric chunk, whose
// dictionary lives in dictI/dictF.
var emptyDict = dict.New()

// presentValues is the number of values stored for k rows whose
// definition levels are defs (nil: a required column, k values).
func presentValues(defs []int32, maxDef int16, k int) int {
	if defs == nil {
		return k
	}
	nv := 0
	for _, d := range defs {
		if d == int32(maxDef) {
			nv++
		}
	}
	return nv
}
