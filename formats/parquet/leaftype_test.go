package parquet

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/index"
)

// TestLegacyTimestampLeaves: a legacy TIMESTAMP_MICROS (a converted type,
// no logical type, as nested_structs.rust.parquet has inside a STRUCT)
// reads as TIMESTAMP, flat and nested, as DuckDB reads it; a TIMESTAMP
// logical type with isAdjustedToUTC reads as TIMESTAMPTZ, flat and nested.
// arrow-go turns the converted type into a logical type with
// isAdjustedToUTC set, marked as made from a converted type. Values by
// hand: 1_700_000_000_123_456 µs is 2023-11-14 22:13:20.123456 UTC;
// DuckDB 1.5.6 reads this file with the same types and values.
func TestLegacyTimestampLeaves(t *testing.T) {
	rep := parquet.Repetitions
	legacy := func(name string) schema.Node {
		n, err := schema.NewPrimitiveNodeConverted(name, rep.Optional, parquet.Types.Int64, schema.ConvertedTypes.TimestampMicros, 0, 0, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	utc := func(name string) schema.Node {
		n, err := schema.NewPrimitiveNodeLogical(name, rep.Optional, schema.NewTimestampLogicalType(true, schema.TimeUnitMicros), parquet.Types.Int64, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	st := schema.MustGroup(schema.NewGroupNode("st", rep.Optional, schema.FieldList{legacy("old"), utc("utc")}, -1))
	root := schema.MustGroup(schema.NewGroupNode("schema", rep.Required, schema.FieldList{legacy("old"), utc("utc"), st}, -1))
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root)
	rg := w.AppendRowGroup()
	const us = 1_700_000_000_123_456
	for _, def := range [][]int16{{1}, {1}, {2}, {2}} {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch([]int64{us}, def, nil); err != nil {
			t.Fatal(err)
		}
	}
	tb := closeAndOpen(t, "legacy.parquet", &buf, rg, w)
	defer tb.Close()
	want := "old TIMESTAMP, utc TIMESTAMP WITH TIME ZONE, st STRUCT(old TIMESTAMP, utc TIMESTAMP WITH TIME ZONE)"
	if got := schemaString(tb.Schema()); got != want {
		t.Fatalf("schema %q, want %q", got, want)
	}
	var got []string
	for _, v := range readAll(t, tb, index.ScanSpec{Cols: []int{0, 1, 2}, Limit: -1})[0] {
		got = append(got, v.String())
	}
	if want := "2023-11-14 22:13:20.123456|2023-11-14 22:13:20.123456+00|{'old': '2023-11-14 22:13:20.123456', 'utc': '2023-11-14 22:13:20.123456+00'}"; strings.Join(got, "|") != want {
		t.Fatalf("row %q, want %q", strings.Join(got, "|"), want)
	}
}
