package b2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// ndlzStream is an NDLZ stream header for a b0×b1 block followed by body.
func ndlzStream(b0, b1 int, body ...byte) []byte {
	s := []byte{2}
	s = binary.LittleEndian.AppendUint32(s, uint32(b0))
	s = binary.LittleEndian.AppendUint32(s, uint32(b1))
	return append(s, body...)
}

// Row-match tokens that c-blosc2's compressor did not emit for the test
// files, on a 4×8 block of two 4×4 cells: cell 0 is literal (the bytes
// 0..15 at stream offset 10), cell 1 (token at offset 26) rebuilds its rows
// from there; a stored offset of 16 points back to cell 0's first byte
// (offsets count back from the token). c-blosc2 3.3.2's ndlz4_decompress,
// called on these four streams outside the repository, writes the same
// 32 bytes.
func TestNDLZ4RowTokensByHand(t *testing.T) {
	lit := make([]byte, 16)
	for i := range lit {
		lit[i] = byte(i)
	}
	row := func(r int) []byte { return lit[4*r : 4*r+4] } // cell 0's row r
	for _, tc := range []struct {
		name string
		tok  []byte
		want [4][]byte // cell 1's rows
	}{
		// Three rows 0, 1, 3 from cell 0's first 12 bytes, row 2 literal.
		{"three rows 0,1,3", []byte{240, 16, 0, 90, 91, 92, 93}, [4][]byte{row(0), row(1), {90, 91, 92, 93}, row(2)}},
		// Three rows 0, 2, 3, row 1 literal.
		{"three rows 0,2,3", []byte{248, 16, 0, 90, 91, 92, 93}, [4][]byte{row(0), {90, 91, 92, 93}, row(1), row(2)}},
		// Rows 1 and 2 from cell 0's rows 0, 1 (token 128 + 1<<5 + 2<<3), rows 0, 3 literal.
		{"pair 1,2", []byte{176, 16, 0, 80, 81, 82, 83, 84, 85, 86, 87}, [4][]byte{{80, 81, 82, 83}, row(0), row(1), {84, 85, 86, 87}}},
		// Rows 0 and 3 from cell 0's rows 0, 1; rows 1 and 2 from its rows 2, 3.
		{"two pairs 0,3 / 1,2", []byte{56, 16, 0, 8, 0}, [4][]byte{row(0), row(2), row(3), row(1)}},
	} {
		src := ndlzStream(4, 8, append(append([]byte{0}, lit...), tc.tok...)...)
		dst := make([]byte, 32)
		if err := ndlzDecode(dst, src, 4); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for r := range 4 {
			if !bytes.Equal(dst[r*8:r*8+4], row(r)) || !bytes.Equal(dst[r*8+4:r*8+8], tc.want[r]) {
				t.Fatalf("%s: row %d is %v, want %v then %v", tc.name, r, dst[r*8:r*8+8], row(r), tc.want[r])
			}
		}
	}
}

func TestNDLZCorrupt(t *testing.T) {
	lit := make([]byte, 16)
	for _, tc := range []struct {
		name string
		src  []byte
		dst  int
	}{
		{"short header", []byte{2, 4, 0, 0}, 16},
		{"3-D", append([]byte{3}, ndlzStream(4, 4)[1:]...), 16},
		{"shape larger than the block", ndlzStream(8, 8), 16},
		{"zero dimension", ndlzStream(0, 4), 16},
		{"missing token", ndlzStream(4, 4), 16},
		{"short literal", ndlzStream(4, 4, 0, 1, 2), 16},
		{"reference before the stream", ndlzStream(4, 4, 0xC0, 200, 0), 16},
		{"reference past the end", ndlzStream(4, 8, append(append([]byte{0}, lit...), 0xC0, 1, 0)...), 32},
		{"invalid token", ndlzStream(4, 4, 200), 16},
		{"missing repeated byte", ndlzStream(4, 4, 0x40), 16},
	} {
		err := ndlzDecode(make([]byte, tc.dst), tc.src, 4)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want corrupt data", tc.name, err)
		}
	}
	if err := ndlzDecode(make([]byte, 16), ndlzStream(4, 4, 0x40, 1), 5); !errors.Is(err, ErrUnsupported) {
		t.Errorf("cell size 5: got %v, want unsupported", err)
	}
}

func FuzzNDLZ(f *testing.F) {
	f.Add(ndlzStream(4, 8, append(make([]byte, 17), 240, 16, 0, 1, 2, 3, 4)...), uint8(4), uint16(32))
	f.Add(ndlzStream(8, 8, 0x40, 9), uint8(8), uint16(64))
	f.Fuzz(func(t *testing.T, src []byte, cell uint8, n uint16) {
		dst := make([]byte, n) // bounded: the block size is the caller's
		_ = ndlzDecode(dst, src, int(cell))
	})
}
