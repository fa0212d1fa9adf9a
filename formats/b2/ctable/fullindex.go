package ctable

import (
	"fmt"
	"sort"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// fullIndex is a python-blosc2 FULL index of one column (spec §7.2):
// `values` holds every physical value of the column sorted ascending
// (numpy order: NaN last, stable by position), `positions` the physical row
// of each, and the l2 navigation array the first and last value of each
// sidecar block. Entries cover the column as it was at build time,
// capacity padding and deleted rows included: readers drop positions
// ≥ nphys and rows whose _valid_rows bit is clear.
//
// utf8 and dictionary columns are FULL-indexed by alphabetical rank
// (full.utf8_rank / full.dict_rank). A utf8 one with its vocabulary answers
// lookups through ranks (rankindex.go); a dictionary one is not used (why
// says so): its ranks follow the dictionary, which this reader does not
// check against the build.
type fullIndex struct {
	col        string
	valuesPath string
	posPath    string
	navPath    string     // l2: one [start, end] record per values block
	n          int64      // entries: the column's length at build time
	why        string     // "" for a usable index, else why it is not used
	rank       *rankIndex // a utf8 column's index of ranks, nil otherwise

	once     sync.Once
	err      error
	values   *b2.Array
	pos      *b2.Array
	blockLen int64 // entries per values block, the l2 segment
	conv     fixedConv
	typ      columnar.Type
	starts   []columnar.Value // first value of each values block, SQL domain
}

// catalogFull reads the FULL indexes of the manifest's catalog (metadata
// only). Indexes that must not be used keep a reason in why.
func catalogFull(m *manifest, nphys, liveEnd int64) map[string]*fullIndex {
	out := map[string]*fullIndex{}
	for _, e := range m.Catalog {
		desc, ok := e.Val.(mpMap)
		if !ok {
			continue
		}
		if k, _ := desc.get("kind"); k != "full" {
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
					continue // an expression index
				}
			}
		}
		if col == "" {
			continue
		}
		fi := &fullIndex{col: col, n: -1}
		full, _ := desc.get("full")
		fm, _ := full.(mpMap)
		str := func(k string) string {
			v, _ := fm.get(k)
			s, _ := v.(string)
			return s
		}
		fi.valuesPath, fi.posPath, fi.navPath = str("values_path"), str("positions_path"), str("l2_path")
		shape, _ := desc.get("shape")
		if dims, _ := untuple(shape); len(dims) == 1 {
			fi.n, _ = asInt(dims[0])
		}
		_, utf8Rank := fm.get("utf8_rank")
		_, dictRank := fm.get("dict_rank")
		runs, _ := fm.get("runs")
		pending, _ := runs.([]any)
		switch {
		case fm == nil || fi.valuesPath == "" || fi.posPath == "" || fi.navPath == "":
			fi.why = "has no sorted values"
		case dictRank:
			fi.why = "orders ranks of strings (not used)"
		case len(pending) > 0:
			// Appended runs are not merged into values/positions yet.
			fi.why = "has unmerged runs"
		case utf8Rank:
			meta, _ := fm.get("utf8_rank")
			if fi.rank, fi.why = parseRankMeta(meta); fi.why == "" {
				// A utf8 column has rows up to the last live one only.
				fi.why = staleness(desc, m, fi.n, min(nphys, liveEnd))
			}
		default:
			fi.why = staleness(desc, m, fi.n, nphys)
		}
		out[col] = fi
	}
	return out
}

// staleness says why an index descriptor built over built rows must not be
// used on a table of nphys rows, or "" when it may.
func staleness(desc mpMap, m *manifest, built, nphys int64) string {
	epoch, hasEpoch := desc.get("built_value_epoch")
	ep, _ := asInt(epoch)
	stale, _ := desc.get("stale")
	switch {
	case stale == true:
		return "stale"
	case built < nphys:
		// Rows appended after the build are not covered: python-blosc2
		// marks such indexes stale, but never trust a flag alone.
		return fmt.Sprintf("stale: built over %d rows, table has %d", built, nphys)
	case hasEpoch && m.ValueEpoch >= 0 && ep != m.ValueEpoch:
		return fmt.Sprintf("stale: built at value_epoch %d, table is at %d", ep, m.ValueEpoch)
	}
	return ""
}

// load opens the sidecars and reads the navigation array once. src is the
// indexed column (already open), t its SQL type.
func (fi *fullIndex) load(st store, src *colSource, t columnar.Type) error {
	fi.once.Do(func() { fi.err = fi.doLoad(st, src, t) })
	return fi.err
}

func (fi *fullIndex) doLoad(st store, src *colSource, t columnar.Type) error {
	open := func(member string) (*b2.Array, error) {
		f, err := st.frame(member)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", member, memberErr(err))
		}
		a, err := b2.NewArray(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", member, err)
		}
		if a.NDim() != 1 {
			return nil, fmt.Errorf("%s: %w", member, corruptf("%d-d sidecar, want 1-d", a.NDim()))
		}
		return a, nil
	}
	var err error
	if fi.values, err = open(fi.valuesPath); err != nil {
		return err
	}
	if fi.pos, err = open(fi.posPath); err != nil {
		return err
	}
	nav, err := open(fi.navPath)
	if err != nil {
		return err
	}
	conv := src.conv
	if fi.rank != nil {
		// Ranks, not strings: int32 values, read as INTEGER.
		if dt := fi.values.DType; dt.Kind != 'i' || dt.ItemSize != 4 {
			return fmt.Errorf("%s: %w", fi.valuesPath, corruptf("utf8 ranks stored as %s, want <i4", dt.Str))
		}
		if err := fi.rank.load(st, src, fi.n); err != nil {
			return err
		}
		t = columnar.TInt32
		conv = fixedConv{out: t, mul: 1, div: 1}
	} else if err := sameElement(fi.values.DType, src.data.DType); err != nil {
		return fmt.Errorf("%s: %w", fi.valuesPath, err)
	}
	if dt := fi.pos.DType; dt.Kind != 'i' || dt.ItemSize != 8 {
		return fmt.Errorf("%s: %w", fi.posPath, corruptf("positions stored as %s, want <i8", dt.Str))
	}
	if fi.values.Len() != fi.n || fi.pos.Len() != fi.n {
		return fmt.Errorf("%s: %w", fi.valuesPath, corruptf("%d values and %d positions, catalog says %d", fi.values.Len(), fi.pos.Len(), fi.n))
	}
	// The l2 segment is the values sidecar's block (python-blosc2 reads
	// the geometry back from the values file the same way).
	fi.blockLen = int64(fi.values.Meta.BlockShape[0])
	if fi.blockLen <= 0 {
		return fmt.Errorf("%s: %w", fi.valuesPath, corruptf("block of %d items", fi.blockLen))
	}
	nblocks := (fi.n + fi.blockLen - 1) / fi.blockLen
	var start *b2.Field
	for i := range nav.DType.Fields {
		if nav.DType.Fields[i].Name == "start" {
			start = &nav.DType.Fields[i]
		}
	}
	if start == nil || start.Type.Kind != fi.values.DType.Kind || start.Type.ItemSize != fi.values.DType.ItemSize {
		return fmt.Errorf("%s: %w", fi.navPath, corruptf("navigation dtype %s for %s values", nav.DType.Str, fi.values.DType.Str))
	}
	if nav.Len() != nblocks || nblocks > maxSegments {
		return fmt.Errorf("%s: %w", fi.navPath, corruptf("%d records for %d blocks of %d values", nav.Len(), nblocks, fi.blockLen))
	}
	raw := make([]byte, int(nblocks)*nav.ItemSize())
	if err := nav.ReadItems1D(nil, raw, 0, int(nblocks)); err != nil {
		return fmt.Errorf("%s: %w", fi.navPath, err)
	}
	fi.typ = t
	fi.conv = conv
	fi.conv.part = 0
	fi.conv.dt = fi.values.DType
	fi.conv.off = 0
	fi.conv.stride = fi.values.ItemSize()
	nc := fi.conv
	nc.dt, nc.off, nc.stride = start.Type, start.Offset, nav.ItemSize()
	v := columnar.NewVector(t, int(nblocks))
	var arena []byte
	nc.decode(raw, int(nblocks), v, &arena)
	fi.starts = make([]columnar.Value, nblocks)
	for b := range fi.starts {
		fi.starts[b] = v.Value(b)
	}
	return nil
}

// fullCursor reads one FULL index for one goroutine, keeping the last
// decoded block of values (binary searches and ordered walks revisit it).
type fullCursor struct {
	fi    *fullIndex
	dec   *b2.Decoder
	blk   int64 // block held in vals, -1 for none
	raw   []byte
	vals  *columnar.Vector
	arena []byte
	pos   []byte
}

func newFullCursor(fi *fullIndex, dec *b2.Decoder) *fullCursor {
	// A block never holds more than the n entries (the sidecar's block
	// shape may claim more: allocate what the data justifies).
	return &fullCursor{fi: fi, dec: dec, blk: -1, vals: columnar.NewVector(fi.typ, int(min(fi.blockLen, fi.n)))}
}

// block decodes values block b (entries [b*blockLen, …)) into c.vals and
// returns its length.
func (c *fullCursor) block(b int64) (int, error) {
	fi := c.fi
	lo := b * fi.blockLen
	n := int(min(fi.blockLen, fi.n-lo))
	if c.blk == b {
		return n, nil
	}
	c.blk = -1
	isz := fi.values.ItemSize()
	c.raw = grow(c.raw, n*isz)
	if err := fi.values.ReadItems1D(c.dec, c.raw, lo, n); err != nil {
		return 0, fmt.Errorf("%s: %w", fi.valuesPath, err)
	}
	c.vals.Reset(n)
	fi.conv.decode(c.raw, n, c.vals, &c.arena)
	c.blk = b
	return n, nil
}

// value returns entry i's value; the block holding it must be current.
func (c *fullCursor) value(i int64) columnar.Value {
	return c.vals.Value(int(i - c.blk*c.fi.blockLen))
}

// bound returns the first entry whose value is ≥ x (upper: > x), in the
// total order of columnar.Compare (NaN greatest, as numpy sorts). The
// navigation array picks the one block to decode: block starts are the
// first entry of each block.
func (c *fullCursor) bound(x columnar.Value, upper bool) (int64, error) {
	fi := c.fi
	past := func(v columnar.Value) bool {
		r := columnar.Compare(v, x)
		return r > 0 || (!upper && r == 0)
	}
	b := int64(sort.Search(len(fi.starts), func(k int) bool { return past(fi.starts[k]) }))
	if b == 0 {
		return 0, nil
	}
	b-- // the answer lies in block b or at the start of block b+1
	n, err := c.block(b)
	if err != nil {
		return 0, err
	}
	i := sort.Search(n, func(i int) bool { return past(c.vals.Value(i)) })
	return b*fi.blockLen + int64(i), nil
}

// positions reads the physical rows of entries [lo, hi) into dst.
func (c *fullCursor) positions(dst []int64, lo, hi int64) ([]int64, error) {
	fi := c.fi
	for lo < hi {
		n := int(min(hi-lo, 1<<16))
		c.pos = grow(c.pos, 8*n)
		if err := fi.pos.ReadItems1D(c.dec, c.pos, lo, n); err != nil {
			return dst, fmt.Errorf("%s: %w", fi.posPath, err)
		}
		for k := 0; k < n; k++ {
			dst = append(dst, int64(le64(c.pos[8*k:])))
		}
		lo += int64(n)
	}
	return dst, nil
}

// interval is a range of values: [lo, hi] with open ends where set, and no
// bound where has* is false.
type interval struct {
	lo, hi         columnar.Value
	hasLo, hasHi   bool
	loOpen, hiOpen bool
}

// predIntervals returns the value ranges a predicate matches, or false when
// it is not a comparison a sorted index answers (<>, IS NULL, OR) or its
// constants are not of the column's physical type.
func predIntervals(p index.Pred, t columnar.Type) ([]interval, bool) {
	for _, v := range p.Vals {
		if v.Null || v.Type.Phys() != t.Phys() {
			return nil, false
		}
	}
	one := func(iv interval) ([]interval, bool) { return []interval{iv}, true }
	switch p.Op {
	case index.Eq:
		return one(interval{lo: p.Vals[0], hi: p.Vals[0], hasLo: true, hasHi: true})
	case index.Lt, index.Le:
		return one(interval{hi: p.Vals[0], hasHi: true, hiOpen: p.Op == index.Lt})
	case index.Gt, index.Ge:
		return one(interval{lo: p.Vals[0], hasLo: true, loOpen: p.Op == index.Gt})
	case index.Between:
		return one(interval{lo: p.Vals[0], hi: p.Vals[1], hasLo: true, hasHi: true})
	case index.In:
		vals := append([]columnar.Value(nil), p.Vals...)
		sort.Slice(vals, func(i, j int) bool { return columnar.Compare(vals[i], vals[j]) < 0 })
		var out []interval
		for i, v := range vals {
			if i > 0 && columnar.Compare(v, vals[i-1]) == 0 {
				continue
			}
			out = append(out, interval{lo: v, hi: v, hasLo: true, hasHi: true})
		}
		return out, true
	}
	return nil, false
}

// entries returns the entry range [lo, hi) of the values in iv.
func (c *fullCursor) entries(iv interval) (lo, hi int64, err error) {
	lo, hi = 0, c.fi.n
	if iv.hasLo {
		if lo, err = c.bound(iv.lo, iv.loOpen); err != nil {
			return 0, 0, err
		}
	}
	if iv.hasHi {
		if hi, err = c.bound(iv.hi, !iv.hiOpen); err != nil {
			return 0, 0, err
		}
	}
	return lo, max(lo, hi), nil
}
