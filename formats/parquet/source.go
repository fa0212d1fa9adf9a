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
		rdr, cols, skipped, warnings, err := readFooter(io.NewSectionReader(src, 0, src.Size()), src.Size())
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

// IO reports what the table's remote sources fetched since they were
// opened (planner.IOReporter); ok is false for a table of local files.
func (t *Table) IO() (io index.IOStats, ok bool) {
	for _, f := range t.files {
		src, isSrc := f.closer.(storage.Source)
		if !isSrc || !storage.IsRemote(src.Name()) {
			continue
		}
		st := src.Stats()
		io.Requests += st.Requests
		io.Bytes += st.Bytes
		io.Size += f.size
		ok = true
	}
	return io, ok
}

// prefetchPages has a remote file fetch, in one round of parallel
// requests, the pages that late materialization is about to seek to: for
// each output column read page by page (not a filter column, not read
// whole), the pages holding the selected rows start+sel[i] of the batch,
// and the chunk's dictionary. Each range is widened as the page reader
// reads (streamBuffer bytes a fill, within the chunk), so every fill is
// served from the cache. A no-op for local files and for columns without
// an offset index.
func (s *scanner) prefetchPages(pf *pqFile, cols []*fcol, start int64, sel []int) error {
	p, ok := pf.src.(storage.Prefetcher)
	if !ok || len(sel) == 0 {
		return nil
	}
	var ranges []storage.Range
	fill := func(off, n, end int64) {
		n = (n + streamBuffer - 1) / streamBuffer * streamBuffer
		ranges = append(ranges, storage.Range{Off: off, Len: min(n, end-off)})
	}
	for _, fc := range cols {
		pi := fc.pi
		if fc.filter || len(fc.outs) == 0 || len(pi.off) == 0 {
			continue
		}
		if pi.start < pi.off[0] {
			fill(pi.start, pi.off[0]-pi.start, pi.end)
		}
		last := -1
		for _, r := range sel {
			if j := pi.pageOf(start + int64(r)); j != last && j >= 0 {
				fill(pi.off[j], pi.size[j], pi.end)
				last = j
			}
		}
	}
	if err := p.Prefetch(s.ctx, ranges); err != nil && s.ctx.Err() == nil {
		return err
	}
	return nil
}
