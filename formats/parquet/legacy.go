package parquet

import (
	"bytes"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// legacyV2 reports a file written by parquet-cpp before 2.0 (pyarrow up
// to 3.0 signed files "parquet-cpp version 1.x"), which compressed the
// values of DataPage V2 pages while writing is_compressed=false in their
// headers (ARROW-17100; Arrow C++ reads such pages as compressed for this
// writer, and so does this package).
func legacyV2(meta *metadata.FileMetaData) bool {
	v := meta.WriterVersion()
	return v != nil && v.App == "parquet-cpp" && v.Version.Major < 2
}

// legacyPages reads the pages of a column chunk of a legacyV2 file: the
// chunk's bytes, with the is_compressed flag of every V2 page header set
// to true, go to arrow-go's page reader. The chunk lies inside the file
// (checkLayout), so the copy is bounded by the file's size.
func legacyPages(pf *pqFile, rgr *file.RowGroupReader, leaf int) (file.PageReader, error) {
	cc, err := rgr.MetaData().ColumnChunk(leaf)
	if err != nil {
		return nil, err
	}
	if cc.Compression() == compress.Codecs.Uncompressed {
		return rgr.GetColumnPageReader(leaf)
	}
	chunk, _, err := readChunk(pf, cc)
	if err != nil {
		return nil, err
	}
	markV2Compressed(chunk)
	stream, err := readProps().GetStream(bytes.NewReader(chunk), 0, int64(len(chunk)))
	if err != nil {
		return nil, err
	}
	pr, err := file.NewPageReader(stream, cc.NumValues(), cc.Compression(), bufferPool, nil)
	if err != nil {
		return nil, err
	}
	limitPageHeader(pr, int64(len(chunk)))
	return pr, nil
}

// readChunk reads the bytes of column chunk cc and returns them with their
// offset in the file. The chunk lies inside the file (checkLayout), so the
// read is bounded by the file's size.
func readChunk(pf *pqFile, cc *metadata.ColumnChunkMetaData) ([]byte, int64, error) {
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
		start = cc.DictionaryPageOffset()
	}
	size := cc.TotalCompressedSize()
	if start < 0 || size < 0 || size > pf.size-start {
		return nil, start, corruptf("column chunk of %d bytes at offset %d past the file's end", size, start)
	}
	chunk := make([]byte, size)
	if _, err := pf.src.ReadAt(chunk, start); err != nil {
		return nil, start, corruptf("reading the %d-byte column chunk at offset %d: %v", len(chunk), start, err)
	}
	return chunk, start, nil
}

// Field ids of PageHeader and DataPageHeaderV2 (parquet.thrift).
const (
	phCompressedSize = 3
	phDataPageV2     = 8
	dpv2IsCompressed = 7
)

// markV2Compressed walks the page headers of a column chunk and turns each
// V2 header's is_compressed=false into true, in place: a compact-protocol
// boolean field holds its value in the type of its field header, so the
// flip changes one byte and no length. The walk stops at the first header
// it cannot read, leaving the rest to the page reader to report.
func markV2Compressed(chunk []byte) {
	for pos := 0; pos < len(chunk); {
		c := &compactCopier{in: chunk[pos:]}
		size, flag := int64(-1), -1
		err := c.fields(func(t byte, id int16) error {
			switch {
			case id == phCompressedSize && t == ctI32:
				v, err := c.varint()
				size = v
				return err
			case id == phDataPageV2 && t == ctStruct:
				return c.fields(func(t byte, id int16) error {
					if id == dpv2IsCompressed && t == ctFalse {
						flag = c.hdr
					}
					return c.skip(t, false)
				})
			}
			return c.skip(t, false)
		})
		if err != nil || size < 0 || size > int64(len(chunk)-pos-c.pos) {
			return
		}
		if flag >= 0 {
			chunk[pos+flag] = chunk[pos+flag]&0xf0 | ctTrue
		}
		pos += c.pos + int(size)
	}
}

// limitPageHeader bounds the page headers pr reads by the chunk's size:
// arrow-go retries an undecodable header with twice the bytes, up to 4
// MiB, and its buffered reader grows to match, so a garbage header in a
// small chunk cost 8 MiB per reader (FuzzPageHeaders). A header never
// exceeds its chunk; the floor leaves room for the dictionary header old
// parquet-mr left out of the chunk size (PARQUET-816).
func limitPageHeader(pr file.PageReader, chunk int64) {
	pr.SetMaxPageHeaderSize(int(min(4<<20, max(chunk+1<<10, 32<<10))))
}
