package parquet

import (
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// A filtered unit scan reads one row group under a pushed filter and emits
// only the rows that satisfy it, packed into full batches:
//
//  1. the page index narrows the row group to row ranges (pagedRanges);
//  2. per range, batchRows rows at a time, the filter columns are decoded
//     and the predicates evaluated (rowFilter), giving the selected rows;
//  3. with late materialization, every other column is decoded only on the
//     pages holding selected rows: its reader seeks (OffsetIndex) over
//     pages without selected rows, so they are never decompressed, and
//     skips rows inside a page. Without it, or for a batch where at least
//     half the rows pass, every column is decoded in full and the selected
//     rows are copied out, as a plain scan would.
//
// Columns seek independently: pages of different columns cover different
// rows, and each reader moves forward only.

// fcol is one column of a filtered unit scan.
type fcol struct {
	tcol   int   // table column
	outs   []int // positions in spec.Cols (empty: read for the filter only)
	filter bool  // some predicate reads it
	dec    decoder
	pager  *countingPager
	pi     *pageIndex
	pos    int64 // next row (of the row group) the reader yields
	rows   int64 // rows in the row group
	size   int64 // compressed bytes of the column chunk
	// buf holds decoded rows: the current batch's rows for filter columns
	// (and every column without late materialization), else one page run.
	buf   *columnar.Vector
	valid columnar.Bitmap
	arena []byte
	gen   uint64 // the worker's batch generation buf was decoded for (filter columns)
	// wantCodes: some output of the column accepts dictionary codes
	// (ScanSpec.WantsCodes); DictUnits counts its coded chunks.
	wantCodes bool
	// aheadTo is the byte offset up to which a remote scan asked for this
	// chunk's pages ahead of need (source.go, prefetchPages).
	aheadTo int64
	// walk tracks the pages a sparse selection enters in this chunk
	// (source.go, pageWalk): entered page after page, they are read ahead.
	walk pageWalk
}

// skipper is the Skip method every typed column chunk reader has.
type skipper interface {
	Skip(n int64) (int64, error)
}

// moveTo positions the reader at row r (r >= pos): a seek when r lies on a
// later page and the offset index locates it, a skip inside the page (or
// when pages cannot be located) otherwise.
func (fc *fcol) moveTo(r int64) error {
	switch {
	case r == fc.pos:
		return nil
	case r < fc.pos:
		return fmt.Errorf("internal: column reader at row %d asked to go back to row %d", fc.pos, r)
	}
	seek := fc.pi.first != nil && fc.pi.pageOf(r) != fc.pi.pageOf(fc.pos)
	var err error
	switch {
	case fc.dec.c.nested != nil:
		err = fc.dec.nr.skip(fc.dec.c.field.Type, r-fc.pos)
	case fc.dec.coded && seek:
		err = fc.dec.cr.seek(r)
	case fc.dec.coded:
		err = fc.dec.cr.skip(r - fc.pos)
	case seek:
		err = fc.dec.rdr.SeekToRow(r)
	default:
		_, err = fc.dec.rdr.(skipper).Skip(r - fc.pos)
	}
	if err != nil {
		return asCorrupt(err)
	}
	fc.pos = r
	return nil
}

// open starts reading the column chunk cc through a countingPager: as
// dictionary codes, or a numeric dictionary gathered (codeReader), when
// the chunk has a dictionary page and the DictCodes rule allows (see
// filterCols), or numbers and booleans without a dictionary
// (decoder.useCodeReader), else through arrow-go's typed reader. coded
// reports string codes.
func (fc *fcol) open(pf *pqFile, rgr *file.RowGroupReader, cc *metadata.ColumnChunkMetaData) (coded bool, err error) {
	d := &fc.dec
	leaf := d.c.leaf
	if d.useCodeReader(cc) {
		fc.pager, err = openPages(pf, rgr, leaf)
		if err != nil {
			return false, err
		}
		d.cr.reset(fc.pager, d.c, cc.NumValues(), cc.HasDictionaryPage(), rgr.MetaData().Schema.Column(leaf).MaxDefinitionLevel())
		d.coded = true
		return d.wantsStrCodes() && cc.HasDictionaryPage(), nil
	}
	d.coded = false
	d.rdr, fc.pager, err = openColumn(pf, rgr, leaf)
	return false, err
}

// decode reads n rows from the current position into fc.buf.
func (fc *fcol) decode(n int) error {
	fc.buf.Reset(n)
	got, valid, arena, err := fc.dec.read(fc.buf, n, fc.valid, fc.arena[:0])
	fc.valid, fc.arena = valid, arena
	if err != nil {
		return err
	}
	if got != n {
		return fc.dec.shortChunk(fc.pos+int64(got), fc.rows)
	}
	fc.pos += int64(n)
	return nil
}

// decodeWhere is decode for a dictionary-less string column whose values
// keep tests as they are read (codeReader.readCopiedWhere): the rows kept
// are appended to sel, the others left nil.
func (fc *fcol) decodeWhere(n int, keep func([]byte) bool, sel []int) ([]int, error) {
	fc.buf.Reset(n)
	got, sel, valid, arena, err := fc.dec.cr.readCopiedWhere(fc.buf, n, fc.valid, fc.arena[:0], keep, sel)
	fc.valid, fc.arena = valid, arena
	if err != nil {
		return sel, asCorrupt(err)
	}
	if got != n {
		return sel, fc.dec.shortChunk(fc.pos+int64(got), fc.rows)
	}
	fc.pos += int64(n)
	return sel, nil
}

// decodeRows is decode for a column of which only the rows in sel (nil:
// all) will be read: numeric chunks read by codeReader then gather only
// those rows when they are few (readFixed).
func (fc *fcol) decodeRows(n int, sel []int) error {
	if sel == nil || 2*len(sel) >= n || !fc.dec.coded || !fixedPages(fc.dec.c) {
		return fc.decode(n)
	}
	fc.buf.Reset(n)
	got, valid, err := fc.dec.cr.readFixed(fc.buf, n, fc.valid, sel)
	fc.valid = valid
	if err != nil {
		return asCorrupt(err)
	}
	if got != n {
		return fc.dec.shortChunk(fc.pos+int64(got), fc.rows)
	}
	fc.pos += int64(n)
	return nil
}

// filteredUnit decodes unit u under preds (the filter predicates not proved
// true for the whole unit) within ranges, sending full batches to out. It
// returns the column whose decoding failed (-1 if none) with the error.
func (w *worker) filteredUnit(tk *task, u *unit, pf *pqFile, preds []index.Pred, ranges []rowRange, out chan<- item) (int, error) {
	s := w.s
	lm := s.spec.On(index.LateMaterialization)
	cols := w.filterCols(preds)
	defer func() {
		for _, fc := range cols {
			fc.dec.close()
		}
	}()
	rgr := pf.rdr.RowGroup(u.rg)
	for _, fc := range cols {
		if fc.dec.c.nested != nil {
			fc.dec.rg = u.rg
			if _, err := fc.dec.open(pf, rgr, nil, -1); err != nil {
				return fc.tcol, asCorrupt(err)
			}
			fc.pos, fc.rows, fc.pi = 0, u.rows, noPageIndex
			continue
		}
		cc, err := rgr.MetaData().ColumnChunk(fc.dec.c.leaf)
		if err != nil {
			return fc.tcol, asCorrupt(err)
		}
		coded, err := fc.open(pf, rgr, cc)
		if err != nil {
			return fc.tcol, asCorrupt(err)
		}
		if coded && fc.wantCodes && s.stats != nil {
			atomic.AddInt64(&s.stats.DictUnits, 1)
		}
		fc.pos, fc.rows, fc.size = 0, u.rows, cc.TotalCompressedSize()
		fc.pi = s.t.pageIndexOf(tk.unit, fc.dec.c)
	}
	byCol := make(map[int]*fcol, len(cols))
	for _, fc := range cols {
		byCol[fc.tcol] = fc
	}
	// vec decodes a filter column's rows of the current batch on the first
	// call (rowFilter.apply asks only while rows remain selected, and says
	// which: later steps only narrow them, and the rows kept are output).
	var start int64
	var n int
	errCol := -1
	vec := func(c int, sel []int) (*columnar.Vector, error) {
		fc := byCol[c]
		if fc.gen != w.gen {
			if err := fc.moveTo(start); err != nil {
				errCol = fc.tcol
				return nil, err
			}
			if err := fc.decodeRows(n, sel); err != nil {
				errCol = fc.tcol
				return nil, err
			}
			fc.gen = w.gen
		}
		return fc.buf, nil
	}
	// where is vec for the batch's first test when it compares a
	// dictionary-less string column (rowFilter.decodeTesting).
	where := func(c int, keep func([]byte) bool, sel []int) ([]int, bool, error) {
		fc := byCol[c]
		if fc.gen == w.gen || !fc.dec.coded || !fc.dec.cr.copiesBytes() {
			return sel, false, nil
		}
		if err := fc.moveTo(start); err != nil {
			errCol = fc.tcol
			return sel, true, err
		}
		sel, err := fc.decodeWhere(n, keep, sel)
		if err != nil {
			errCol = fc.tcol
			return sel, true, err
		}
		fc.gen = w.gen
		return sel, true, nil
	}

	if ranges == nil {
		ranges = []rowRange{{0, u.rows}}
	}
	var ob *outBatch
	var produced int64
	send := func() bool {
		if ob == nil || ob.b.Len == 0 {
			return true
		}
		w.finish(ob)
		if s.stats != nil {
			atomic.AddInt64(&s.stats.RowsRead, int64(ob.b.Len))
		}
		select {
		case out <- item{b: ob}:
			ob = nil
			return true
		case <-s.ctx.Done():
			return false
		}
	}
	for _, rg := range ranges {
		for start = rg.lo; start < rg.hi; {
			if s.ctx.Err() != nil {
				return -1, nil
			}
			n = int(min(batchRows, rg.hi-start))
			w.gen++
			for _, fc := range cols {
				if fc.filter || lm {
					continue
				}
				if err := fc.moveTo(start); err != nil {
					return fc.tcol, err
				}
				if err := fc.decode(n); err != nil {
					return fc.tcol, err
				}
			}
			sel, err := w.rf.apply(preds, vec, where, n)
			if err != nil {
				return errCol, err
			}
			// An output filter column none of whose steps ran (a key set
			// that stopped paying, index.KeySet.Active) is not decoded yet.
			for _, fc := range cols {
				if len(sel) > 0 && fc.filter && len(fc.outs) > 0 && fc.gen != w.gen {
					if _, err := vec(fc.tcol, sel); err != nil {
						return errCol, err
					}
				}
			}
			// Where most rows pass, page runs cost more than they save:
			// decode the other columns whole, as without late
			// materialization.
			whole := !lm || 2*len(sel) >= n
			if lm {
				s.noteBatch(tk.unit, cols, u.rows, len(sel), n)
			}
			if lm && !whole {
				if err := s.prefetchPages(pf, cols, start, n, sel); err != nil {
					return -1, err
				}
			}
			if lm && whole {
				if err := s.prefetchPages(pf, cols, start, n, nil); err != nil {
					return -1, err
				}
				for _, fc := range cols {
					if fc.filter || len(fc.outs) == 0 {
						continue
					}
					if err := fc.moveTo(start); err != nil {
						return fc.tcol, err
					}
					if err := fc.decode(n); err != nil {
						return fc.tcol, err
					}
				}
			}
			for len(sel) > 0 {
				if ob == nil {
					ob = w.startBatch()
				}
				k := min(len(sel), int(batchRows)-ob.b.Len, int(tk.maxRows-produced))
				part := sel[:k]
				// Every decoded row passes and the output batch is empty:
				// the decoded vectors become the output instead of being
				// copied (most batches of a filter that keeps nearly all).
				all := k == n && ob.b.Len == 0
				for _, fc := range cols {
					if len(fc.outs) == 0 {
						continue
					}
					var err error
					switch {
					case all && w.adopt(ob, fc):
					case fc.filter || whole:
						err = w.putRows(ob, fc, part, 0)
					default:
						err = w.readRows(ob, fc, start, part)
					}
					if err != nil {
						return fc.tcol, err
					}
				}
				ob.b.Len += k
				produced += int64(k)
				sel = sel[k:]
				if ob.b.Len == int(batchRows) || produced == tk.maxRows {
					if !send() {
						return -1, nil
					}
				}
				if produced == tk.maxRows {
					w.countPages(cols)
					return -1, nil
				}
			}
			start += int64(n)
		}
	}
	if !send() {
		return -1, nil
	}
	w.countPages(cols)
	return -1, nil
}

// adopt makes fc's decoded batch the output column of the empty batch ob,
// handing ob's vector and storage to fc in exchange, when fc has one
// output that takes the vector as decoded (codes only where accepted). It
// reports whether it did.
func (w *worker) adopt(ob *outBatch, fc *fcol) bool {
	if len(fc.outs) != 1 {
		return false
	}
	o := fc.outs[0]
	if fc.buf.Dict != nil && !w.s.spec.WantsCodes(o) {
		return false
	}
	ob.b.Cols[o], fc.buf = fc.buf, ob.b.Cols[o]
	ob.valid[o], fc.valid = fc.valid, ob.valid[o]
	ob.arenas[o], fc.arena = fc.arena, ob.arenas[o]
	return true
}

// readRows decodes the rows base+part[i] of a non-filter column and puts
// them at the batch's next slots: page by page, decoding from the first to
// the last selected row of each page.
func (w *worker) readRows(ob *outBatch, fc *fcol, base int64, part []int) error {
	for i := 0; i < len(part); {
		first := base + int64(part[i])
		j := len(part)
		if fc.pi.first != nil {
			end := fc.pi.pageEnd(fc.pi.pageOf(first), fc.rows)
			j = i + 1
			for j < len(part) && base+int64(part[j]) < end {
				j++
			}
		}
		last := base + int64(part[j-1])
		if err := fc.moveTo(first); err != nil {
			return err
		}
		// Rows of this run relative to first: only they are decoded where
		// the column can gather (decodeRows), and go to output slots Len+i ….
		shift := int(first - base)
		w.rel = w.rel[:0]
		for _, r := range part[i:j] {
			w.rel = append(w.rel, r-shift)
		}
		if err := fc.decodeRows(int(last-first+1), w.rel); err != nil {
			return err
		}
		if err := w.putRunRows(ob, fc, part[i:j], shift, i); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// putRows copies fc.buf's rows part (shifted down by shift) to the
// batch's next slots.
func (w *worker) putRows(ob *outBatch, fc *fcol, part []int, shift int) error {
	return w.putRunRows(ob, fc, part, shift, 0)
}

// putRunRows copies fc.buf rows part[k]-shift to output slots
// ob.b.Len+at+k of every output position of fc.
func (w *worker) putRunRows(ob *outBatch, fc *fcol, part []int, shift, at int) error {
	src := fc.buf
	for _, o := range fc.outs {
		dst := ob.b.Cols[o]
		off := ob.b.Len + at
		switch dst.Type.Phys() {
		case columnar.PhysBool:
			copyRows(dst.Bools[off:], src.Bools, part, shift)
		case columnar.PhysInt:
			copyRows(dst.Ints[off:], src.Ints, part, shift)
		case columnar.PhysUint:
			copyRows(dst.Uints[off:], src.Uints, part, shift)
		case columnar.PhysFloat:
			copyRows(dst.Floats[off:], src.Floats, part, shift)
		case columnar.PhysBytes:
			if src.Dict != nil || dst.Dict != nil {
				putCodedRows(dst, src, part, shift, off, w.s.spec.WantsCodes(o))
				break
			}
			arena := ob.arenas[o]
			size := 0
			for _, r := range part {
				size += len(src.Bytes[r-shift])
			}
			if cap(arena)-len(arena) < size {
				// Earlier rows keep the old buffer alive through their slices.
				arena = make([]byte, 0, max(2*cap(arena), size, 4096))
			}
			d := dst.Bytes[off:]
			for k, r := range part {
				b := src.Bytes[r-shift]
				st := len(arena)
				arena = append(arena, b...)
				d[k] = arena[st:len(arena):len(arena)]
			}
			ob.arenas[o] = arena
		case columnar.PhysNested:
			for k, r := range part {
				dst.CopyRow(off+k, src, r-shift, int(batchRows))
			}
			continue // CopyRow carried the NULLs
		default:
			return fmt.Errorf("internal: cannot copy %s rows", dst.Type)
		}
		if src.Valid == nil {
			continue
		}
		for k, r := range part {
			if src.Valid.Get(r - shift) {
				continue
			}
			if dst.Valid == nil {
				ob.valid[o] = ob.valid[o].Resize(int(batchRows))
				dst.Valid = ob.valid[o]
			}
			dst.Valid.Clear(off + k)
		}
	}
	return nil
}

// startBatch returns an empty output batch with room for batchRows rows.
func (w *worker) startBatch() *outBatch {
	ob := w.s.batch()
	ob.b.Len = 0
	for i, v := range ob.b.Cols {
		v.Reset(int(batchRows))
		ob.arenas[i] = ob.arenas[i][:0]
	}
	return ob
}

// finish zeroes the NULL slots of a filled batch's byte columns so that no
// stale slice outlives its batch through a NULL row (as scatter does).
func (w *worker) finish(ob *outBatch) {
	for _, v := range ob.b.Cols {
		if v.Valid == nil || v.Type.Phys() != columnar.PhysBytes {
			continue
		}
		for i := 0; i < ob.b.Len; i++ {
			if !v.Valid.Get(i) {
				v.Bytes[i] = nil
			}
		}
	}
}

// filterCols returns the columns a filtered unit scan reads: spec.Cols and
// the columns of preds, each once, filter columns first.
func (w *worker) filterCols(preds []index.Pred) []*fcol {
	s := w.s
	var cols []*fcol
	get := func(tc int) *fcol {
		for _, fc := range cols {
			if fc.tcol == tc {
				return fc
			}
		}
		fc := w.fcols[tc]
		if fc == nil {
			c := &s.t.cols[tc]
			fc = &fcol{tcol: tc, buf: columnar.NewVector(c.field.Type, int(batchRows))}
			fc.dec.c = c
			if w.fcols == nil {
				w.fcols = map[int]*fcol{}
			}
			w.fcols[tc] = fc
		}
		fc.outs, fc.filter = fc.outs[:0], false
		cols = append(cols, fc)
		return fc
	}
	var pcols []int
	for _, p := range preds {
		pcols = p.Cols(pcols[:0])
		for _, c := range pcols {
			get(c).filter = true
		}
	}
	for o, tc := range s.spec.Cols {
		fc := get(tc)
		fc.outs = append(fc.outs, o)
	}
	// Dictionary-encoded strings are read as codes: filters compare them on
	// the dictionary (codefilter.go), and the rows kept go out as codes to
	// the outputs that accept them, as slices of the dictionary to the
	// others (codeput.go), which costs no more than decoding strings.
	dictOK := s.spec.On(index.DictCodes)
	for _, fc := range cols {
		fc.dec.dictOK, fc.dec.codes = dictOK, dictOK
		fc.wantCodes = false
		for _, o := range fc.outs {
			fc.wantCodes = fc.wantCodes || s.spec.WantsCodes(o)
		}
	}
	return cols
}

// countPages adds what the unit's column readers decompressed and skipped
// to the scan's counters. Bytes read are the chunk's compressed size scaled
// by the fraction of its pages read (pages are located, not measured).
func (w *worker) countPages(cols []*fcol) {
	st := w.s.stats
	if st == nil {
		return
	}
	for _, fc := range cols {
		if fc.pager == nil {
			continue
		}
		total := int64(fc.pi.pages())
		if total == 0 {
			total = fc.pager.pages
		}
		atomic.AddInt64(&st.PagesTotal, total)
		atomic.AddInt64(&st.PagesSkipped, max(0, total-fc.pager.pages))
		atomic.AddInt64(&st.BytesDecompressed, fc.pager.bytes)
		if total > 0 {
			atomic.AddInt64(&st.BytesRead, fc.size*min(fc.pager.pages, total)/total)
		}
	}
}

// Every typed column chunk reader can skip.
var _ = []skipper{
	(*file.BooleanColumnChunkReader)(nil), (*file.Int32ColumnChunkReader)(nil),
	(*file.Int64ColumnChunkReader)(nil), (*file.Int96ColumnChunkReader)(nil),
	(*file.Float32ColumnChunkReader)(nil), (*file.Float64ColumnChunkReader)(nil),
	(*file.ByteArrayColumnChunkReader)(nil), (*file.FixedLenByteArrayColumnChunkReader)(nil),
}
