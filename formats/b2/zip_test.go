package b2

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// TestFramesInZip opens members of a python-blosc2 .b2z (STORED zip) in
// place with NewFrame, the way the CTable reader will.
func TestFramesInZip(t *testing.T) {
	data, err := os.ReadFile("testdata/ctable_mixed.b2z")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	member := func(name string) *Frame {
		t.Helper()
		for _, f := range zr.File {
			if f.Name != name {
				continue
			}
			off, err := f.DataOffset()
			if err != nil || f.Method != zip.Store {
				t.Fatalf("%s: offset %v, method %d", name, err, f.Method)
			}
			fr, err := NewFrame(data[off:off+int64(f.CompressedSize64)], name)
			if err != nil {
				t.Fatal(err)
			}
			return fr
		}
		t.Fatalf("no member %s", name)
		return nil
	}

	meta := member("_meta.b2f")
	if meta.NChunks() != 0 {
		t.Errorf("_meta.b2f has %d chunks", meta.NChunks())
	}
	if v, err := meta.VLMetaValue("kind"); err != nil || v != "ctable" {
		t.Errorf("kind = %v, %v", v, err)
	}
	if v, err := meta.VLMetaValue("value_epoch"); err != nil || fmt.Sprint(v) != "1" {
		t.Errorf("value_epoch = %v, %v", v, err)
	}

	code, err := NewArray(member("_cols/code.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	if code.DType.Str != "<U6" || code.Shape()[0] != 999 || code.Frame.Header.FiltersMeta[5] != 4 {
		t.Fatalf("code: %v %v meta %v", code.DType, code.Shape(), code.Frame.Header.FiltersMeta)
	}
	got, err := code.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 999; i++ {
		if w := ucs4(fmt.Sprintf("c%05d", i), 6); !bytes.Equal(got[24*i:24*i+24], w) {
			t.Fatalf("code[%d] = % x", i, got[24*i:24*i+24])
		}
	}

	valid, err := NewArray(member("_valid_rows.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	vb, err := valid.ReadAll()
	if err != nil || len(vb) != 999 {
		t.Fatalf("valid rows: %d, %v", len(vb), err)
	}
	for i, b := range vb {
		want := byte(1)
		if i == 3 || i == 4 || i == 500 {
			want = 0
		}
		if b != want {
			t.Fatalf("_valid_rows[%d] = %d", i, b)
		}
	}

	// VL-blocks (BatchArray) written by python-blosc2: each block is a
	// msgpack array of items.
	note := member("_cols/note.b2b")
	if note.Header.GeneralFlags&0x80 == 0 {
		t.Errorf("note.b2b general flags %#x", note.Header.GeneralFlags)
	}
	var items []any
	d := NewDecoder()
	for c := 0; c < note.NChunks(); c++ {
		src, err := note.ChunkData(c)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := ParseChunkHeader(src)
		buf := make([]byte, h.Nbytes)
		for b := 0; b < h.NBlocks(); b++ {
			n, err := d.DecompressBlock(buf, src, b)
			if err != nil {
				t.Fatal(err)
			}
			var part []any
			if err := msgpack.Unmarshal(buf[:n], &part); err != nil {
				t.Fatal(err)
			}
			items = append(items, part...)
		}
	}
	if len(items) != 1000 {
		t.Fatalf("%d note items", len(items))
	}
	for i, v := range items {
		if i%5 == 0 && v != nil || i%5 != 0 && v != fmt.Sprintf("note %d", i) {
			t.Fatalf("note[%d] = %#v", i, v)
		}
	}
}
