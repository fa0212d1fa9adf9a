package blosclz

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is wrapped by every error Decompress returns.
var ErrCorrupt = errors.New("blosclz: corrupt input")

const (
	// maxLiteral is the longest literal run one control byte can announce.
	maxLiteral = 32
	// nearLimit bounds the biased distance (distance-1) of the 2-byte near
	// form: 31<<8|255 would collide with the far-match marker.
	nearLimit = 8191
	// farBias is added to the 16-bit far distance field.
	farBias = 8192
	// maxDistance is the longest distance the format can express.
	maxDistance = farBias + 0xFFFF
)

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// Decompress decodes the BloscLZ stream src into dst and returns the number of
// bytes written. len(dst) is the expected decompressed size: a stream that
// decodes to more or fewer bytes is an error. src and dst must not overlap.
//
// Decompress never reads outside src, never writes outside dst and never
// panics; any malformed stream yields an error wrapping ErrCorrupt (dst then
// holds garbage). An empty src decodes to zero bytes.
func Decompress(dst, src []byte) (int, error) {
	if len(src) == 0 {
		if len(dst) != 0 {
			return 0, corrupt("empty stream, want %d bytes", len(dst))
		}
		return 0, nil
	}
	op, ip := 0, 1
	// The top 3 bits of the first byte are a format marker, not a match.
	ctrl := uint(src[0] & 31)
	for {
		if ctrl < 32 {
			run := int(ctrl) + 1
			if run > len(src)-ip {
				return op, corrupt("literal run of %d at input %d overruns input", run, ip-1)
			}
			if run > len(dst)-op {
				return op, corrupt("literal run of %d at input %d overruns output", run, ip-1)
			}
			if len(src)-ip >= maxLiteral && len(dst)-op >= maxLiteral {
				// Copying the whole 32-byte window avoids a length-dependent
				// memmove; the bytes past run are overwritten by later output
				// before anything reads them.
				copy32(dst[op:op+maxLiteral], src[ip:ip+maxLiteral])
			} else {
				copy(dst[op:op+run], src[ip:ip+run])
			}
			op += run
			ip += run
			if ip >= len(src) {
				break
			}
			ctrl = uint(src[ip])
			ip++
			continue
		}

		at := ip - 1
		length := int(ctrl>>5) + 2
		dist := int(ctrl&31) << 8
		if length == 9 {
			for {
				if ip >= len(src) {
					return op, corrupt("match at input %d: truncated length", at)
				}
				b := src[ip]
				ip++
				length += int(b)
				if b != 255 {
					break
				}
			}
		}
		if ip >= len(src) {
			return op, corrupt("match at input %d: truncated distance", at)
		}
		code := int(src[ip])
		ip++
		if code == 255 && dist == 31<<8 {
			if len(src)-ip < 2 {
				return op, corrupt("match at input %d: truncated far distance", at)
			}
			dist = (int(src[ip])<<8 | int(src[ip+1])) + farBias
			ip += 2
		} else {
			dist += code + 1
		}
		if dist > op {
			return op, corrupt("match at input %d: distance %d before start of output (at %d)", at, dist, op)
		}
		if length > len(dst)-op {
			return op, corrupt("match at input %d: length %d overruns output", at, length)
		}
		if ip >= len(src) {
			// c-blosc2 3.x reads the next control byte before copying and
			// stops at the end of input, dropping a final match; its writer
			// always ends with literals. Reject what it would not decode.
			return op, corrupt("stream ends with a match at input %d", at)
		}
		if ref := op - dist; dist >= 8 && length <= 16 && len(dst)-op >= 16 {
			// The commonest match, short and not self-overlapping within a
			// word, inline: two word copies (see copyMatch for why the
			// overlap and the spill are harmless).
			d := dst[op : op+16]
			s := dst[ref : ref+16]
			binary.LittleEndian.PutUint64(d[0:], binary.LittleEndian.Uint64(s[0:]))
			binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:]))
		} else {
			copyMatch(dst, op, dist, length)
		}
		op += length
		ctrl = uint(src[ip])
		ip++
	}
	if op != len(dst) {
		return op, corrupt("decoded %d bytes, want %d", op, len(dst))
	}
	return op, nil
}

// copy32 copies exactly 32 bytes with four word moves.
func copy32(dst, src []byte) {
	_ = dst[31]
	_ = src[31]
	binary.LittleEndian.PutUint64(dst[0:], binary.LittleEndian.Uint64(src[0:]))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
	binary.LittleEndian.PutUint64(dst[16:], binary.LittleEndian.Uint64(src[16:]))
	binary.LittleEndian.PutUint64(dst[24:], binary.LittleEndian.Uint64(src[24:]))
}

// copyMatch appends length bytes starting dist bytes back from op, with
// LZ77 semantics: when dist < length the source overlaps the bytes being
// written and the pattern of period dist repeats. The caller has checked
// 0 < dist <= op and op+length <= len(dst).
func copyMatch(dst []byte, op, dist, length int) {
	ref := op - dist
	if dist >= 8 {
		// Word copies, front to back, are exact even when overlapping because
		// each 8-byte read lies entirely before the bytes it is about to write.
		// They may spill up to 7 bytes past the match, so they need slack.
		if length <= 32 && op+32 <= len(dst) {
			d := dst[op : op+32]
			s := dst[ref : ref+32]
			binary.LittleEndian.PutUint64(d[0:], binary.LittleEndian.Uint64(s[0:]))
			if length > 8 {
				binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:]))
				if length > 16 {
					binary.LittleEndian.PutUint64(d[16:], binary.LittleEndian.Uint64(s[16:]))
					binary.LittleEndian.PutUint64(d[24:], binary.LittleEndian.Uint64(s[24:]))
				}
			}
			return
		}
		if dist >= length {
			copy(dst[op:op+length], dst[ref:ref+length])
			return
		}
	} else if dist == 1 {
		// A run of one byte value: the commonest match in shuffled data.
		b := dst[ref]
		d := dst[op : op+length]
		if len(d) >= 8 {
			w := uint64(b) * 0x0101010101010101
			i := 0
			for ; i+8 <= len(d); i += 8 {
				binary.LittleEndian.PutUint64(d[i:], w)
			}
			// Finish with one overlapping word instead of a byte loop.
			binary.LittleEndian.PutUint64(d[len(d)-8:], w)
			return
		}
		for i := range d {
			d[i] = b
		}
		return
	}
	// Overlapping copy: each copy doubles the replicated prefix, so a long
	// match of a short period costs O(log length) memmoves.
	end := op + length
	for op < end {
		n := copy(dst[op:end], dst[ref:op])
		op += n
	}
}
