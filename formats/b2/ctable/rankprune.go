package ctable

import (
	"encoding/binary"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// Block pruning with the ranks of a utf8 FULL index.
//
// A utf8 column's FULL index sorts alphabetical ranks (rankindex.go), and
// its block summary holds, per segment of rows, the least and greatest rank
// (int32) instead of strings. With the vocabulary, a comparison of the
// column with strings becomes ranges of ranks; a segment none of whose
// [min, max] meets those ranges holds no matching row and is skipped. This
// serves the predicates the lookup (lookup.go) leaves to the scan because
// they match too many rows. It only ever skips: a segment is never declared
// all-matching (a NULL has the greatest rank and may sit inside [min,
// max]), so the filter above the scan still decides every row it reads.

// rankPruner returns the pruner that decides p on utf8 column c from the
// block summary of ranks, or false when there is none to use. Reasons an
// index present is not used go to pl's notes.
func (t *Table) rankPruner(p index.Pred, c int, fi int, pl *scanPlan) (pruner, bool) {
	full := t.usableRank(c)
	if full == nil || p.Op == index.Or {
		return pruner{}, false
	}
	name := t.srcs[t.cols[c].src].spec.Name
	si := t.indexes[name]
	if si == nil || !si.ranked || si.why != "" {
		return pruner{}, false
	}
	ivs, ok := predIntervals(p, t.schema[c].Type)
	if !ok {
		return pruner{}, false
	}
	if err := t.loadFull(c, full); err != nil {
		pl.notes = appendNote(pl.notes, fmt.Sprintf("full index %s %v", name, rankLoadNote(err)))
		return pruner{}, false
	}
	if err := si.loadRanks(t.st, full.n, full.rank.nullRank); err != nil {
		pl.notes = appendNote(pl.notes, fmt.Sprintf("index %s unreadable: %v", name, err))
		return pruner{}, false
	}
	ranges := [][2]int64{}
	for _, iv := range full.rank.intervals(ivs) {
		if iv.lo.I < iv.hi.I {
			ranges = append(ranges, [2]int64{iv.lo.I, iv.hi.I})
		}
	}
	return pruner{p: p, col: c, si: si, fi: fi, ranks: ranges}, true
}

// rankLoadNote words a failure to load a rank index for EXPLAIN.
func rankLoadNote(err error) string {
	if _, ok := err.(errRankStale); ok {
		return err.Error()
	}
	return "unreadable: " + err.Error()
}

// loadRanks reads the block summary of ranks over the nrows rows the index
// was built on. Ranks lie in [0, nullRank]; a summary outside that range is
// not this index's.
func (si *summaryIndex) loadRanks(st store, nrows, nullRank int64) error {
	si.once.Do(func() { si.err = si.doLoadRanks(st, nrows, nullRank) })
	return si.err
}

func (si *summaryIndex) doLoadRanks(st store, nrows, nullRank int64) error {
	f, err := st.frame(si.path)
	if err != nil {
		return fmt.Errorf("%s: %w", si.path, err)
	}
	a, err := b2.NewArray(f)
	if err != nil {
		return fmt.Errorf("%s: %w", si.path, err)
	}
	var fmin, fmax, fflags *b2.Field
	for i := range a.DType.Fields {
		switch fl := &a.DType.Fields[i]; fl.Name {
		case "min":
			fmin = fl
		case "max":
			fmax = fl
		case "flags":
			fflags = fl
		}
	}
	isInt32 := func(fl *b2.Field) bool { return fl != nil && fl.Type.Kind == 'i' && fl.Type.ItemSize == 4 }
	if a.NDim() != 1 || !isInt32(fmin) || !isInt32(fmax) || fflags == nil || fflags.Type.ItemSize != 1 {
		return fmt.Errorf("%s: %w", si.path, corruptf("summary dtype %s for ranks", a.DType.Str))
	}
	nseg := (nrows + si.segLen - 1) / si.segLen
	if a.Len() < nseg {
		return fmt.Errorf("%s: %w", si.path, corruptf("%d segments of %d rows cannot cover %d rows", a.Len(), si.segLen, nrows))
	}
	size := a.ItemSize()
	raw := make([]byte, int(nseg)*size)
	if err := a.ReadItems1D(nil, raw, 0, int(nseg)); err != nil {
		return fmt.Errorf("%s: %w", si.path, err)
	}
	le := func(rec []byte, fl *b2.Field) int64 {
		v := binary.LittleEndian.Uint32(rec[fl.Offset:])
		if fl.Type.Order == '>' {
			v = binary.BigEndian.Uint32(rec[fl.Offset:])
		}
		return int64(int32(v))
	}
	si.segs = make([]index.Stats, nseg)
	for k := range si.segs {
		rec := raw[k*size : (k+1)*size]
		rows := min(si.segLen, nrows-int64(k)*si.segLen)
		s := index.Stats{NullCount: -1, Rows: rows}
		lo, hi := le(rec, fmin), le(rec, fmax)
		switch flags := rec[fflags.Offset]; {
		case flags&flagAllNull != 0:
			s.NullCount = rows
		case lo < 0 || hi > nullRank || lo > hi:
			return fmt.Errorf("%s: %w", si.path, corruptf("segment %d ranks [%d, %d] outside [0, %d]", k, lo, hi, nullRank))
		default:
			s.HasMinMax = true
			s.Min, s.Max = columnar.IntValue(columnar.TInt32, lo), columnar.IntValue(columnar.TInt32, hi)
		}
		si.segs[k] = s
	}
	return nil
}

// rankVerdict is None when no segment overlapping physical rows [lo, hi)
// can hold a rank in ranges (half-open), else Maybe. NULLs have the
// greatest rank and count in a segment's max, so a segment with a NULL is
// pruned by its min only.
func (si *summaryIndex) rankVerdict(ranges [][2]int64, lo, hi int64) index.Verdict {
	first, last := lo/si.segLen, (hi-1)/si.segLen
	for k := first; k <= last; k++ {
		if k >= int64(len(si.segs)) {
			// Past the rows the ranks were built over: the FULL index is
			// used only when those were all the live rows (fullindex.go),
			// so these are capacity padding or deleted.
			continue
		}
		s := si.segs[k]
		if s.NullCount == s.Rows {
			continue // only NULLs: no comparison is true
		}
		if !s.HasMinMax {
			return index.Maybe
		}
		for _, r := range ranges {
			if r[0] <= s.Max.I && s.Min.I < r[1] {
				return index.Maybe
			}
		}
	}
	return index.None
}
