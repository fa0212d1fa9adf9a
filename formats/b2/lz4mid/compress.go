package lz4mid

import (
	"encoding/binary"
	"math"
	"math/bits"
)

const (
	lastLiterals = 5  // a block ends with at least this many literals
	matchFence   = 12 // and no match starts in its last 12 bytes
	maxOffset    = 65535
	shortLog     = 14
	longLog      = 16
	chainMask    = 1<<16 - 1 // the chain covers the whole 64 KiB window
	// longDepth is how many recent positions sharing a long hash are
	// tried. BenchmarkCompressText (256 KiB of demo titles): depth 2 →
	// ratio 3.26, 4 → 3.38, 8 → 3.48 at half the speed, 16 → 3.54.
	longDepth = 4
	// skipLog makes the step grow by one every 64 bytes without a match,
	// so that incompressible input costs little.
	skipLog = 6
)

// CompressBlockBound is the largest block Compress can produce for n bytes
// of input (LZ4's bound: all literals plus their length bytes).
func CompressBlockBound(n int) int { return n + n/255 + 16 }

// Compressor keeps its hash tables between blocks so that each block
// starts without clearing them: positions are stored plus a base that
// moves past every block, and entries below the current base are stale.
// The zero value is ready; a Compressor is not safe for concurrent use.
type Compressor struct {
	short [1 << shortLog]uint32
	long  [1 << longLog]uint32
	chain [chainMask + 1]uint32
	base  uint32
}

// Compress writes src as one LZ4 block into dst and returns its length,
// or 0 when the block would not fit in len(dst) (the caller then stores
// src raw, as for any codec that does not shrink a stream).
func (c *Compressor) Compress(dst, src []byte) int {
	n := len(src)
	if n > math.MaxInt32 {
		return 0
	}
	if c.base == 0 || uint64(c.base)+uint64(n)+1 > math.MaxUint32 {
		clear(c.short[:])
		clear(c.long[:])
		clear(c.chain[:])
		c.base = 1
	}
	w := writer{dst: dst}
	if n > matchFence {
		c.matches(&w, src)
	}
	w.literalsOnly(src[w.anchor:])
	c.base += uint32(n) + 1
	if w.full {
		return 0
	}
	return w.pos
}

// matches finds and writes the block's matches, leaving the literals after
// the last one to the caller.
func (c *Compressor) matches(w *writer, src []byte) {
	n := len(src)
	limit := n - matchFence // a match starts before this
	end := n - lastLiterals // and ends at or before this
	for p := 0; p < limit && !w.full; {
		v := load64(src, p)
		mlen, cand := c.longMatch(src, p, v, end)
		short := c.candidate(c.short[hash4(uint32(v))], p)
		c.insert(p, v)
		if mlen == 0 && short >= 0 && load32(src, short) == uint32(v) {
			// A 4-byte match is usually one word; an 8-byte match at
			// the next position may cover two.
			if p+1 < limit {
				v1 := load64(src, p+1)
				if m1, c1 := c.longMatch(src, p+1, v1, end); m1 > 0 {
					c.insert(p+1, v1)
					p++
					mlen, cand = m1, c1
				}
			}
			if mlen == 0 {
				mlen, cand = minMatch+extend(src, short+minMatch, p+minMatch, end), short
			}
		}
		if mlen == 0 {
			p += 1 + (p-w.anchor)>>skipLog
			continue
		}
		for p > w.anchor && cand > 0 && src[p-1] == src[cand-1] {
			p, cand, mlen = p-1, cand-1, mlen+1
		}
		w.sequence(src[w.anchor:p], p-cand, mlen)
		// Positions inside the match go into the long table (the next
		// match may start at any of them); the short table only gets the
		// last, which costs no ratio over the demo titles and saves a
		// fifth of the time.
		stop := min(p+mlen, limit)
		for q := p + 1; q < stop; q++ {
			c.insertLong(q, load64(src, q))
		}
		if stop-1 > p {
			c.short[hash4(load32(src, stop-1))] = c.base + uint32(stop-1)
		}
		p += mlen
		w.anchor = p
	}
}

// candidate turns a table entry into a position of the current block, or
// -1 when it is stale or out of the window of p.
func (c *Compressor) candidate(e uint32, p int) int {
	if e < c.base {
		return -1
	}
	q := int(e - c.base)
	if p-q > maxOffset || q >= p {
		return -1
	}
	return q
}

// longMatch returns the longest match for p among the recent positions
// whose next 8 bytes hash as v's, or 0.
func (c *Compressor) longMatch(src []byte, p int, v uint64, end int) (mlen, cand int) {
	q := c.candidate(c.long[hash8(v)], p)
	for d := 0; d < longDepth && q >= 0; d++ {
		if load64(src, q) == v {
			if m := 8 + extend(src, q+8, p+8, end); m > mlen {
				mlen, cand = m, q
			}
		}
		q = c.candidate(c.chain[q&chainMask], p)
	}
	return mlen, cand
}

// insert records position p (whose next 8 bytes are v) in both tables.
func (c *Compressor) insert(p int, v uint64) {
	c.insertLong(p, v)
	c.short[hash4(uint32(v))] = c.base + uint32(p)
}

// insertLong records position p (whose next 8 bytes are v) in the long
// table and its chain.
func (c *Compressor) insertLong(p int, v uint64) {
	h := hash8(v)
	c.chain[p&chainMask] = c.long[h]
	c.long[h] = c.base + uint32(p)
}

// extend returns how many bytes from a and from b are equal, b+result not
// passing end (b > a).
func extend(src []byte, a, b, end int) int {
	n := 0
	for b+n+8 <= end {
		if x := load64(src, a+n) ^ load64(src, b+n); x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		n += 8
	}
	for b+n < end && src[a+n] == src[b+n] {
		n++
	}
	return n
}

func hash4(v uint32) uint32 { return (v * 2654435761) >> (32 - shortLog) }
func hash8(v uint64) uint32 { return uint32((v * 0xcf1bbcdcb7a56463) >> (64 - longLog)) }

func load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i:]) }
func load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
