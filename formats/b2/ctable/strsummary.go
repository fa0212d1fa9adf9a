package ctable

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// The string summary of a utf8() column: b2sql's own block summary of
// strings, because python-blosc2 builds SUMMARY indexes for numbers, bools
// and complex values only and refuses them on utf8() and dictionary()
// columns. The Writer stores it in the vlmeta of the column's offsets
// array (_cols/<name>.b2nd) under stringSummaryKey, which python-blosc2
// and c-blosc2 never read, as msgpack:
//
//	{"version": 1, "segment_len": rows per segment, "rows": rows covered,
//	 "value_epoch": the manifest's value_epoch when it was built,
//	 "min": [bin | nil, …], "max": [bin | nil, …], "flags": bin}
//
// one min, max and flags byte per segment of segment_len physical rows;
// extrema leave NULLs out (as a null_aware SUMMARY) and compare bytes as
// SQL compares VARCHAR. flags holds flagAllNull for a segment without a
// value and flagNoBounds for one that has values but no extrema (one of
// them longer than maxSummaryString bytes). It is read as a SUMMARY index
// of the column (pruning, MIN/MAX without a scan) only while it covers
// every physical row and the value_epoch is the table's: python-blosc2
// and b2sql bump the epoch whenever they change or append values, so a
// summary older than the values is never used. Files without it (written
// by python-blosc2 or an older b2sql) simply have no summary there.
const stringSummaryKey = "b2sql_string_summary"

// stringSummaryKind names the summary in EXPLAIN ("string summary index on title").
const stringSummaryKind = "string summary"

// flagNoBounds marks a segment with values but no stored extrema.
const flagNoBounds = 1 << 3

// maxSummaryString bounds the strings a summary stores: a longer min or
// max leaves its segment without bounds, so that the summary stays a few
// bytes per segment whatever the column holds.
const maxSummaryString = 256

// stringSummary is a decoded string summary, not yet checked against the
// table.
type stringSummary struct {
	segLen, rows, epoch int64
	mins, maxs          [][]byte
	flags               []byte
}

// readStringSummary decodes the string summary in the vlmeta of f, or
// returns nil when there is none.
func readStringSummary(f *b2.Frame) (*stringSummary, error) {
	raw, ok, err := f.VLMeta(stringSummaryKey)
	if err != nil || !ok {
		return nil, err
	}
	v, err := mpDecode(raw)
	if err != nil {
		return nil, err
	}
	m, _ := v.(mpMap)
	get := func(k string) any { x, _ := m.get(k); return x }
	ver, _ := asInt(get("version"))
	if ver != 1 {
		return nil, nil // a later layout this reader does not know: no summary
	}
	ss := &stringSummary{}
	var ok1, ok2, ok3 bool
	ss.segLen, ok1 = asInt(get("segment_len"))
	ss.rows, ok2 = asInt(get("rows"))
	ss.epoch, ok3 = asInt(get("value_epoch"))
	mins, _ := get("min").([]any)
	maxs, _ := get("max").([]any)
	ss.flags, _ = get("flags").([]byte)
	n := int64(len(ss.flags))
	if !ok1 || !ok2 || !ok3 || ss.segLen <= 0 || ss.rows < 0 || n != (ss.rows+ss.segLen-1)/ss.segLen ||
		int64(len(mins)) != n || int64(len(maxs)) != n {
		return nil, corruptf("%s: segments do not match rows %d / segment_len %d", stringSummaryKey, ss.rows, ss.segLen)
	}
	ss.mins, ss.maxs = make([][]byte, n), make([][]byte, n)
	for k := range ss.flags {
		lo, okl := mins[k].([]byte)
		hi, okh := maxs[k].([]byte)
		if ss.flags[k]&(flagAllNull|flagNoBounds) == 0 && (!okl || !okh) {
			return nil, corruptf("%s: segment %d has no bounds", stringSummaryKey, k)
		}
		ss.mins[k], ss.maxs[k] = lo, hi
	}
	return ss, nil
}

// stringSummaryOf returns the string summary of the utf8 column col
// whose offsets array is f as its block summary index (asIndex), nil when
// f has none. The summary only saves work: a damaged one is reported by
// EXPLAIN (why) and never used, and the column still reads.
func stringSummaryOf(f *b2.Frame, col string, nphys, epoch int64, noNulls bool) *summaryIndex {
	ss, err := readStringSummary(f)
	switch {
	case err != nil:
		return &summaryIndex{col: col, kind: stringSummaryKind, why: "unreadable: " + err.Error()}
	case ss == nil:
		return nil
	}
	return ss.asIndex(col, columnar.TVarchar, nphys, epoch, noNulls)
}

// asIndex returns the summary as the column's block summary index, loaded
// (its segments as index.Stats of type t), with why set when it does not
// describe the table's values: built over another extent (nphys physical
// rows) or at another value_epoch (epoch; -1 when the manifest has none,
// and then nothing proves the values unchanged). noNulls: the column holds
// no NULL, so a block's extrema may prove a predicate on every row.
func (ss *stringSummary) asIndex(col string, t columnar.Type, nphys, epoch int64, noNulls bool) *summaryIndex {
	si := &summaryIndex{col: col, kind: stringSummaryKind, segLen: ss.segLen, built: ss.rows, nullAware: true}
	switch {
	case ss.rows != nphys:
		si.why = fmt.Sprintf("stale: built over %d rows, table has %d", ss.rows, nphys)
	case epoch < 0 || ss.epoch != epoch:
		si.why = fmt.Sprintf("stale: built at value_epoch %d, table is at %d", ss.epoch, epoch)
	}
	si.once.Do(func() {}) // loaded here, from the vlmeta: no sidecar to read
	si.segs = make([]index.Stats, len(ss.flags))
	for k, fl := range ss.flags {
		rows := min(si.segLen, ss.rows-int64(k)*si.segLen)
		s := index.Stats{NullCount: -1, Rows: rows}
		if noNulls {
			s.NullCount = 0
		}
		switch {
		case fl&flagAllNull != 0:
			s.NullCount = rows
		case fl&flagNoBounds != 0:
			si.partial = true
		default:
			s.HasMinMax = true
			s.Min = columnar.Value{Type: t, S: string(ss.mins[k])}
			s.Max = columnar.Value{Type: t, S: string(ss.maxs[k])}
		}
		si.segs[k] = s
	}
	return si
}
