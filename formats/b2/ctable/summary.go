package ctable

import (
	"fmt"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// Summary flags (spec §7.2).
const (
	flagAllNaN  = 1 << 0
	flagHasNaN  = 1 << 1
	flagAllNull = 1 << 2
)

// maxSegments bounds the segments of a sidecar loaded for pruning (and so
// the memory a hostile segment_len can make us allocate).
const maxSegments = 1 << 22

// summaryIndex is the block-level summary of one column's index (a SUMMARY
// index, or the block summary every FULL/PARTIAL/BUCKET/OPSI index also
// carries): min, max and flags per segment of segLen physical rows.
type summaryIndex struct {
	col    string
	kind   string // "summary", "full", …
	path   string // block-level sidecar member
	segLen int64
	built  int64 // physical rows the index was built over (-1: unknown)
	// nullAware: the extrema cover only non-NULL rows (descriptor
	// null_aware), so NULL sentinels do not distort them.
	nullAware bool
	// why is empty for a usable index, else why it is not used ("stale").
	why string
	// ranked: the extrema are alphabetical ranks of a utf8 column's FULL
	// index, not values (rankprune.go decides with them).
	ranked bool
	// partial: some segments hold values but no bounds (a string
	// summary's, strsummary.go), so the extrema are not the column's.
	partial bool

	once sync.Once
	err  error
	segs []index.Stats
}

// knownIndexKinds are the index kinds of python-blosc2's catalog whose
// block level (levels.block) is a [(min, max, flags)] summary of the
// column's values (indexing.py SEGMENT_LEVELS_BY_KIND, 4.11–4.14).
var knownIndexKinds = map[string]bool{"summary": true, "bucket": true, "partial": true, "full": true, "opsi": true}

// catalogIndexes reads the index catalog of the manifest. Only metadata is
// read; sidecars are loaded when a scan first needs them. nphys is the
// table's physical row count, used to detect indexes built over fewer rows.
func catalogIndexes(m *manifest, nphys int64) map[string]*summaryIndex {
	out := map[string]*summaryIndex{}
	for _, e := range m.Catalog {
		desc, ok := e.Val.(mpMap)
		if !ok {
			continue
		}
		col, _ := e.Key.(string)
		if tok, ok := desc.get("token"); ok {
			if s, ok := tok.(string); ok {
				col = s
			}
		}
		if tgt, ok := desc.get("target"); ok {
			if tm, ok := tgt.(mpMap); ok {
				if src, _ := tm.get("source"); src != nil && src != "field" {
					continue // an expression index: not a column's values
				}
			}
		}
		si := &summaryIndex{col: col}
		if k, ok := desc.get("kind"); ok {
			si.kind, _ = k.(string)
		}
		levels, _ := desc.get("levels")
		lm, _ := levels.(mpMap)
		block, _ := lm.get("block")
		bm, _ := block.(mpMap)
		p, _ := bm.get("path")
		si.path, _ = p.(string)
		sl, _ := bm.get("segment_len")
		si.segLen, _ = asInt(sl)
		shape, _ := desc.get("shape")
		dims, _ := untuple(shape)
		var built int64 = -1
		if len(dims) == 1 {
			built, _ = asInt(dims[0])
		}
		si.built = built
		full, _ := desc.get("full")
		fm, _ := full.(mpMap)
		_, utf8Rank := fm.get("utf8_rank")
		_, dictRank := fm.get("dict_rank")
		na, _ := desc.get("null_aware")
		si.nullAware = na == true
		epoch, hasEpoch := desc.get("built_value_epoch")
		ep, _ := asInt(epoch)
		stale, _ := desc.get("stale")
		switch {
		case !knownIndexKinds[si.kind]:
			// Its sidecars may look like a block summary and mean something
			// else: an index kind this reader does not know never prunes.
			si.why = fmt.Sprintf("of kind %q, which b2sql does not know (not used)", si.kind)
		case dictRank:
			// The extrema are ranks in an order this reader does not check
			// against the build (fullindex.go).
			si.why = "block summary of string ranks (not used for pruning)"
		case utf8Rank && !rankNullAware(fm):
			si.why = "block summary of string ranks (not used: built without null ranks)"
		case stale == true:
			si.why = "stale"
		case si.path == "" || si.segLen <= 0:
			si.why = "no block summary"
		case nphys/si.segLen > maxSegments:
			// A sidecar this fine-grained costs more to load than it saves.
			si.why = fmt.Sprintf("%d-row segments: too many for %d rows", si.segLen, nphys)
		case built < nphys && !utf8Rank:
			// Rows appended after the build are not covered: python-blosc2
			// marks such indexes stale, but never trust a flag alone. (Ranks
			// cover the live rows only; their FULL index checks them.)
			si.why = fmt.Sprintf("stale: built over %d rows, table has %d", built, nphys)
		case hasEpoch && m.ValueEpoch >= 0 && ep != m.ValueEpoch:
			si.why = fmt.Sprintf("stale: built at value_epoch %d, table is at %d", ep, m.ValueEpoch)
		}
		si.ranked = utf8Rank
		if col != "" {
			out[col] = si
		}
	}
	return out
}

// rankNullAware reports whether a FULL index's utf8_rank gives NULLs a
// rank of their own (rankindex.go): without it a NULL shares its fill's.
func rankNullAware(full mpMap) bool {
	r, _ := full.get("utf8_rank")
	rm, _ := r.(mpMap)
	na, _ := rm.get("null_aware")
	return na == true
}

// load reads the sidecar once and converts every segment to index.Stats of
// the column's SQL type (conv converts a min/max field like column data).
func (si *summaryIndex) load(st store, nphys int64, src *colSource, t columnar.Type) error {
	si.once.Do(func() { si.err = si.doLoad(st, nphys, src, t) })
	return si.err
}

func (si *summaryIndex) doLoad(st store, nphys int64, src *colSource, t columnar.Type) error {
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
	if a.NDim() != 1 || fmin == nil || fmax == nil || fflags == nil || fflags.Type.ItemSize != 1 ||
		fmin.Type.Kind != fmax.Type.Kind || fmin.Type.ItemSize != fmax.Type.ItemSize {
		return fmt.Errorf("%s: %w", si.path, corruptf("summary dtype %s", a.DType.Str))
	}
	if err := sameElement(fmin.Type, src.data.DType); err != nil {
		return fmt.Errorf("%s: %w", si.path, err)
	}
	nseg := (nphys + si.segLen - 1) / si.segLen
	if a.Len() < nseg {
		return fmt.Errorf("%s: %w", si.path, corruptf("%d segments of %d rows cannot cover %d rows", a.Len(), si.segLen, nphys))
	}
	raw := make([]byte, int(nseg)*a.ItemSize())
	if err := a.ReadItems1D(nil, raw, 0, int(nseg)); err != nil {
		return fmt.Errorf("%s: %w", si.path, err)
	}
	n := int(nseg)
	conv := src.conv
	conv.stride = a.ItemSize()
	lo, hi := columnar.NewVector(t, n), columnar.NewVector(t, n)
	var arena1, arena2 []byte
	conv.dt, conv.off = fmin.Type, fmin.Offset
	conv.decode(raw, n, lo, &arena1)
	conv.dt, conv.off = fmax.Type, fmax.Offset
	conv.decode(raw, n, hi, &arena2)
	noNulls := src.noNulls()
	si.segs = make([]index.Stats, n)
	for k := 0; k < n; k++ {
		flags := raw[k*a.ItemSize()+fflags.Offset]
		rows := min(si.segLen, nphys-int64(k)*si.segLen)
		s := index.Stats{NullCount: -1, Rows: rows, HasNaN: flags&flagHasNaN != 0}
		if noNulls {
			s.NullCount = 0
		}
		if flags&flagAllNull != 0 {
			s.NullCount = rows
		}
		if flags&flagAllNaN == 0 {
			s.HasMinMax, s.Min, s.Max = true, lo.Value(k), hi.Value(k)
		} else {
			s.HasNaN = true
		}
		si.segs[k] = s
	}
	return nil
}

// sameElement checks that summary extrema have the column's element type
// (NumPy spells 1-byte types without the order character: 'i1', '?').
func sameElement(a, b b2.DType) error {
	ka, kb := a.Kind, b.Kind
	if ka == 'b' && kb == 'u' && b.ItemSize == 1 {
		ka = 'u' // sentinel-null bools are stored as uint8
	}
	if ka != kb || a.ItemSize != b.ItemSize {
		return corruptf("summary of %s values for a %s column", a.Str, b.Str)
	}
	return nil
}

// verdict is the verdict of p on physical rows [lo, hi): None only if every
// overlapping segment is None, All only if every one is All.
func (si *summaryIndex) verdict(p index.Pred, col int, lo, hi int64) index.Verdict {
	first, last := lo/si.segLen, (hi-1)/si.segLen
	out := index.Verdict(255)
	for k := first; k <= last && k < int64(len(si.segs)); k++ {
		s := si.segs[k]
		v := index.VerdictOf(p, func(c int) (index.Stats, bool) { return s, c == col })
		switch {
		case out == 255:
			out = v
		case out != v:
			return index.Maybe
		}
	}
	if out == 255 {
		return index.Maybe
	}
	return out
}

// noNulls reports whether the column holds no NULL: it cannot hold them,
// or it is mask-nullable and its mask does not exist (writers create it on
// the first NULL). There a block's min/max can prove a predicate on every
// row.
func (s *colSource) noNulls() bool {
	return !s.spec.Nullable || !s.spec.HasSent && s.mask == nil
}
