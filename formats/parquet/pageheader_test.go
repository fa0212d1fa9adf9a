package parquet

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestPageHeaderWithoutSubHeader: a page header whose type is DATA_PAGE_V2
// but which has no data_page_header_v2 (the FuzzPageHeaders finding
// v2nosubheader) is reported by position as corrupt, not as a recovered
// nil dereference of arrow-go.
func TestPageHeaderWithoutSubHeader(t *testing.T) {
	// Thrift compact: type=3 (DATA_PAGE_V2), uncompressed=24, compressed=24,
	// then a stray byte; no field 8.
	chunk := []byte("\x15\x06\x150\x1500")
	stream, err := readProps().GetStream(bytes.NewReader(chunk), 0, int64(len(chunk)))
	if err != nil {
		t.Fatal(err)
	}
	pr, err := file.NewPageReader(stream, 5, compress.Codecs.Snappy, bufferPool, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := func() ([]byte, int64, error) { return chunk, 100, nil }
	err = decodeFuzzChunk(parquet.Types.Int32, 0, true, 5, false, false, pr, whole)
	want := "page 0 at offset 100: DATA_PAGE_V2 header without its data_page_header_v2"
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want ErrCorrupt with %q", err, want)
	}
}

// TestCheckPageHeaders: each page type needs its own sub-header; a chunk
// of well-formed headers is accepted.
func TestCheckPageHeaders(t *testing.T) {
	// type=0 (DATA_PAGE) sizes 0, with a dictionary_page_header (field 7)
	// instead of its data_page_header (field 5): delta 4 from field 3.
	dataWithDict := []byte{0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x4c, 0x00, 0x00}
	if err := checkPageHeaders(dataWithDict, 0); err == nil || !strings.Contains(err.Error(), "DATA_PAGE header without its data_page_header") {
		t.Fatalf("got %v", err)
	}
	// type=2 (DICTIONARY_PAGE) with its field 7.
	dict := []byte{0x15, 0x04, 0x15, 0x00, 0x15, 0x00, 0x4c, 0x00, 0x00}
	if err := checkPageHeaders(dict, 0); err != nil {
		t.Fatal(err)
	}
	// The second of two pages lacks its sub-header: its offset is named.
	two := append(append([]byte{}, dict...), 0x15, 0x06, 0x15, 0x00, 0x15, 0x00, 0x00)
	if err := checkPageHeaders(two, 10); err == nil || !strings.Contains(err.Error(), "page 1 at offset 19: DATA_PAGE_V2") {
		t.Fatalf("got %v", err)
	}
}
