package parquet

import (
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Positioning a codeReader, for filtered scans (filtered.go), whose column
// readers move forward over rows no filter kept: seek jumps to the page
// holding a row through the offset index, without reading the pages in
// between; skip moves over rows of the loaded pages.

// seek positions r at row (of the chunk) through the page reader's offset
// index. The dictionary page, which the seek jumps over, is read first if
// it was not yet (chunks without one, DELTA numbers, have none to read).
func (r *codeReader) seek(row int64) error {
	if r.dict == nil && r.hasDict {
		pg, err := r.pages.GetDictionaryPage()
		if err != nil {
			return err
		}
		if pg == nil {
			return corruptf("dictionary-encoded column chunk without a dictionary page")
		}
		if err := r.loadDict(pg); err != nil {
			return err
		}
	}
	if err := r.pages.SeekToPageWithRow(row); err != nil {
		return err
	}
	pg, ok := r.pages.Page().(file.DataPage)
	if !ok {
		if err := r.pages.Err(); err != nil {
			return err
		}
		return corruptf("no data page holds row %d", row)
	}
	first := pg.FirstRowIndex()
	if first < 0 || first > row || first > r.total {
		return corruptf("page of row %d starts at row %d", row, first)
	}
	r.left = r.total - first
	if _, err := r.loadPage(pg); err != nil {
		return err
	}
	return r.skip(row - first)
}

// skip moves r forward over n rows, loading pages as needed.
func (r *codeReader) skip(n int64) error {
	for n > 0 {
		if r.pos == r.rows {
			ok, err := r.nextPage()
			if err != nil {
				return err
			}
			if !ok {
				return corruptf("column chunk ends %d rows before the row skipped to", n)
			}
			continue
		}
		k := int(min(n, int64(r.rows-r.pos)))
		vals := k
		if r.defs != nil {
			vals = 0
			for _, d := range r.defs[r.pos : r.pos+k] {
				if d == int32(r.maxDef) {
					vals++
				}
			}
		}
		if r.lazyBytes {
			if err := r.skipBytes(vals); err != nil {
				return err
			}
		}
		r.vpos += vals
		r.pos += k
		n -= int64(k)
	}
	return nil
}
