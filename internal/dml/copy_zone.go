package dml

import (
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// zonedText wraps a text format's writer opener (CSV, JSON) so that
// TIMESTAMP WITH TIME ZONE columns are written as DuckDB writes them: as
// text in the session's time zone (2024-01-01 07:00:00-05), the cast to
// VARCHAR DuckDB applies to every column of such a file. The column is
// handed to the writer as VARCHAR; other columns pass through. With a
// timestampformat (local) it is handed over as a TIMESTAMP of its wall
// time in the zone, which the writer formats as DuckDB does.
func zonedText(zone string, local bool, open func(string, columnar.Schema) (tableWriter, func(), error)) func(string, columnar.Schema) (tableWriter, func(), error) {
	return func(path string, schema columnar.Schema) (tableWriter, func(), error) {
		var cols []int
		for i, f := range schema {
			if f.Type.ID == columnar.TimestampTZ {
				cols = append(cols, i)
			}
		}
		if len(cols) == 0 {
			return open(path, schema)
		}
		loc, err := columnar.LoadZone(zone)
		if err != nil {
			return nil, nil, err
		}
		text := append(columnar.Schema(nil), schema...)
		for _, i := range cols {
			text[i].Type = columnar.TVarchar
			if local {
				text[i].Type = columnar.TTimestamp
			}
		}
		w, abort, err := open(path, text)
		if err != nil {
			return nil, nil, err
		}
		return &zonedWriter{w: w, cols: cols, loc: loc, local: local, out: make([]columnar.Vector, len(cols))}, abort, nil
	}
}

// zonedWriter converts the TIMESTAMPTZ columns of each batch to text
// before the wrapped writer sees it; its vectors and buffer are reused.
type zonedWriter struct {
	w    tableWriter
	cols []int
	loc  *time.Location
	// local: write TIMESTAMPs of the wall time in loc, not text.
	local bool
	out   []columnar.Vector
	buf   []byte
	b     columnar.Batch
}

func (z *zonedWriter) Write(b *columnar.Batch) error {
	z.b = *b
	z.b.Cols = append(z.b.Cols[:0], b.Cols...)
	z.buf = z.buf[:0]
	type span struct{ k, i, lo, hi int }
	var spans []span
	for k, c := range z.cols {
		x := b.Cols[c]
		out := &z.out[k]
		out.Type = columnar.TVarchar
		if z.local {
			out.Type = columnar.TTimestamp
		}
		out.Reset(b.Len)
		out.Valid, out.Const = x.Valid, x.Const
		rows := b.Len
		if x.Const {
			rows = min(rows, 1)
		}
		each := func(i int) {
			if x.IsNull(i) {
				return
			}
			if z.local { // the wall time in the zone, for timestampformat
				out.Ints[i] = x.Ints[i] + columnar.ZoneOffsetSeconds(x.Ints[i], z.loc)*1e6
				return
			}
			lo := len(z.buf)
			z.buf = columnar.AppendTimestampTZ(z.buf, x.Ints[i], z.loc)
			spans = append(spans, span{k, i, lo, len(z.buf)})
		}
		if b.Sel != nil && !x.Const {
			for _, i := range b.Sel {
				each(i)
			}
		} else {
			for i := range rows {
				each(i)
			}
		}
	}
	// The buffer may have moved while it grew: slice it once it is whole.
	for _, s := range spans {
		z.out[s.k].Bytes[s.i] = z.buf[s.lo:s.hi:s.hi]
	}
	for k, c := range z.cols {
		z.b.Cols[c] = &z.out[k]
	}
	return z.w.Write(&z.b)
}

func (z *zonedWriter) Close() error { return z.w.Close() }
