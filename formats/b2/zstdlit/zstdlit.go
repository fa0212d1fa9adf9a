// Package zstdlit decodes one shape of zstd frame without the general
// decoder: a single-segment frame of one compressed block whose content is
// Huffman-coded literals and no sequences.
//
// That is what c-blosc2 writes for the split streams of small blocks whose
// bytes repeat little, such as the code plane of a python-blosc2
// dictionary() column (1 KiB blocks, 256-byte streams: 78,125 frames for
// 20M rows). At that size the general decoder's fixed cost per frame (frame
// state, the Huffman table through its generic FSE decoder, the 4-stream
// loop's slow tail) is several times the cost of the symbols themselves.
//
// Decode never reports an error: a frame it does not take, well formed or
// not, is left to the general decoder, which then also gives the error.
// It takes a frame only if every check the format and the general decoder
// make passes (bits of every stream consumed exactly, weights summing to a
// power of two, sizes agreeing), so the two agree on every input it takes
// (FuzzDecode).
package zstdlit

import (
	"encoding/binary"
)

// MaxSize is the largest output Decode takes. Above it the general
// decoder's assembly loops are faster than this one's Go loop, and its fixed
// cost per frame no longer matters.
const MaxSize = 4096

// Decode fills dst from the zstd frame src and reports true, if src is a
// frame of the shape described in the package comment that decodes to
// exactly len(dst) bytes. Otherwise it reports false and dst may have been
// written.
func (d *Decoder) Decode(dst, src []byte) bool {
	n := len(dst)
	if n == 0 || n > MaxSize || len(src) < 4+1+1+3 || binary.LittleEndian.Uint32(src) != magic {
		return false
	}
	// Frame header: single segment (no window descriptor), no dictionary,
	// no checksum, reserved bit clear; the content size must be n.
	fhd := src[4]
	if fhd&0x20 == 0 || fhd&0x0F != 0 {
		return false
	}
	p := 5
	var fcs int
	switch fhd >> 6 {
	case 0:
		fcs = int(src[p])
		p++
	case 1:
		fcs = int(binary.LittleEndian.Uint16(src[p:])) + 256
		p += 2
	case 2:
		if len(src) < p+4 {
			return false
		}
		fcs = int(binary.LittleEndian.Uint32(src[p:]))
		p += 4
	default:
		if len(src) < p+8 {
			return false
		}
		v := binary.LittleEndian.Uint64(src[p:])
		if v > MaxSize {
			return false
		}
		fcs = int(v)
		p += 8
	}
	if fcs != n || len(src) < p+3 {
		return false
	}
	// One block, the last, compressed, ending the input exactly.
	bh := int(src[p]) | int(src[p+1])<<8 | int(src[p+2])<<16
	p += 3
	if bh&1 == 0 || (bh>>1)&3 != 2 || bh>>3 != len(src)-p || bh>>3 > n {
		return false
	}
	blk := src[p:]
	// Literals section header: compressed (type 2), sizes in 3–5 bytes.
	lh := blk[0]
	if lh&3 != 2 {
		return false
	}
	var hs, regen, csize int
	four := true
	switch (lh >> 2) & 3 {
	case 0, 1:
		if len(blk) < 3 {
			return false
		}
		v := int(blk[0]) | int(blk[1])<<8 | int(blk[2])<<16
		hs, regen, csize = 3, (v>>4)&1023, (v>>14)&1023
		four = (lh>>2)&3 == 1
	case 2:
		if len(blk) < 4 {
			return false
		}
		v := int(binary.LittleEndian.Uint32(blk))
		hs, regen, csize = 4, (v>>4)&16383, (v>>18)&16383
	default:
		if len(blk) < 5 {
			return false
		}
		v := int(binary.LittleEndian.Uint32(blk)) | int(blk[4])<<32
		hs, regen, csize = 5, (v>>4)&262143, (v>>22)&262143
	}
	// The literals are the whole output, and the sequences section is one
	// zero byte: no sequences.
	if regen != n || hs+csize+1 != len(blk) || blk[len(blk)-1] != 0 || (four && n < 6) {
		return false
	}
	lit := blk[hs : hs+csize]
	tree, nw, ok := d.readWeights(lit)
	if !ok {
		return false
	}
	tableLog, ok := d.buildHuffman(nw)
	if !ok {
		return false
	}
	streams := lit[tree:]
	if !four {
		var r bitReader
		return r.init(streams) && d.decodeStream(dst, &r, tableLog)
	}
	if len(streams) < 6 {
		return false
	}
	s1 := int(binary.LittleEndian.Uint16(streams))
	s2 := int(binary.LittleEndian.Uint16(streams[2:]))
	s3 := int(binary.LittleEndian.Uint16(streams[4:]))
	streams = streams[6:]
	if s1+s2+s3 >= len(streams) {
		return false
	}
	seg := (n + 3) / 4
	if 3*seg > n {
		return false
	}
	var r [4]bitReader
	if !r[0].init(streams[:s1]) || !r[1].init(streams[s1:s1+s2]) ||
		!r[2].init(streams[s1+s2:s1+s2+s3]) || !r[3].init(streams[s1+s2+s3:]) {
		return false
	}
	k := d.decode4(dst, seg, &r, tableLog)
	return d.decodeStream(dst[k:seg], &r[0], tableLog) &&
		d.decodeStream(dst[seg+k:2*seg], &r[1], tableLog) &&
		d.decodeStream(dst[2*seg+k:3*seg], &r[2], tableLog) &&
		d.decodeStream(dst[3*seg+k:], &r[3], tableLog)
}

// decode4 decodes the four streams side by side (their table lookups
// overlap) while each has 8 bytes left to load, and returns how many
// symbols of each it decoded. A load leaves at least 56 bits, so every
// round decodes 5 symbols of each stream (5 × 11 bits). Shift counts are
// masked to 63 and outputs are fixed-size arrays, so that the compiler
// emits plain shifts and no bounds checks in the loop.
func (d *Decoder) decode4(dst []byte, seg int, r *[4]bitReader, tableLog uint) int {
	const mask = 1<<maxTableLog - 1
	const per = 5
	shift := (64 - tableLog) & 63
	huf := &d.huf
	out0, out1, out2, out3 := dst[:seg], dst[seg:2*seg], dst[2*seg:3*seg], dst[3*seg:]
	k := 0
	for k+per <= len(out3) && r[0].off >= 8 && r[1].off >= 8 && r[2].off >= 8 && r[3].off >= 8 {
		for i := range r {
			r[i].fill()
		}
		b0, b1, b2, b3 := r[0].bits, r[1].bits, r[2].bits, r[3].bits
		o0, o1 := (*[per]byte)(out0[k:]), (*[per]byte)(out1[k:])
		o2, o3 := (*[per]byte)(out2[k:]), (*[per]byte)(out3[k:])
		var n0, n1, n2, n3 uint16
		for j := 0; j < per; j++ {
			e0, e1 := huf[(b0>>shift)&mask], huf[(b1>>shift)&mask]
			e2, e3 := huf[(b2>>shift)&mask], huf[(b3>>shift)&mask]
			o0[j], o1[j], o2[j], o3[j] = byte(e0>>8), byte(e1>>8), byte(e2>>8), byte(e3>>8)
			c0, c1, c2, c3 := e0&63, e1&63, e2&63, e3&63
			b0, b1, b2, b3 = b0<<c0, b1<<c1, b2<<c2, b3<<c3
			n0, n1, n2, n3 = n0+c0, n1+c1, n2+c2, n3+c3
		}
		r[0].bits, r[1].bits, r[2].bits, r[3].bits = b0, b1, b2, b3
		r[0].n -= int(n0)
		r[1].n -= int(n1)
		r[2].n -= int(n2)
		r[3].n -= int(n3)
		k += per
	}
	return k
}

// decodeStream decodes len(out) symbols from the rest of a backward
// Huffman bit stream, which they must consume exactly.
func (d *Decoder) decodeStream(out []byte, r *bitReader, tableLog uint) bool {
	const mask = 1<<maxTableLog - 1
	shift := (64 - tableLog) & 63
	huf := &d.huf
	for k := range out {
		if r.n < int(tableLog) {
			r.fill()
		}
		e := huf[(r.bits>>shift)&mask]
		out[k] = byte(e >> 8)
		r.bits <<= e & 63
		r.n -= int(e & 63)
	}
	return r.n == 0 && r.off == 0
}
