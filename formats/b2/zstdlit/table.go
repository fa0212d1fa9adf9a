package zstdlit

import (
	"encoding/binary"
	"math/bits"
)

// The Huffman tree description (RFC 8878 §4.2.1): the weights of symbols
// 0…n-1, either 4 bits each or FSE-compressed, the last symbol's weight
// implied by the total, then the decoding table they define.

// readWeights reads the tree description at the start of lit into
// d.weights and returns its size and the number of weights.
func (d *Decoder) readWeights(lit []byte) (size, nw int, ok bool) {
	if len(lit) == 0 {
		return 0, 0, false
	}
	h := int(lit[0])
	if h >= 128 { // 4-bit weights, two per byte, high nibble first
		nw = h - 127
		nb := (nw + 1) / 2
		if 1+nb > len(lit) {
			return 0, 0, false
		}
		for i := 0; i < nw; i++ {
			b := lit[1+i/2]
			if i&1 == 0 {
				d.weights[i] = b >> 4
			} else {
				d.weights[i] = b & 15
			}
		}
		return 1 + nb, nw, true
	}
	if h == 0 || 1+h > len(lit) {
		return 0, 0, false
	}
	nw, ok = d.fseWeights(lit[1 : 1+h])
	return 1 + h, nw, ok
}

// fseWeights decodes FSE-compressed weights: a normalized distribution,
// then a backward bit stream read by two interleaved states. Decoding stops
// when the stream is used up exactly and the next state would need bits
// (both states' symbols are then the last two weights); a stream read past
// its end is refused, as klauspost/compress refuses it.
func (d *Decoder) fseWeights(in []byte) (int, bool) {
	hdr, tableLog, ok := d.readNCount(in)
	if !ok || !d.buildFSE(tableLog) {
		return 0, false
	}
	var r bitReader
	if !r.init(in[hdr:]) {
		return 0, false
	}
	st := [2]uint32{r.take(tableLog), r.take(tableLog)}
	nw := 0
	for k := 0; r.n >= 0; k ^= 1 {
		e := d.fse[st[k]&(1<<maxWeightLog-1)]
		if nw+2 > maxWeights {
			return 0, false
		}
		if r.n == 0 && r.off == 0 && e.nbBits > 0 {
			d.weights[nw] = e.symbol
			d.weights[nw+1] = d.fse[st[k^1]&(1<<maxWeightLog-1)].symbol
			return nw + 2, true
		}
		d.weights[nw] = e.symbol
		nw++
		// r.take, written out: nbBits ≤ 6, and 0 reads nothing.
		nb := uint(e.nbBits)
		if r.n < int(nb) {
			r.fill()
		}
		st[k] = uint32(e.baseline) + uint32(r.bits>>(64-nb))
		r.bits <<= nb
		r.n -= int(nb)
	}
	return 0, false
}

// readNCount reads an FSE normalized distribution (RFC 8878 §4.1.1) of at
// most 16 symbols into d.norm and returns its size in bytes and the
// accuracy log.
func (d *Decoder) readNCount(in []byte) (int, uint, bool) {
	pos := 0                  // bits read; past the end they read as zeros
	get := func(nb int) int { // nb ≤ 8
		var w uint64
		if k := pos >> 3; k+8 <= len(in) {
			w = binary.LittleEndian.Uint64(in[k:])
		} else {
			for i := len(in) - 1; i >= k; i-- {
				w = w<<8 | uint64(in[i])
			}
		}
		return int(w>>(pos&7)) & (1<<nb - 1)
	}
	log := get(4) + 5
	pos = 4
	if log > maxWeightLog {
		return 0, 0, false
	}
	d.norm = [16]int16{}
	remaining := 1<<log + 1
	threshold := 1 << log
	nbBits := log + 1
	sym := 0
	zero := false
	for remaining > 1 {
		if zero {
			for {
				rep := get(2)
				pos += 2
				sym += rep
				if rep != 3 {
					break
				}
				if sym > 15 {
					return 0, 0, false
				}
			}
		}
		if sym > 15 {
			return 0, 0, false
		}
		max := 2*threshold - 1 - remaining
		v := get(nbBits)
		if v&(threshold-1) < max {
			v &= threshold - 1
			pos += nbBits - 1
		} else {
			v &= 2*threshold - 1
			if v >= threshold {
				v -= max
			}
			pos += nbBits
		}
		count := v - 1
		if count < 0 {
			remaining--
		} else {
			remaining -= count
		}
		d.norm[sym] = int16(count)
		sym++
		zero = count == 0
		if remaining < threshold {
			if remaining <= 1 {
				break
			}
			nbBits = bits.Len(uint(remaining))
			threshold = 1 << (nbBits - 1)
		}
	}
	size := (pos + 7) >> 3
	if remaining != 1 || size > len(in) {
		return 0, 0, false
	}
	return size, uint(log), true
}

// buildFSE builds the decoding table of d.norm (zstd's FSE_buildDTable).
func (d *Decoder) buildFSE(tableLog uint) bool {
	size := 1 << tableLog
	high := size - 1
	var next [16]uint16
	for s, c := range d.norm {
		if c == -1 {
			d.fse[high].symbol = uint8(s)
			high--
			next[s] = 1
		} else {
			next[s] = uint16(c)
		}
	}
	mask := size - 1
	step := size>>1 + size>>3 + 3
	pos := 0
	for s, c := range d.norm {
		for i := 0; i < int(c); i++ {
			d.fse[pos].symbol = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return false
	}
	for u := 0; u < size; u++ {
		e := &d.fse[u]
		ns := next[e.symbol]
		next[e.symbol]++
		nb := tableLog - uint(bits.Len16(ns)-1)
		e.nbBits = uint8(nb)
		e.baseline = uint16(int(ns)<<nb - size)
	}
	return true
}

// buildHuffman completes the nw weights read (the last one is implied) and
// fills d.huf, indexed by the next tableLog bits of a stream.
func (d *Decoder) buildHuffman(nw int) (uint, bool) {
	var rank [maxTableLog + 2]int
	total := 0
	for _, w := range d.weights[:nw] {
		if w > maxTableLog {
			return 0, false
		}
		rank[w]++
		if w > 0 {
			total += 1 << (w - 1)
		}
	}
	if total == 0 {
		return 0, false
	}
	tableLog := bits.Len(uint(total))
	if tableLog > maxTableLog {
		return 0, false
	}
	rest := 1<<tableLog - total
	if rest&(rest-1) != 0 {
		return 0, false
	}
	last := bits.Len(uint(rest))
	d.weights[nw] = byte(last)
	rank[last]++
	if rank[1] < 2 || rank[1]&1 != 0 {
		return 0, false
	}
	// Each weight's codes start after all longer ones (lower weights), in
	// symbol order within a weight. Sorting the symbols by weight first
	// (stable counting sort) lets the fill run weight by weight, each
	// with one span length, instead of branching on every symbol's weight.
	var next [maxTableLog + 1]int
	next[0] = maxWeights + 2 // weight-0 symbols: written past the sorted ones, never read
	at := 0
	for w := 1; w <= tableLog; w++ {
		next[w] = at
		at += rank[w]
	}
	var sorted [2 * (maxWeights + 2)]byte
	for s, w := range d.weights[:nw+1] {
		sorted[next[w]] = byte(s)
		next[w]++
	}
	huf := d.huf[:1<<tableLog]
	p, i := 0, 0
	for w := 1; w <= tableLog; w++ {
		nb := uint16(tableLog + 1 - w)
		syms := sorted[i : i+rank[w]]
		i += rank[w]
		switch span := 1 << (w - 1); span {
		case 1:
			for k, s := range syms {
				huf[p+k] = uint16(s)<<8 | nb
			}
			p += len(syms)
		case 2:
			for _, s := range syms {
				e := uint16(s)<<8 | nb
				huf[p], huf[p+1] = e, e
				p += 2
			}
		default:
			for _, s := range syms {
				e := uint16(s)<<8 | nb
				out := huf[p : p+span]
				for k := 0; k+4 <= len(out); k += 4 {
					out[k], out[k+1], out[k+2], out[k+3] = e, e, e, e
				}
				p += span
			}
		}
	}
	return uint(tableLog), true
}
