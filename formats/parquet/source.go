package parquet

import (
	"errors"
	"io"

	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// Remote files: a Table over storage.Sources reads its footer through the
// source (whose open already fetched the object's tail, where the footer
// lives) and, per row group, asks the source to prefetch exactly the
// column chunks the scan will decode, so that they arrive in a few
// coalesced, parallel requests instead of one small read per page.

// OpenSources opens the Parquet objects srcs as one table named after name
// (as Open names a pattern's table). The table owns the sources: Close
// closes them, and so does a failed OpenSources.
func OpenSources(name string, srcs []storage.Source) (_ *Table, err error) {
	if len(srcs) == 0 {
		return nil, errors.New("parquet: " + name + ": no files")
	}
	t := &Table{name: stem(name)}
	next := 0
	defer func() {
		if err != nil {
			t.Close()
			for _, s := range srcs[next:] {
				s.Close()
			}
		}
	}()
	for _, src := range srcs {
		next++
		rdr, cols, skipped, warnings, err := readFooter(io.NewSectionReader(src, 0, src.Size()), src.Size(), false)
		if err != nil {
			src.Close()
			return nil, fileError(src.Name(), err)
		}
		f := &pqFile{path: src.Name(), size: src.Size(), closer: src, rdr: rdr, meta: rdr.MetaData(),
			warnings: warnings, src: src, legacyV2: legacyV2(rdr.MetaData())}
		if err := t.addFile(f, cols, skipped); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// prefetchUnit has a remote file fetch, ahead of decoding, the column
// chunks of unit u that the scan reads in full: every output column, or
// under a filter only the filter columns (the others are read page by
// page where rows pass, through the offset index, and a whole-chunk
// prefetch would fetch what late materialization skips). A no-op for
// local files.
func (s *scanner) prefetchUnit(u *unit, pf *pqFile, preds []index.Pred, filtered bool) error {
	p, ok := pf.src.(storage.Prefetcher)
	if !ok {
		return nil
	}
	leaves := map[int]bool{}
	if filtered {
		var add func(ps []index.Pred)
		add = func(ps []index.Pred) {
			for _, pr := range ps {
				if pr.Col >= 0 && pr.Col < len(s.t.cols) {
					leaves[s.t.cols[pr.Col].leaf] = true
				}
				add(pr.Any)
			}
		}
		add(preds)
	} else {
		for _, c := range s.cols {
			leaves[c.leaf] = true
		}
	}
	rg := pf.meta.RowGroup(u.rg)
	var ranges []storage.Range
	for leaf := range leaves {
		cc, err := rg.ColumnChunk(leaf)
		if err != nil {
			return asCorrupt(err)
		}
		start := cc.DataPageOffset()
		if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
			start = cc.DictionaryPageOffset()
		}
		ranges = append(ranges, storage.Range{Off: start, Len: cc.TotalCompressedSize()})
	}
	if err := p.Prefetch(s.ctx, ranges); err != nil && s.ctx.Err() == nil {
		return err
	}
	return nil
}
