package parquet

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestRefusedNestedColumnAlone: a file with one nested column arrow-go
// cannot map (a LIST group of two children) keeps its other nested
// columns: only the refused one is left out, with a warning naming the
// file and the column (issue #21: the whole file's nested columns were
// dropped). Values by hand: id 1..3, good [1, 2], [], NULL, st {'x': 7},
// NULL, {'x': NULL} (the list has a reader of its own, the struct is read
// through arrow-go).
func TestRefusedNestedColumnAlone(t *testing.T) {
	rep := parquet.Repetitions
	elem := schema.NewInt32Node("element", rep.Optional, -1)
	list := schema.MustGroup(schema.NewGroupNode("list", rep.Repeated, schema.FieldList{elem}, -1))
	good := schema.MustGroup(schema.NewGroupNodeLogical("good", rep.Optional, schema.FieldList{list}, schema.ListLogicalType{}, -1))
	bad := schema.MustGroup(schema.NewGroupNodeLogical("bad", rep.Optional, schema.FieldList{
		schema.NewInt32Node("a", rep.Required, -1), schema.NewInt32Node("b", rep.Required, -1)}, schema.ListLogicalType{}, -1))
	st := schema.MustGroup(schema.NewGroupNode("st", rep.Optional, schema.FieldList{schema.NewInt32Node("x", rep.Optional, -1)}, -1))
	root := schema.MustGroup(schema.NewGroupNode("schema", rep.Required, schema.FieldList{
		schema.NewInt64Node("id", rep.Required, -1), good, bad, st}, -1))
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root)
	rg := w.AppendRowGroup()
	next := func() file.ColumnChunkWriter {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		return cw
	}
	if _, err := next().(*file.Int64ColumnChunkWriter).WriteBatch([]int64{1, 2, 3}, nil, nil); err != nil {
		t.Fatal(err)
	}
	// good: [1, 2] (two values, def 3), [] (def 1), NULL (def 0).
	if _, err := next().(*file.Int32ColumnChunkWriter).WriteBatch([]int32{1, 2}, []int16{3, 3, 1, 0}, []int16{0, 1, 0, 0}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // bad.a, bad.b: {1, 2}, NULL, {5, 6}
		if _, err := next().(*file.Int32ColumnChunkWriter).WriteBatch([]int32{1, 5}, []int16{1, 0, 1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	// st: {'x': 7}, NULL, {'x': NULL}.
	if _, err := next().(*file.Int32ColumnChunkWriter).WriteBatch([]int32{7}, []int16{2, 0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	tb := closeAndOpen(t, "refused.parquet", &buf, rg, w)
	defer tb.Close()
	if got, want := schemaString(tb.Schema()), "id BIGINT, good INTEGER[], st STRUCT(x INTEGER)"; got != want {
		t.Fatalf("schema %q, want %q", got, want)
	}
	if w := strings.Join(tb.Warnings(), "\n"); !strings.Contains(w, "refused.parquet") || !strings.Contains(w, `column "bad"`) {
		t.Fatalf("warnings %q, want one naming the file and column \"bad\"", w)
	}
	rows := readAll(t, tb, index.ScanSpec{Cols: []int{0, 1, 2}, Limit: -1})
	var got []string
	for _, r := range rows {
		got = append(got, r[0].String()+" "+r[1].String()+" "+r[2].String())
	}
	if want := "1 [1, 2] {'x': 7}|2 [] NULL|3 NULL {'x': NULL}"; strings.Join(got, "|") != want {
		t.Fatalf("rows %q, want %q", strings.Join(got, "|"), want)
	}
}

// closeAndOpen closes row group rg and file writer w, which wrote into
// buf, and opens what they wrote as file name.
func closeAndOpen(t *testing.T, name string, buf *bytes.Buffer, rg file.SerialRowGroupWriter, w *file.Writer) *Table {
	t.Helper()
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := openBytes(name, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func schemaString(s columnar.Schema) string {
	var parts []string
	for _, f := range s {
		parts = append(parts, f.Name+" "+f.Type.String())
	}
	return strings.Join(parts, ", ")
}
