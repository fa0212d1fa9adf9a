package ctable

import (
	"fmt"

	"github.com/b2sql/b2sql/formats/b2"

	"github.com/b2sql/b2sql/columnar"
)

// nestedWriter and readNested are a struct, list or object column's
// storage: a BatchArray of msgpack items, one per row, each made and
// read by the column's kind tree (nest.go).

// nestedWriter writes a struct, list or object column: a BatchArray of msgpack
// items tagged as python-blosc2 tags them (ctable_varlen_scalar with
// py_type "struct" or "object", or listarray).
type nestedWriter struct {
	ba     *batchArrayWriter
	n      *nest
	schema jsonObj
	buf    []byte
}

func newNestedWriter(path string, f columnar.Field) (*nestedWriter, error) {
	n, schema, err := nestOf(f.Type, f.Nullable)
	if err != nil {
		return nil, err
	}
	var tag b2.Metalayer
	if n.kind == "struct" || n.kind == "object" {
		m := mpMap{{"version", int64(1)}, {"py_type", n.kind}, {"nullable", f.Nullable}, {"batch_rows", int64(vlBatchRows)}}
		tag = b2.Metalayer{Name: "ctable_varlen_scalar", Content: mpAppend(nil, m)}
	} else {
		m := mpMap{{"version", int64(1)}, {"kind", "list"}, {"item", jsonToMp(schema[1].V)}, {"nullable", f.Nullable},
			{"serializer", "msgpack"}, {"backend", "batch"}}
		tag = b2.Metalayer{Name: "listarray", Content: mpAppend(nil, m)}
	}
	ba, err := newTaggedBatchArrayWriter(path, "msgpack", f.Nullable, tag)
	if err != nil {
		return nil, err
	}
	return &nestedWriter{ba: ba, n: n, schema: schema}, nil
}

func (w *nestedWriter) write(v *columnar.Vector, rows []int) error {
	for _, r := range rows {
		var err error
		if w.buf, err = w.n.encode(w.buf[:0], v, r); err != nil {
			return err
		}
		if err := w.ba.addRaw(w.buf); err != nil {
			return err
		}
	}
	return nil
}

func (w *nestedWriter) finish(int64) (jsonObj, mpMap, error) {
	if err := w.ba.close(); err != nil {
		return nil, nil, err
	}
	return w.schema, nil, nil
}

func (w *nestedWriter) abort() { w.ba.abort() }

// jsonToMp turns a schema entry into the msgpack map python-blosc2 keeps
// in the listarray metalayer.
func jsonToMp(v any) any {
	switch x := v.(type) {
	case jsonObj:
		m := make(mpMap, len(x))
		for i, kv := range x {
			m[i] = mpEntry{kv.K, jsonToMp(kv.V)}
		}
		return m
	case []jsonObj:
		out := make([]any, len(x))
		for i, o := range x {
			out[i] = jsonToMp(o)
		}
		return out
	}
	return v
}

// readNested fills v[0:n] with physical rows [lo, lo+n) of a struct or
// list column, decoding each batch's items once.
func (s *colSource) readNested(d *b2.Decoder, sc *colScratch, lo int64, n int, v *columnar.Vector) error {
	for r := 0; r < n; {
		row := lo + int64(r)
		k := s.ba.batchOf(row)
		if k >= len(s.ba.starts)-1 {
			return corruptf("row %d past the last batch", row)
		}
		if sc.batchVals == nil || sc.batch != k {
			want := s.ba.starts[k+1] - s.ba.starts[k]
			vals, err := s.ba.decodeValues(d, k, want)
			if err != nil {
				return err
			}
			if int64(len(vals)) != want {
				return corruptf("batch %d holds %d items, batch_lengths says %d", k, len(vals), want)
			}
			sc.batch, sc.batchVals = k, vals
		}
		vals := sc.batchVals[row-s.ba.starts[k]:]
		m := min(len(vals), n-r)
		for j := 0; j < m; j++ {
			x, err := s.spec.Nest.value(vals[j])
			if err != nil {
				return fmt.Errorf("row %d: %w", row+int64(j), err)
			}
			v.SetValue(r+j, n, x)
		}
		r += m
	}
	return nil
}
