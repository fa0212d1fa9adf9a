package b2sql

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// memTable is a small table held in memory as rows of values: table
// functions that return metadata (b2_metadata) use it.
type memTable struct {
	schema columnar.Schema
	rows   [][]columnar.Value
}

func (t *memTable) Schema() columnar.Schema { return t.schema }
func (t *memTable) RowCount() int64         { return int64(len(t.rows)) }

func (t *memTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	return &memReader{t: t, cols: spec.Cols}, nil
}

type memReader struct {
	t    *memTable
	cols []int
	pos  int
}

func (r *memReader) Schema() columnar.Schema {
	s := make(columnar.Schema, len(r.cols))
	for i, c := range r.cols {
		s[i] = r.t.schema[c]
	}
	return s
}

func (r *memReader) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.pos >= len(r.t.rows) {
		return nil, io.EOF
	}
	end := min(r.pos+columnar.MaxBatch, len(r.t.rows))
	n := end - r.pos
	types := make([]columnar.Type, len(r.cols))
	for i, c := range r.cols {
		types[i] = r.t.schema[c].Type
	}
	b := columnar.NewBatch(types, n)
	b.Len = n
	for k := 0; k < n; k++ {
		row := r.t.rows[r.pos+k]
		for i, c := range r.cols {
			b.Cols[i].SetValue(k, n, row[c])
		}
	}
	r.pos = end
	return b, nil
}

func (r *memReader) Close() error { return nil }
