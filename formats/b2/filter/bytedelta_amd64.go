//go:build !purego

package filter

//go:noescape
func byteDeltaDecode16(dst, src *byte, blocks int)

//go:noescape
func byteDeltaEncode16(dst, src *byte, blocks int)

// byteDeltaDecodeAsm decodes the first 16*k bytes of one channel (starting
// from a zero predecessor) and returns 16*k.
func byteDeltaDecodeAsm(dst, src []byte) int {
	blocks := len(src) / 16
	if blocks == 0 {
		return 0
	}
	_ = dst[16*blocks-1]
	byteDeltaDecode16(&dst[0], &src[0], blocks)
	return 16 * blocks
}

// byteDeltaEncodeAsm encodes the first 16*k bytes of one channel and
// returns 16*k.
func byteDeltaEncodeAsm(dst, src []byte) int {
	blocks := len(src) / 16
	if blocks == 0 {
		return 0
	}
	_ = dst[16*blocks-1]
	byteDeltaEncode16(&dst[0], &src[0], blocks)
	return 16 * blocks
}
