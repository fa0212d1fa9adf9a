package b2sql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	b2sql "github.com/b2sql/b2sql"
)

// TestNestedColumns: a Parquet file with LIST and STRUCT columns written by
// arrow-go serves its flat columns alone, * EXCLUDE may name the nested
// ones, and the nested ones read with their values.
func TestNestedColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.parquet")
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "pt", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}), Nullable: true},
	}, nil)
	mem := memory.DefaultAllocator
	rb := array.NewRecordBuilder(mem, sc)
	defer rb.Release()
	for i := range 3 {
		rb.Field(0).(*array.Int64Builder).Append(int64(i + 1))
		lb := rb.Field(1).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).Append(int32(i))
		sb := rb.Field(2).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(10 * i))
	}
	rec := rb.NewRecord()
	defer rec.Release()
	writeArrowParquet(t, path, rec, parquet.NewWriterProperties())

	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := queryText(t, db, "SELECT sum(id) FROM '"+path+"'"); got != "6" {
		t.Errorf("sum(id) = %q, want 6", got)
	}
	if got := queryText(t, db, "SELECT * EXCLUDE (tags, pt) FROM '"+path+"' ORDER BY id"); got != "1\n2\n3" {
		t.Errorf("* EXCLUDE (tags, pt) = %q", got)
	}
	// Values as DuckDB prints them: row i has tags [i] and pt {'x': 10i}.
	if got := queryText(t, db, "SELECT tags, n.pt, struct_extract(pt, 'x') FROM '"+path+"' n ORDER BY id"); got != "[0]|{'x': 0}|0\n[1]|{'x': 10}|10\n[2]|{'x': 20}|20" {
		t.Errorf("nested columns = %q", got)
	}
}

// writeArrowParquet writes rec to a new Parquet file at path with arrow-go's
// writer (an outside writer, not b2sql's) and the given properties.
func writeArrowParquet(t *testing.T, path string, rec arrow.RecordBatch, props *parquet.WriterProperties) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}
