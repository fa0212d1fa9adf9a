package blosclz

import (
	"encoding/binary"
	"math/bits"
)

const (
	hashLog = 14
	// minInput: below this a stream cannot shrink enough to pay off.
	minInput = 16
	// farMinMatch: a far match costs 4+ bytes, so shorter ones lose.
	farMinMatch = 8
)

// Per-level tuning, in the spirit of c-blosc2 3.x's compressor: short
// matches decode slowly (a branch and a tiny copy each), so low levels only
// take long ones; and a block whose first eighth compresses worse than
// minProbeRatio is given up on at once, since blosc2 then stores it raw,
// which decodes fastest of all.
var (
	minMatchLen   = [10]int{0, 18, 14, 13, 12, 11, 10, 9, 8, 5}
	minProbeRatio = [10]float64{0, 2, 2, 2, 2, 1.8, 1.6, 1.4, 1.2, 1.1}
)

// Compress writes src as a BloscLZ stream into dst and returns its length.
// It returns 0 when clevel <= 0, when src is shorter than 16 bytes, when a
// trial on the first eighth of src compresses too poorly for clevel, or when
// the stream would not fit in dst or not be shorter than src; blosc2 then
// stores the block raw. clevel above 9 is treated as 9. The output decodes
// with Decompress and with c-blosc2's blosclz_decompress.
func Compress(dst, src []byte, clevel int) int {
	if clevel <= 0 || len(src) < minInput {
		return 0
	}
	clevel = min(clevel, 9)
	minLen := minMatchLen[clevel]
	if probe := len(src) / 8; probe >= 8*minInput {
		n := encode(nil, src[:probe], minLen)
		if n == 0 || float64(probe)/float64(n) < minProbeRatio[clevel] {
			return 0
		}
	}
	limit := min(len(dst), len(src)-1)
	if limit < 2 {
		return 0
	}
	return encode(dst[:limit], src, minLen)
}

// encode compresses src into out and returns the stream length, or 0 if it
// does not fit. With out == nil it only measures (a dry run).
func encode(out, src []byte, minLen int) int {
	var table [1 << hashLog]int32
	n := len(src)
	// Matches end before the last byte so the stream always ends with a
	// literal run, as c-blosc2's writer does.
	matchEnd := n - 1
	op, lit, ip := 0, 0, 1
	dry := out == nil
	var ok bool
	for ip+4 < matchEnd {
		v := binary.LittleEndian.Uint32(src[ip:])
		h := (v * 2654435761) >> (32 - hashLog)
		cand := int(table[h])
		table[h] = int32(ip)
		dist := ip - cand
		if dist <= 0 || dist > maxDistance || binary.LittleEndian.Uint32(src[cand:]) != v {
			// Step faster through stretches without matches.
			ip += 1 + (ip-lit)>>6
			continue
		}
		// Grow the match backwards into the pending literals.
		start, from := ip, cand
		for start > lit && from > 0 && src[start-1] == src[from-1] {
			start--
			from--
		}
		end := extend(src, ip+4, dist, matchEnd)
		if l := end - start; l < minLen || (l < farMinMatch && dist-1 >= nearLimit) {
			ip++
			continue
		}
		if op, ok = emitLiterals(out, op, src[lit:start], dry); !ok {
			return 0
		}
		if op, ok = emitMatch(out, op, end-start, dist, dry); !ok {
			return 0
		}
		// Seed the table inside the match so the next search can find it.
		if end+2 < n {
			table[(binary.LittleEndian.Uint32(src[end-2:])*2654435761)>>(32-hashLog)] = int32(end - 2)
		}
		ip, lit = end, end
	}
	if op, ok = emitLiterals(out, op, src[lit:], dry); !ok {
		return 0
	}
	if !dry {
		// c-blosc2 marks the first byte; its decoder (and ours) masks it off.
		out[0] |= 1 << 5
	}
	return op
}

// extend returns the end of the match that starts at i-dist / i, scanning
// no further than end.
func extend(src []byte, i, dist, end int) int {
	for i+8 <= end {
		x := binary.LittleEndian.Uint64(src[i:]) ^ binary.LittleEndian.Uint64(src[i-dist:])
		if x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	for i < end && src[i] == src[i-dist] {
		i++
	}
	return i
}

// emitLiterals appends lits as runs of at most 32 bytes (or, when dry,
// only counts them).
func emitLiterals(out []byte, op int, lits []byte, dry bool) (int, bool) {
	if dry {
		return op + len(lits) + (len(lits)+maxLiteral-1)/maxLiteral, true
	}
	for len(lits) > 0 {
		k := min(len(lits), maxLiteral)
		if k+1 > len(out)-op {
			return op, false
		}
		out[op] = byte(k - 1)
		copy(out[op+1:], lits[:k])
		op += k + 1
		lits = lits[k:]
	}
	return op, true
}

// emitMatch appends a match of length >= 3 at distance 1..maxDistance (or,
// when dry, only counts it).
func emitMatch(out []byte, op, length, dist int, dry bool) (int, bool) {
	field := length - 2 // 1..6 inline; 7 means extension bytes follow
	d := dist - 1
	near := d < nearLimit
	size := 2
	if field >= 7 {
		size += (field-7)/255 + 1
	}
	hi := 31
	if near {
		hi = d >> 8
	} else {
		size += 2
	}
	if dry {
		return op + size, true
	}
	if size > len(out)-op {
		return op, false
	}
	if field < 7 {
		out[op] = byte(field<<5 | hi)
		op++
	} else {
		out[op] = byte(7<<5 | hi)
		op++
		ext := field - 7
		for ; ext >= 255; ext -= 255 {
			out[op] = 255
			op++
		}
		out[op] = byte(ext)
		op++
	}
	if near {
		out[op] = byte(d)
		return op + 1, true
	}
	f := d - nearLimit
	out[op] = 255
	out[op+1] = byte(f >> 8)
	out[op+2] = byte(f)
	return op + 3, true
}
