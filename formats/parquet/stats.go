package parquet

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// colStats are the statistics of one column chunk, converted to the
// column's SQL type. ok is false when the chunk has none worth using.
type colStats struct {
	ok bool
	s  index.Stats
}

// chunkStats reads the statistics of exposed column c in a row group.
// Parquet min/max exclude NaN and carry no NaN count, so float columns are
// marked as possibly holding NaN; verdictOf compensates (see floatVerdict).
func chunkStats(rgm *metadata.RowGroupMetaData, c *column) (colStats, error) {
	cc, err := rgm.ColumnChunk(c.leaf)
	if err != nil {
		return colStats{}, err
	}
	ts, err := cc.Statistics()
	if err != nil || ts == nil {
		// Unreadable statistics only cost pruning, never correctness.
		return colStats{}, nil
	}
	out := index.Stats{NullCount: -1, Rows: rgm.NumRows()}
	if ts.HasNullCount() {
		out.NullCount = ts.NullCount()
		if out.NullCount < 0 || out.NullCount > out.Rows {
			return colStats{}, corruptf("null count %d in a row group of %d rows", out.NullCount, out.Rows)
		}
	}
	if ts.HasMinMax() {
		out.Min, out.Max, out.HasMinMax = statValues(ts, c)
	}
	if !out.HasMinMax && out.NullCount < 0 {
		return colStats{}, nil
	}
	return colStats{ok: true, s: out}, nil
}

// statValues converts typed min/max into Values of the column's type, with
// the same conversion the decoder applies to data so that the bounds stay
// bounds (floor division keeps nanosecond timestamps monotone).
func statValues(ts metadata.TypedStatistics, c *column) (lo, hi columnar.Value, ok bool) {
	t := c.field.Type
	switch s := ts.(type) {
	case *metadata.BooleanStatistics:
		return columnar.BoolValue(s.Min()), columnar.BoolValue(s.Max()), true
	case *metadata.Int32Statistics:
		if c.kind == kUint32 {
			return columnar.IntValue(t, int64(uint32(s.Min()))), columnar.IntValue(t, int64(uint32(s.Max()))), true
		}
		return columnar.IntValue(t, int64(s.Min())*c.mul), columnar.IntValue(t, int64(s.Max())*c.mul), true
	case *metadata.Int64Statistics:
		if c.kind == kUint64 {
			return columnar.UintValue(uint64(s.Min())), columnar.UintValue(uint64(s.Max())), true
		}
		return columnar.IntValue(t, convInt(s.Min(), c.mul, c.div)), columnar.IntValue(t, convInt(s.Max(), c.mul, c.div)), true
	case *metadata.Float32Statistics:
		return columnar.FloatValue(t, float64(s.Min())), columnar.FloatValue(t, float64(s.Max())), true
	case *metadata.Float64Statistics:
		return columnar.FloatValue(t, s.Min()), columnar.FloatValue(t, s.Max()), true
	case *metadata.ByteArrayStatistics:
		return bytesStats(c, s.Min(), s.Max())
	case *metadata.FixedLenByteArrayStatistics:
		return bytesStats(c, s.Min(), s.Max())
	}
	return lo, hi, false
}

func bytesStats(c *column, min, max []byte) (lo, hi columnar.Value, ok bool) {
	t := c.field.Type
	switch c.kind {
	case kBytes, kFixed:
		lo = columnar.Value{Type: t, S: string(min)}
		hi = columnar.Value{Type: t, S: string(max)}
		return lo, hi, true
	case kDecBytes:
		a, okA := beInt64(min)
		b, okB := beInt64(max)
		return columnar.IntValue(t, a), columnar.IntValue(t, b), okA && okB
	}
	return lo, hi, false
}

// convInt converts an integer in a Parquet time unit to microseconds:
// multiplication for milliseconds, floor division for nanoseconds.
func convInt(v, mul, div int64) int64 {
	if div != 1 {
		q := v / div
		if v%div < 0 {
			q--
		}
		return q
	}
	return v * mul
}

// verdict evaluates the conjunction filter against unit u's statistics.
func (t *Table) verdict(u *unit, filter []index.Pred) index.Verdict {
	if len(filter) == 0 {
		return index.All
	}
	vs := make([]index.Verdict, len(filter))
	for i, p := range filter {
		vs[i] = t.predVerdict(u, p)
	}
	return index.Conjunction(vs...)
}

// predVerdict is index.VerdictOf with one correction for floats: Parquet
// statistics ignore NaN, and NaN sorts above every number, so a NaN row may
// satisfy "> x", ">= x" and "<> x" while min/max say nothing about it, and
// fails every other comparison even when min/max say All.
func (t *Table) predVerdict(u *unit, p index.Pred) index.Verdict {
	if p.Op == index.Or {
		out := index.None
		for _, q := range p.Any {
			switch t.predVerdict(u, q) {
			case index.All:
				return index.All
			case index.Maybe:
				out = index.Maybe
			}
		}
		return out
	}
	if p.Col < 0 || p.Col >= len(u.stats) || !u.stats[p.Col].ok {
		return index.Maybe
	}
	s := u.stats[p.Col].s
	v := s.Verdict(p)
	if s.HasMinMax && t.cols[p.Col].field.Type.IsFloat() {
		switch p.Op {
		case index.Gt, index.Ge, index.Ne:
			if v == index.None {
				v = index.Maybe
			}
		case index.Eq, index.Lt, index.Le, index.Between, index.In:
			if v == index.All {
				v = index.Maybe
			}
		}
	}
	return v
}

// SupportsFilter reports Inexact for predicates whose columns carry
// statistics in at least one row group (row groups are skipped, rows are
// not filtered), and Unsupported otherwise.
func (t *Table) SupportsFilter(p index.Pred) index.Support {
	if p.Op == index.Or {
		if len(p.Any) == 0 {
			return index.Unsupported
		}
		for _, q := range p.Any {
			if t.SupportsFilter(q) == index.Unsupported {
				return index.Unsupported
			}
		}
		return index.Inexact
	}
	if p.Col < 0 || p.Col >= len(t.hasStats) || !t.hasStats[p.Col] {
		return index.Unsupported
	}
	return index.Inexact
}

// plan decides which units a scan reads. It returns the units to read (in
// order), how many of them statistics proved all-true, and how many were
// skipped.
func (t *Table) plan(spec index.ScanSpec) (read []int, allTrue, skipped int) {
	read = make([]int, 0, len(t.units))
	for i := range t.units {
		u := &t.units[i]
		if !spec.On(index.BlockPruning) || len(spec.Filter) == 0 {
			read = append(read, i)
			continue
		}
		switch t.verdict(u, spec.Filter) {
		case index.None:
			skipped++
			continue
		case index.All:
			allTrue++
		}
		read = append(read, i)
	}
	t.orderTopK(spec, read)
	return read, allTrue, skipped
}

// DescribeScan says, without reading data, what a scan with spec touches,
// e.g. "row groups=2/10 files=1 (stats)".
func (t *Table) DescribeScan(spec index.ScanSpec) string {
	read, allTrue, _ := t.plan(spec)
	var b strings.Builder
	fmt.Fprintf(&b, "row groups=%d/%d", len(read), len(t.units))
	if len(t.files) > 1 {
		fmt.Fprintf(&b, " files=%d", len(t.files))
	}
	if allTrue > 0 {
		fmt.Fprintf(&b, " all-true=%d", allTrue)
	}
	if len(spec.Filter) > 0 && spec.On(index.BlockPruning) {
		b.WriteString(" (stats)")
	}
	return b.String()
}
