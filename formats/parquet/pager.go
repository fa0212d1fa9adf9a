package parquet

import (
	"github.com/apache/arrow-go/v18/parquet/file"
)

// countingPager wraps a column chunk's page reader to count what decoding
// really cost: the data pages it produced and their uncompressed bytes.
// Seeking through the offset index (SeekToRow) jumps over pages without
// reading them, and this is where that shows. The counts feed
// ScanStats.BytesDecompressed and PagesTotal/PagesSkipped.
type countingPager struct {
	file.PageReader
	pages int64 // data pages read
	bytes int64 // uncompressed bytes of every page read (dictionary included)
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
	if !p.PageReader.Next() {
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
	pr, err := rgr.GetColumnPageReader(leaf)
	if err != nil {
		return nil, nil, err
	}
	cp := &countingPager{PageReader: pr}
	descr := pf.meta.Schema.Column(leaf)
	//lint:ignore SA1019 see above
	r := file.NewColumnReader(descr, cp, bufferPool, pf.rdr.BufferPool())
	return r, cp, nil
}
