package b2

// grow returns buf resized to n, reallocating only when capacity is short.
// New buffers get a little slack capacity for codecs that over-copy.
func grow(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, n, n+64)
	}
	return buf[:n]
}
