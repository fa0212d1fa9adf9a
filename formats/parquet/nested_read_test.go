package parquet

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// nestedFixtureRows is the row count of writeNestedFixture's file.
const nestedFixtureRows = 3000

// writeNestedFixture writes, with arrow-go's writer, 3000 rows of
//
//	id BIGINT,
//	l  STRUCT(a INTEGER, b VARCHAR[])[],
//	m  MAP(VARCHAR, BIGINT[]),
//	s  STRUCT(s STRUCT(x INTEGER))
//
// with NULLs and empty lists at every level (a pattern of id), in row
// groups of 700 rows and 1 KiB pages.
func writeNestedFixture(t *testing.T, path string) {
	t.Helper()
	elem := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})
	inner := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "l", Type: arrow.ListOf(elem), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.PrimitiveTypes.Int64)), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "s", Type: inner, Nullable: true}), Nullable: true},
	}, nil)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(700), parquet.WithDataPageSize(1024))
	fw, err := pqarrow.NewFileWriter(sc, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	for i := range nestedFixtureRows {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		lb := rb.Field(1).(*array.ListBuilder)
		if i%7 == 3 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			sb := lb.ValueBuilder().(*array.StructBuilder)
			for k := range i % 4 {
				if (i+k)%5 == 1 {
					sb.AppendNull()
					continue
				}
				sb.Append(true)
				ab := sb.FieldBuilder(0).(*array.Int32Builder)
				if k == 1 {
					ab.AppendNull()
				} else {
					ab.Append(int32(i*10 + k))
				}
				bb := sb.FieldBuilder(1).(*array.ListBuilder)
				switch (i + k) % 3 {
				case 0:
					bb.AppendNull()
				case 1:
					bb.Append(true) // empty
				default:
					bb.Append(true)
					vb := bb.ValueBuilder().(*array.StringBuilder)
					vb.Append(fmt.Sprintf("v%d", i))
					vb.AppendNull()
					vb.Append("a b")
				}
			}
		}
		mb := rb.Field(2).(*array.MapBuilder)
		if i%6 == 5 {
			mb.AppendNull()
		} else {
			mb.Append(true)
			for k := range i % 3 {
				mb.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", k))
				ib := mb.ItemBuilder().(*array.ListBuilder)
				if k == 1 {
					ib.AppendNull()
				} else {
					ib.Append(true)
					ib.ValueBuilder().(*array.Int64Builder).Append(int64(-i))
				}
			}
		}
		ssb := rb.Field(3).(*array.StructBuilder)
		if i%9 == 8 {
			ssb.AppendNull()
		} else {
			ssb.Append(true)
			in := ssb.FieldBuilder(0).(*array.StructBuilder)
			if i%4 == 2 {
				in.AppendNull()
			} else {
				in.Append(true)
				xb := in.FieldBuilder(0).(*array.Int32Builder)
				if i%5 == 0 {
					xb.AppendNull()
				} else {
					xb.Append(int32(i))
				}
			}
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// nestedFixtureDuckDB is DuckDB 1.5.6's answer over writeNestedFixture's
// file, per column: SET threads=1; SELECT count(c), md5(string_agg(
// coalesce(CAST(c AS VARCHAR), 'NULL'), chr(10))) FROM 'nested.parquet',
// and typeof(c) (NESTED_FIXTURE_KEEP=path keeps the file for DuckDB).
var nestedFixtureDuckDB = map[string][3]string{
	"l": {"STRUCT(a INTEGER, b VARCHAR[])[]", "2571", "6aa31fdee74cd27def197a80cdf21307"},
	"m": {"MAP(VARCHAR, BIGINT[])", "2500", "acb7f79d3be0520f7acca64bb728b78d"},
	"s": {"STRUCT(s STRUCT(x INTEGER))", "2667", "27ce6bb774417e14cbbbb2f8e4a063a1"},
}

// TestNestedRead reads writeNestedFixture's nested columns at batch sizes
// 1, 2, 7 and the default, whole and under a filter on id, and compares
// them with DuckDB's reading of the same file.
func TestNestedRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested.parquet")
	writeNestedFixture(t, path)
	if os.Getenv("NESTED_FIXTURE_KEEP") != "" {
		data, _ := os.ReadFile(path)
		_ = os.WriteFile(os.Getenv("NESTED_FIXTURE_KEEP"), data, 0o644)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	defer func(old int64) { batchRows = old }(batchRows)
	for _, br := range []int64{1, 2, 7, 2 * columnar.MaxBatch} {
		batchRows = br
		for name, want := range nestedFixtureDuckDB {
			c := tb.Schema().Index(name)
			if got := tb.Schema()[c].Type.String(); got != want[0] {
				t.Fatalf("%s: type %s, want %s", name, got, want[0])
			}
			rows := readAll(t, tb, index.ScanSpec{Cols: []int{0, c}, Limit: -1, Threads: 2})
			if len(rows) != nestedFixtureRows {
				t.Fatalf("batch %d %s: %d rows", br, name, len(rows))
			}
			texts := make([]string, len(rows))
			nonNull := 0
			for _, r := range rows {
				texts[r[0].I] = r[1].String()
				if !r[1].Null {
					nonNull++
				}
			}
			sum := md5.Sum([]byte(strings.Join(texts, "\n")))
			if got := [3]string{want[0], fmt.Sprint(nonNull), hex.EncodeToString(sum[:])}; got != want {
				t.Errorf("batch %d %s: got %v, want %v (DuckDB); first rows %q", br, name, got, want, texts[:4])
			}
			// Every 10th row, through the filter path (late reading skips
			// the rows between).
			var in []columnar.Value
			for i := 0; i < nestedFixtureRows; i += 10 {
				in = append(in, columnar.IntValue(columnar.TInt64, int64(i)))
			}
			kept := readAll(t, tb, index.ScanSpec{Cols: []int{c, 0}, Filter: []index.Pred{{Col: 0, Op: index.In, Vals: in}}, Limit: -1, Threads: 1})
			if len(kept) != len(in) {
				t.Fatalf("batch %d %s: filter kept %d rows, want %d", br, name, len(kept), len(in))
			}
			for _, r := range kept {
				if r[0].String() != texts[r[1].I] {
					t.Fatalf("batch %d %s: filtered row %d is %s, want %s", br, name, r[1].I, r[0], texts[r[1].I])
				}
			}
		}
	}
}
