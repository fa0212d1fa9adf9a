package parquet

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ownCols are dictionary-less columns codeReader decodes itself (ownPages):
// BOOLEANs (REQUIRED and OPTIONAL), PLAIN numbers of every width, PLAIN
// strings and blobs (plainbytes.go). Each
// value is a formula of the row, so reads are checked against the formula,
// not against another decoder.
func ownCols() []tcol {
	return []tcol{
		{name: "b", typ: arrow.FixedWidthTypes.Boolean, want: columnar.TBool,
			app: func(bd array.Builder, i int) { bd.(*array.BooleanBuilder).Append(ownBool(i)) },
			val: func(i int) columnar.Value { return columnar.BoolValue(ownBool(i)) }},
		{name: "nb", typ: arrow.FixedWidthTypes.Boolean, want: columnar.TBool, nullable: true,
			app: func(bd array.Builder, i int) { bd.(*array.BooleanBuilder).Append(i%3 == 0) },
			val: func(i int) columnar.Value { return columnar.BoolValue(i%3 == 0) }},
		{name: "f", typ: arrow.PrimitiveTypes.Float64, want: columnar.TFloat64, nullable: true,
			app: func(bd array.Builder, i int) { bd.(*array.Float64Builder).Append(float64(i)*0.5 - 1000) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat64, float64(i)*0.5-1000) }},
		{name: "u", typ: arrow.PrimitiveTypes.Int32, want: columnar.TInt32,
			app: func(bd array.Builder, i int) { bd.(*array.Int32Builder).Append(ownU(i)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt32, int64(ownU(i))) }},
		{name: "l", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(bd array.Builder, i int) { bd.(*array.Int64Builder).Append(int64(i)*1_000_000_007 - 5) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt64, int64(i)*1_000_000_007-5) }},
		{name: "g", typ: arrow.PrimitiveTypes.Float32, want: columnar.TFloat32, nullable: true,
			app: func(bd array.Builder, i int) { bd.(*array.Float32Builder).Append(float32(i) / 4) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat32, float64(float32(i)/4)) }},
		{name: "s", typ: arrow.BinaryTypes.String, want: columnar.TVarchar,
			app: func(bd array.Builder, i int) { bd.(*array.StringBuilder).Append(ownStr(i)) },
			val: func(i int) columnar.Value { return columnar.StringValue(ownStr(i)) }},
		{name: "ns", typ: arrow.BinaryTypes.String, want: columnar.TVarchar, nullable: true,
			app: func(bd array.Builder, i int) { bd.(*array.StringBuilder).Append(ownStr(i + 1)) },
			val: func(i int) columnar.Value { return columnar.StringValue(ownStr(i + 1)) }},
		{name: "bl", typ: arrow.BinaryTypes.Binary, want: columnar.TBlob, nullable: true,
			app: func(bd array.Builder, i int) { bd.(*array.BinaryBuilder).Append([]byte(ownStr(2 * i))) },
			val: func(i int) columnar.Value { return columnar.Value{Type: columnar.TBlob, S: ownStr(2 * i)} }},
	}
}

// ownStr is u's digits repeated i%5 times: empty for every fifth row,
// otherwise 1 to 24 bytes, so that values straddle page and batch ends at
// every offset.
func ownStr(i int) string { return strings.Repeat(strconv.Itoa(int(ownU(i))), i%5) }

// ownBool is a pattern with runs and isolated values, of no period that
// divides 8 (so PLAIN's bytes differ).
func ownBool(i int) bool { return i%13 < 5 || i%7 == 0 }

// ownU scatters over [0, 100003): u < k keeps about k/100003 of the rows,
// spread over every page.
func ownU(i int) int32 { return int32(i * 7919 % 100_003) }

// ownWant is the row i of ownCols.
func ownWant(cols []tcol, i int) []columnar.Value {
	row := make([]columnar.Value, len(cols))
	for c, tc := range cols {
		if tc.nullable && isNull(i) {
			row[c] = columnar.NullValue(tc.want)
		} else {
			row[c] = tc.val(i)
		}
	}
	return row
}

// TestOwnPages reads BOOLEAN, PLAIN number and PLAIN BYTE_ARRAY chunks
// without a dictionary,
// in DataPage V1 and V2 files, whole and
// under filters that seek and skip over pages, through codeReader and
// through arrow-go's readers, each checked against the values written.
func TestOwnPages(t *testing.T) {
	const n = 30_011
	cols := ownCols()
	for _, pv := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		path := filepath.Join(t.TempDir(), "own.parquet")
		// (arrow-go's RLE BOOLEAN writer is not used: the values it wrote
		// differed from its input, as arrow-go, DuckDB and codeReader all
		// read them; TestRLEBools covers RLE pages.)
		writeArrow(t, path, cols, 0, n, 7_000, false, parquet.WithDictionaryDefault(false),
			parquet.WithDataPageVersion(pv), parquet.WithPageIndexEnabled(true), parquet.WithDataPageSize(256), parquet.WithBatchSize(128))
		tb, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		// Every chunk is one codeReader takes, and V2 booleans are RLE.
		md := tb.files[0].meta
		for rg := range md.NumRowGroups() {
			for c := range cols {
				cc, err := md.RowGroup(rg).ColumnChunk(c)
				if err != nil {
					t.Fatal(err)
				}
				if !ownPages(&tb.cols[c], cc.Encodings()) {
					t.Fatalf("%v: row group %d column %s: encodings %v not codeReader's", pv, rg, cols[c].name, cc.Encodings())
				}
			}
		}
		for c := range 2 { // the BOOLEAN columns have several PLAIN pages
			pr, err := tb.files[0].rdr.RowGroup(1).GetColumnPageReader(c)
			if err != nil {
				t.Fatal(err)
			}
			pages := 0
			for pr.Next() {
				pg, ok := pr.Page().(file.DataPage)
				if !ok || parquet.Encoding(pg.Encoding()) != parquet.Encodings.Plain {
					t.Fatalf("%v column %s: page %T encoding %v, want PLAIN", pv, cols[c].name, pr.Page(), pg.Encoding())
				}
				pages++
			}
			if pages < 2 {
				t.Fatalf("column %s: %d pages (want several)", cols[c].name, pages)
			}
		}
		filters := []struct {
			name string
			keep func(i int) bool
			pred []index.Pred
		}{
			{"all", func(int) bool { return true }, nil},
			{"u<3000", func(i int) bool { return ownU(i) < 3000 },
				[]index.Pred{{Col: 3, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 3000)}}}},
			{"u<60000", func(i int) bool { return ownU(i) < 60000 },
				[]index.Pred{{Col: 3, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 60000)}}}},
			{"b=true", func(i int) bool { return ownBool(i) },
				[]index.Pred{{Col: 0, Op: index.Eq, Vals: []columnar.Value{columnar.BoolValue(true)}}}},
			{"nb=false", func(i int) bool { return !isNull(i) && i%3 != 0 },
				[]index.Pred{{Col: 1, Op: index.Eq, Vals: []columnar.Value{columnar.BoolValue(false)}}}},
			{"l in a few pages", func(i int) bool { return i >= 12_345 && i < 12_400 || i > 29_990 },
				[]index.Pred{{Col: 4, Op: index.Or, Any: []index.Pred{
					{Col: 4, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 12_345*1_000_000_007-5), columnar.IntValue(columnar.TInt64, 12_399*1_000_000_007-5)}},
					{Col: 4, Op: index.Gt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 29_990*1_000_000_007-5)}}}}}},
		}
		var want [][]columnar.Value
		for _, f := range filters {
			want = want[:0]
			for i := range n {
				if f.keep(i) {
					want = append(want, ownWant(cols, i))
				}
			}
			for _, own := range []bool{true, false} {
				t.Run(fmt.Sprintf("%v/%s/own=%v", pv, f.name, own), func(t *testing.T) {
					defer func(old bool) { ownDecoder = old }(ownDecoder)
					ownDecoder = own
					got := readAll(t, tb, index.ScanSpec{Cols: allColumns(len(cols)), Filter: f.pred, Limit: -1, Threads: 1})
					if len(got) != len(want) {
						t.Fatalf("%d rows, want %d", len(got), len(want))
					}
					for r := range got {
						for c := range cols {
							if !sameValue(got[r][c], want[r][c]) {
								t.Fatalf("row %d column %s: %v, want %v", r, cols[c].name, got[r][c], want[r][c])
							}
						}
					}
				})
			}
		}
	}
}

// TestUnpackBools checks the table expansion of PLAIN booleans against the
// bit-by-bit definition, at every length around a byte boundary.
func TestUnpackBools(t *testing.T) {
	src := []byte{0x00, 0xff, 0xa5, 0x3c, 0x01, 0x80, 0x7e, 0x5a, 0xc3}
	for n := 0; n <= 8*len(src); n++ {
		out := make([]bool, n+1)
		out[n] = true // a sentinel past the end
		unpackBools(out[:n], src)
		for i := range n {
			if want := src[i/8]>>(i%8)&1 == 1; out[i] != want {
				t.Fatalf("n=%d: value %d = %v, want %v", n, i, out[i], want)
			}
		}
		if !out[n] {
			t.Fatalf("n=%d: wrote past the end", n)
		}
	}
}

// TestRLEBools reads RLE-encoded BOOLEAN pages: the corpus's file (values
// as DuckDB 1.5.6 reads them: SELECT * FROM 'rle_boolean_encoding.parquet')
// and a page built here of RLE runs and bit-packed groups, split over
// batches at odd places.
func TestRLEBools(t *testing.T) {
	t.Run("corpus", func(t *testing.T) {
		path := filepath.Join(corpusDir(t), "files", "rle_boolean_encoding.parquet")
		_, rows, _ := corpusText(t, path)
		const want = "true false NULL true true false false true true true false false true true false NULL " +
			"true true false false true true false NULL true true false false true true true false false false " +
			"false true true false NULL true true false false true true true false false NULL true true false " +
			"false true true true false true true false NULL true true false false true true true"
		if got := strings.Join(rows, " "); got != want {
			t.Fatalf("values\n%s\nwant (DuckDB)\n%s", got, want)
		}
	})
	t.Run("built", func(t *testing.T) {
		// 20 trues (RLE), 2 bit-packed groups (0xa5, 0x3c), 5 falses (RLE),
		// 1 bit-packed group of which 3 values are used (0x06).
		hyb := []byte{20 << 1, 1, 2<<1 | 1, 0xa5, 0x3c, 5 << 1, 0, 1<<1 | 1, 0x06}
		var want []bool
		for range 20 {
			want = append(want, true)
		}
		for _, b := range []byte{0xa5, 0x3c} {
			for i := range 8 {
				want = append(want, b>>i&1 == 1)
			}
		}
		for range 5 {
			want = append(want, false)
		}
		want = append(want, false, true, true)
		data := binary.LittleEndian.AppendUint32(nil, uint32(len(hyb)))
		data = append(data, hyb...)
		fake := &fakePager{pages: []file.Page{file.NewDataPageV1(memory.NewBufferBytes(data), int32(len(want)),
			parquet.Encodings.RLE, parquet.Encodings.RLE, parquet.Encodings.RLE, int32(len(data)))}}
		node, err := schema.NewPrimitiveNode("x", parquet.Repetitions.Required, parquet.Types.Boolean, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		c, err := mapColumn(schema.NewColumn(node, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		d := &decoder{c: &c, coded: true}
		d.cr.reset(&countingPager{PageReader: fake, phys: parquet.Types.Boolean}, &c, int64(len(want)), false, 0)
		defer d.close()
		v := columnar.NewVector(columnar.TBool, 64)
		var got []bool
		for _, n := range []int{7, 19, 1, 100} {
			v.Reset(n)
			k, _, _, err := d.read(v, n, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, v.Bools[:k]...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("values\n%v\nwant\n%v", got, want)
		}
	})
}

// BenchmarkScanPlain scans dictionary-less BOOLEAN and PLAIN number columns
// (events' flag, price with 1 in 7 NULL, user_id) in 122,880-row row groups
// of 64 KiB Snappy pages, through codeReader and through arrow-go's
// decoders (cpu-ns/row is the figure to compare).
func BenchmarkScanPlain(b *testing.B) {
	const n = 1 << 20
	cols := ownCols()[:4]
	path := filepath.Join(b.TempDir(), "plain.parquet")
	writeArrow(b, path, cols, 0, n, 122_880, false, parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(64<<10))
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	benchOwnVsArrow(b, tb, cols, n)
}

// benchOwnVsArrow scans each of cols (n rows) of tb with b2sql's own page
// reader and with arrow-go's, reporting CPU time per row.
func benchOwnVsArrow(b *testing.B, tb *Table, cols []tcol, n int) {
	defer func(old bool) { ownDecoder = old }(ownDecoder)
	for c, col := range cols {
		for _, ours := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/codeReader=%v", col.name, ours), func(b *testing.B) {
				ownDecoder = ours
				cpu0 := cpuTime()
				for b.Loop() {
					if rows := scanRows(b, tb, c); rows != n {
						b.Fatalf("%d rows", rows)
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/(float64(b.N)*float64(n)), "cpu-ns/row")
			})
		}
	}
}
