package parquet

import (
	"math"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// bloomRules reports whether unit ui's bloom filters prove the conjunction
// filter false: some `col = v` or `col IN (…)` whose column chunk has a
// bloom filter that holds none of the values. A bloom filter answers
// "absent" or "maybe", so it can only skip.
func (t *Table) bloomRules(ui int, filter []index.Pred) bool {
	for _, p := range filter {
		if t.bloomMayPrune(&t.units[ui], p) && t.bloomAbsent(ui, p) {
			return true
		}
	}
	return false
}

// bloomMayPrune reports whether reading the bloom filter of p's column in
// unit u could skip u: p is an = or IN on a column whose literals hash as
// stored, and the row group's statistics do not say that every value of
// its integer range is almost surely there (for a string column: that its
// dictionary is small, smallDictionary). A row group of 120,000 rows
// whose SMALLINT region spans 0..9 holds each of those values; its bloom
// filter always answers "maybe", and fetching it cost a remote scan a
// round trip and a request per row group (the events table's
// region IN (1, 5, 7) over S3: 82 requests of 32 KiB before any data).
// Leaving it unread only gives up a skip that would almost never happen.
func (t *Table) bloomMayPrune(u *unit, p index.Pred) bool {
	if p.Op != index.Eq && p.Op != index.In || p.Col < 0 || p.Col >= len(t.cols) || !bloomable(&t.cols[p.Col]) {
		return false
	}
	if c := &t.cols[p.Col]; c.kind == kBytes || c.kind == kFixed {
		return !t.smallDictionary(u, p.Col)
	}
	if p.Col >= len(u.stats) || !u.stats[p.Col].ok {
		return true
	}
	s := u.stats[p.Col].s
	if !s.HasMinMax || s.NullCount < 0 || !s.Min.Type.IsInteger() || s.Max.I < s.Min.I {
		return true
	}
	domain := uint64(s.Max.I) - uint64(s.Min.I) + 1 // the distinct values the range allows
	values := uint64(s.Rows - s.NullCount)
	return domain == 0 || values/bloomDenseRows < domain
}

// smallDictionary reports whether column col's chunk in unit u is dictionary
// encoded with a dictionary page of at most 1/bloomDenseRows byte per
// value: a string column of few values, each repeated many times in the
// row group (TPC-H's l_shipmode, 7 values in a 74-byte dictionary page for
// 122,880 rows). Such a column's row groups tend to hold every value of
// its domain, so its bloom filter answers "maybe", and fetching it cost a
// remote scan a round trip before any data (TPC-H q19's l_shipmode and
// l_shipinstruct: 48 filters of 32 KiB). The page's size comes from the
// footer (the data pages start where it ends), so deciding reads nothing.
// Nothing is skipped on this guess: a row group missing the value is
// read, and its rows fail the predicate (the filter column's few
// dictionary values are compared once each, codefilter.go); only the skip
// of its other columns is given up. A writer that fell back from the dictionary to
// plain pages made a large dictionary first, which fails the bound.
func (t *Table) smallDictionary(u *unit, col int) bool {
	cc, err := t.files[u.file].meta.RowGroup(u.rg).ColumnChunk(t.cols[col].leaf)
	if err != nil || !cc.HasDictionaryPage() {
		return false
	}
	dict := cc.DataPageOffset() - cc.DictionaryPageOffset()
	values := cc.NumValues()
	if col < len(u.stats) && u.stats[col].ok && u.stats[col].s.NullCount >= 0 {
		values = u.stats[col].s.Rows - u.stats[col].s.NullCount
	}
	return dict > 0 && dict*bloomDenseRows <= values
}

// bloomDenseRows: a row group whose non-NULL values number at least this
// many times its integer range's width is taken to hold every value of the
// range (each would be expected that many times).
const bloomDenseRows = 16

// bloomAbsent reports whether the bloom filter of p's column in unit ui
// proves every value of p absent. Unreadable filters are "maybe".
func (t *Table) bloomAbsent(ui int, p index.Pred) (absent bool) {
	if p.Col < 0 || p.Col >= len(t.cols) {
		return false
	}
	c := &t.cols[p.Col]
	if !bloomable(c) {
		return false
	}
	defer func() {
		if recover() != nil {
			absent = false
		}
	}()
	u := &t.units[ui]
	pf := t.files[u.file]
	cc, err := pf.meta.RowGroup(u.rg).ColumnChunk(c.leaf)
	if err != nil || cc.BloomFilterOffset() <= 0 {
		return false
	}
	rgr, err := pf.rdr.GetBloomFilterReader().RowGroup(u.rg)
	if err != nil {
		return false
	}
	absent = true
	err = rgr.VisitColumnBloomFilter(c.leaf, func(bf metadata.BloomFilter) error {
		for _, v := range p.Vals {
			h, ok := bloomHash(bf.Hasher(), c, v)
			if !ok || bf.CheckHash(h) {
				absent = false
				return nil
			}
		}
		return nil
	})
	return err == nil && absent
}

// bloomable reports whether a literal of c's SQL type maps back to exactly
// one stored physical value, which is what the filter hashed. Rescaled time
// units and INT96 do not (several stored values read as one), nor do
// decimals stored as byte arrays (sign-extension makes several encodings).
func bloomable(c *column) bool {
	switch c.kind {
	case kInt32, kInt64:
		return c.mul == 1 && c.div == 1 && !c.tz
	case kUint32, kUint64, kFloat32, kFloat64, kBytes, kFixed:
		return true
	}
	return false
}

// bloomHash hashes v as the writer hashed the stored value.
func bloomHash(h metadata.Hasher, c *column, v columnar.Value) (uint64, bool) {
	switch c.kind {
	case kInt32:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return 0, false
		}
		return metadata.GetHash(h, int32(v.I)), true
	case kUint32:
		if v.I < 0 || v.I > math.MaxUint32 {
			return 0, false
		}
		return metadata.GetHash(h, int32(uint32(v.I))), true
	case kInt64, kUint64:
		return metadata.GetHash(h, v.I), true
	case kFloat32:
		f := float32(v.F)
		if float64(f) != v.F || v.F == 0 {
			return 0, false // ±0 compare equal but hash apart
		}
		return metadata.GetHash(h, f), true
	case kFloat64:
		if math.IsNaN(v.F) || v.F == 0 {
			return 0, false
		}
		return metadata.GetHash(h, v.F), true
	case kBytes:
		return metadata.GetHash(h, parquet.ByteArray(v.S)), true
	case kFixed:
		return metadata.GetHash(h, parquet.FixedLenByteArray(v.S)), true
	}
	return 0, false
}
