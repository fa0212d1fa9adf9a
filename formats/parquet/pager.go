package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// countingPager wraps a column chunk's page reader to count what decoding
// really cost: the data pages it produced and their uncompressed bytes.
// Seeking through the offset index (SeekToRow) jumps over pages without
// reading them, and this is where that shows. The counts feed
// ScanStats.BytesDecompressed and PagesTotal/PagesSkipped.
//
// It also refuses a data page whose encoding does not suit the column's
// physical type (DELTA_LENGTH_BYTE_ARRAY on INT32, say), which arrow-go's
// decoder factory answers with a panic.
type countingPager struct {
	file.PageReader
	phys  parquet.Type
	pages int64 // data pages read
	bytes int64 // uncompressed bytes of every page read (dictionary included)
	err   error // a page refused by checkEncoding
}

func (p *countingPager) Err() error {
	if p.err != nil {
		return p.err
	}
	return p.PageReader.Err()
}

// checkEncoding reports a data page whose encoding the Parquet format does
// not allow for phys (corrupt) or that no version of it defines
// (unsupported).
func checkEncoding(enc parquet.Encoding, phys parquet.Type) error {
	T := parquet.Types
	ok := false
	switch enc {
	case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
		ok = true
	case parquet.Encodings.RLE:
		ok = phys == T.Boolean
	case parquet.Encodings.DeltaBinaryPacked:
		ok = phys == T.Int32 || phys == T.Int64
	case parquet.Encodings.DeltaLengthByteArray:
		ok = phys == T.ByteArray
	case parquet.Encodings.DeltaByteArray:
		ok = phys == T.ByteArray || phys == T.FixedLenByteArray
	case parquet.Encodings.ByteStreamSplit:
		ok = phys == T.Float || phys == T.Double || phys == T.Int32 || phys == T.Int64 || phys == T.FixedLenByteArray
	case parquet.Encodings.BitPacked:
		// levels only
	default:
		return fmt.Errorf("%w: page encoding %d", ErrUnsupported, int(enc))
	}
	if !ok {
		return corruptf("page encoding %s is not defined for %s values", enc, phys)
	}
	return nil
}

// check refuses the current page if its encoding does not suit the column.
func (p *countingPager) check() bool {
	var enc parquet.Encoding
	switch pg := p.PageReader.Page().(type) {
	case *file.DataPageV1:
		enc = parquet.Encoding(pg.Encoding())
	case *file.DataPageV2:
		enc = parquet.Encoding(pg.Encoding())
	default:
		return true
	}
	if err := checkEncoding(enc, p.phys); err != nil {
		p.err = err
		return false
	}
	return true
}

func (p *countingPager) count() {
	switch pg := p.PageReader.Page().(type) {
	case file.DataPage:
		p.pages++
		p.bytes += int64(pg.UncompressedSize())
	case *file.DictionaryPage:
		p.bytes += int64(len(pg.Data()))
	}
}

func (p *countingPager) Next() bool {
	if p.err != nil || !p.PageReader.Next() || !p.check() {
		return false
	}
	p.count()
	return true
}

func (p *countingPager) SeekToPageWithRow(row int64) error {
	if err := p.PageReader.SeekToPageWithRow(row); err != nil {
		return err
	}
	if p.PageReader.Page() != nil {
		if !p.check() {
			return p.err
		}
		p.count()
	}
	return nil
}

func (p *countingPager) GetDictionaryPage() (*file.DictionaryPage, error) {
	pg, err := p.PageReader.GetDictionaryPage()
	if err == nil && pg != nil {
		p.bytes += int64(len(pg.Data()))
	}
	return pg, err
}

// openColumn opens a reader of leaf in a row group through a countingPager.
// arrow-go's NewColumnReader is marked deprecated because its buffer pool
// must hold *memory.Buffer values; the file reader's own pool does.
func openColumn(pf *pqFile, rgr *file.RowGroupReader, leaf int) (file.ColumnChunkReader, *countingPager, error) {
	cp, err := openPages(pf, rgr, leaf)
	if err != nil {
		return nil, nil, err
	}
	descr := pf.meta.Schema.Column(leaf)
	//lint:ignore SA1019 see above
	r := file.NewColumnReader(descr, cp, bufferPool, pf.rdr.BufferPool())
	return r, cp, nil
}

// openPages opens the pages of leaf in a row group through a countingPager:
// every column chunk is read through one.
func openPages(pf *pqFile, rgr *file.RowGroupReader, leaf int) (*countingPager, error) {
	var pr file.PageReader
	var err error
	if pf.legacyV2 {
		pr, err = legacyPages(pf, rgr, leaf)
	} else {
		pr, err = rgr.GetColumnPageReader(leaf)
	}
	if err != nil {
		return nil, err
	}
	return &countingPager{PageReader: pr, phys: rgr.MetaData().Schema.Column(leaf).PhysicalType()}, nil
}
