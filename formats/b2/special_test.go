package b2

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func TestSpecialKinds(t *testing.T) {
	for _, tc := range []struct {
		kind Special
		ts   int
		item []byte
	}{
		{SpecialZeros, 8, make([]byte, 8)},
		{SpecialUninit, 4, make([]byte, 4)},
		{SpecialNaN, 4, binary.LittleEndian.AppendUint32(nil, 0x7FC00000)},
		{SpecialNaN, 8, binary.LittleEndian.AppendUint64(nil, 0x7FF8000000000000)},
	} {
		c := specialChunk(tc.kind, 96, tc.ts)
		got := make([]byte, 96)
		if _, err := Decompress(got, c); err != nil {
			t.Fatal(err)
		}
		if want := bytes.Repeat(tc.item, 96/tc.ts); !bytes.Equal(got, want) {
			t.Errorf("%v/%d: % x", tc.kind, tc.ts, got)
		}
		part := make([]byte, 13)
		if err := DecompressRange(part, c, 5, 13); err != nil || !bytes.Equal(part, bytes.Repeat(tc.item, 96/tc.ts)[5:18]) {
			t.Errorf("%v/%d range: % x %v", tc.kind, tc.ts, part, err)
		}
	}
	// Repeated 3-byte value, read at an unaligned phase.
	c := specialChunk(SpecialValue, 30, 3)
	c = append(c, 'a', 'b', 'c')
	binary.LittleEndian.PutUint32(c[12:], uint32(len(c)))
	part := make([]byte, 7)
	if err := DecompressRange(part, c, 4, 7); err != nil || string(part) != "bcabcab" {
		t.Fatalf("value range %q %v", part, err)
	}
	// NaN with a typesize other than 4 or 8 is corrupt.
	if _, err := ParseChunkHeader(specialChunk(SpecialNaN, 96, 2)); err == nil {
		t.Fatal("NaN chunk with typesize 2 accepted")
	}
}
