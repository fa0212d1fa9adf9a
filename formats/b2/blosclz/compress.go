package blosclz

import (
	"encoding/binary"
	"math/bits"
)

const (
	hashLog = 14
	// minMatch is the shortest match Compress emits: the hash covers 4
	// bytes, and a 3-byte match would rarely beat 3 literal bytes.
	minMatch = 4
	// minInput: below this a stream cannot shrink enough to pay off.
	minInput = 16
)

// maxRatio[clevel] is the largest output/input ratio Compress accepts.
// Like c-blosc2, low levels give up early: a BloscLZ stream that saves
// little decodes slower than the raw copy blosc2 stores instead.
var maxRatio = [10]float64{0, .1, .15, .2, .4, .4, .4, .4, .45, .5}

// Compress writes src as a BloscLZ stream into dst and returns its length.
// It returns 0 when clevel <= 0, when src is shorter than 16 bytes, or when
// the stream would not fit in dst or would not be small enough for clevel
// (clevel 9 demands at most half of len(src), lower levels more); blosc2
// then stores the block raw. clevel above 9 is treated as 9. The output
// decodes with Decompress and with c-blosc2's blosclz_decompress.
func Compress(dst, src []byte, clevel int) int {
	if clevel <= 0 || len(src) < minInput {
		return 0
	}
	clevel = min(clevel, 9)
	limit := int(float64(len(src)) * maxRatio[clevel])
	limit = min(limit, len(dst), len(src)-1)
	if limit < 2 {
		return 0
	}
	out := dst[:limit]

	var table [1 << hashLog]int32
	n := len(src)
	// Matches end before the last byte so the stream always ends with a
	// literal run, as c-blosc2's writer does.
	matchEnd := n - 1
	op, lit, ip := 0, 0, 1
	// skipShift grows the search step over incompressible stretches; lower
	// levels give up on them sooner.
	skipShift := uint(6)
	if clevel < 5 {
		skipShift = 4
	}
	for ip+minMatch < matchEnd {
		v := binary.LittleEndian.Uint32(src[ip:])
		h := (v * 2654435761) >> (32 - hashLog)
		cand := int(table[h])
		table[h] = int32(ip)
		dist := ip - cand
		if dist <= 0 || dist > maxDistance || binary.LittleEndian.Uint32(src[cand:]) != v {
			ip += 1 + (ip-lit)>>skipShift
			continue
		}
		// Grow the match backwards into the pending literals.
		for ip > lit && cand > 0 && src[ip-1] == src[cand-1] {
			ip--
			cand--
		}
		end := extend(src, ip+minMatch, dist, matchEnd)
		var ok bool
		if op, ok = emitLiterals(out, op, src[lit:ip]); !ok {
			return 0
		}
		if op, ok = emitMatch(out, op, end-ip, dist); !ok {
			return 0
		}
		// Seed the table inside the match so the next search can find it.
		if end-2 > ip && end+2 < n {
			table[(binary.LittleEndian.Uint32(src[end-2:])*2654435761)>>(32-hashLog)] = int32(end - 2)
		}
		ip, lit = end, end
	}
	op, ok := emitLiterals(out, op, src[lit:])
	if !ok {
		return 0
	}
	// c-blosc2 marks the first byte; its decoder (and ours) masks it off.
	out[0] |= 1 << 5
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

// emitLiterals appends lits as runs of at most 32 bytes.
func emitLiterals(out []byte, op int, lits []byte) (int, bool) {
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

// emitMatch appends a match of length >= 3 at distance 1..maxDistance.
func emitMatch(out []byte, op, length, dist int) (int, bool) {
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
