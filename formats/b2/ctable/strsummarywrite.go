package ctable

import (
	"bytes"
)

// stringSummaryBuilder accumulates the string summary of a utf8() column
// while it is written (strsummary.go): min and max per segment of segLen
// rows, NULLs left out.
type stringSummaryBuilder struct {
	segLen     int64
	mins, maxs []any // finished segments: []byte, or nil without bounds
	flags      []byte
	rows       int64 // rows of the finished segments and the current one
	// current segment
	n, nonNull int64
	long       bool // a value longer than maxSummaryString
	lo, hi     []byte
}

func newStringSummaryBuilder(segLen int64) *stringSummaryBuilder {
	return &stringSummaryBuilder{segLen: segLen}
}

// add adds the next rows (nil = NULL).
func (b *stringSummaryBuilder) add(vals [][]byte) {
	for _, s := range vals {
		if s != nil {
			switch {
			case len(s) > maxSummaryString:
				b.long = true
			case b.nonNull == 0:
				b.lo, b.hi = append(b.lo[:0], s...), append(b.hi[:0], s...)
			case bytes.Compare(s, b.lo) < 0:
				b.lo = append(b.lo[:0], s...)
			case bytes.Compare(s, b.hi) > 0:
				b.hi = append(b.hi[:0], s...)
			}
			b.nonNull++
		}
		b.n++
		b.rows++
		if b.n == b.segLen {
			b.finish()
		}
	}
}

// finish closes the current segment.
func (b *stringSummaryBuilder) finish() {
	if b.n == 0 {
		return
	}
	var fl byte
	var lo, hi any
	switch {
	case b.nonNull == 0:
		fl = flagAllNull
	case b.long:
		fl = flagNoBounds
	default:
		lo, hi = bytes.Clone(b.lo), bytes.Clone(b.hi)
	}
	b.mins, b.maxs, b.flags = append(b.mins, lo), append(b.maxs, hi), append(b.flags, fl)
	b.n, b.nonNull, b.long = 0, 0, false
	b.lo, b.hi = b.lo[:0], b.hi[:0]
}

// encode returns the summary as the msgpack value stored under
// stringSummaryKey, for a table at value_epoch epoch.
func (b *stringSummaryBuilder) encode(epoch int64) []byte {
	b.finish()
	flags := b.flags
	if flags == nil {
		flags = []byte{} // bin, not nil, for a column without rows
	}
	return mpAppend(nil, mpMap{
		{"version", int64(1)}, {"segment_len", b.segLen}, {"rows", b.rows}, {"value_epoch", epoch},
		{"min", b.mins}, {"max", b.maxs}, {"flags", flags},
	})
}
