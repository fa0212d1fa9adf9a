package b2sql

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/arrowrec"
)

// RecordReader returns the rest of the result as Arrow record batches, one
// per executor batch (up to a few thousand rows). Reading it consumes the
// Rows; releasing it closes them. Errors, including the context's, end the
// stream and are reported by the reader's Err.
//
// Lifetime: a record is valid until the reader's next Next or its final
// Release, whichever comes first. BIGINT, UBIGINT, DOUBLE, TIMESTAMP and
// INTERVAL columns of a batch without a selection are zero-copy views of
// the executor's memory, which the next batch overwrites; Retain does not
// extend that. To keep a record longer, copy it (for example with
// array.Concatenate or by building a new record).
//
// Types map as: BOOLEAN → bool, TINYINT … BIGINT → int8 … int64, UTINYINT …
// UBIGINT → uint8 … uint64, FLOAT → float32, DOUBLE → float64,
// DECIMAL(p,s) → decimal128(p,s), VARCHAR → utf8, BLOB → binary,
// DATE → date32, TIMESTAMP → timestamp[us] (no time zone), INTERVAL →
// duration[us], TIME → time64[us], NULL → null; LIST, STRUCT and MAP →
// list<element>, struct<…> and map<key, value>, nested to any depth
// (always copied). Every field is nullable but a map's keys.
//
// The reader is not safe for concurrent use, like the Rows it reads.
func (r *Rows) RecordReader() array.RecordReader {
	fields := make([]arrow.Field, len(r.cols))
	for i, c := range r.cols {
		fields[i] = arrow.Field{Name: c.Name, Type: arrowrec.Type(c.Type), Nullable: true}
	}
	rr := &recordReader{rows: r, schema: arrow.NewSchema(fields, nil)}
	rr.refs.Store(1)
	return rr
}

type recordReader struct {
	refs   atomic.Int64
	rows   *Rows
	schema *arrow.Schema
	cur    arrow.RecordBatch
	err    error
	done   bool
}

func (rr *recordReader) Retain() { rr.refs.Add(1) }

func (rr *recordReader) Release() {
	if rr.refs.Add(-1) == 0 {
		rr.releaseCur()
		rr.rows.Close()
	}
}

func (rr *recordReader) Schema() *arrow.Schema { return rr.schema }

func (rr *recordReader) releaseCur() {
	if rr.cur != nil {
		rr.cur.Release()
		rr.cur = nil
	}
}

func (rr *recordReader) Next() bool {
	rr.releaseCur()
	if rr.done {
		return false
	}
	b := rr.nextBatch()
	if b == nil {
		rr.done = true
		rr.err = rr.rows.Err()
		return false
	}
	rec, err := arrowRecord(rr.schema, rr.rows.cols, b)
	if err != nil {
		rr.done, rr.err = true, err
		rr.rows.Close()
		return false
	}
	rr.cur = rec
	return true
}

// nextBatch returns the next batch, building one from static results
// (EXPLAIN, SHOW) on first use.
func (rr *recordReader) nextBatch() *columnar.Batch {
	r := rr.rows
	if r.op != nil {
		return r.NextBatch()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.pos >= len(r.static) {
		return nil
	}
	rest := r.static[r.pos:]
	r.pos = len(r.static)
	types := make([]columnar.Type, len(r.cols))
	for i, c := range r.cols {
		types[i] = c.Type
	}
	b := columnar.NewBatch(types, len(rest))
	b.Len = len(rest)
	for i, row := range rest {
		for c, v := range row {
			b.Cols[c].SetValue(i, len(rest), v)
		}
	}
	return b
}

// arrowRecord converts the live rows of b, a batch of the columns cols,
// into a record of schema (package arrowrec).
func arrowRecord(schema *arrow.Schema, cols []Column, b *columnar.Batch) (arrow.RecordBatch, error) {
	types := make([]columnar.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	return arrowrec.Record(schema, types, b)
}

func (rr *recordReader) RecordBatch() arrow.RecordBatch { return rr.cur }

// Record is RecordBatch under its deprecated name.
func (rr *recordReader) Record() arrow.RecordBatch { return rr.cur }

func (rr *recordReader) Err() error { return rr.err }
