package ctable

import (
	"testing"
	"unsafe"
)

// TestBoolsFromBytes: every byte value, at every position of a word and
// in the tail past the last whole word, converts to byte != 0.
func TestBoolsFromBytes(t *testing.T) {
	for n := 0; n <= 300; n++ {
		src := make([]byte, n)
		for i := range src {
			// 0 and 1 (what NumPy writes) mostly, every other value too.
			switch i % 5 {
			case 0, 2:
				src[i] = 0
			case 1, 3:
				src[i] = 1
			default:
				src[i] = byte(i * 37)
			}
		}
		out := make([]bool, n)
		for i := range out {
			out[i] = i%2 == 0 // garbage the conversion must overwrite
		}
		boolsFromBytes(out, src)
		for i, b := range src {
			if out[i] != (b != 0) {
				t.Fatalf("n=%d: byte %d is %#x, got %v", n, i, b, out[i])
			}
			if x := *(*byte)(unsafe.Pointer(&out[i])); x > 1 {
				t.Fatalf("n=%d: bool %d holds byte %#x", n, i, x)
			}
		}
	}
	// Each single nonzero byte value in each lane of a word.
	for v := 1; v < 256; v++ {
		for lane := 0; lane < 8; lane++ {
			src := make([]byte, 8)
			src[lane] = byte(v)
			out := make([]bool, 8)
			boolsFromBytes(out, src)
			for i := range out {
				if out[i] != (i == lane) {
					t.Fatalf("byte %#x in lane %d: bool %d is %v", v, lane, i, out[i])
				}
			}
		}
	}
}
