package ctable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/formats/b2"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ndDir holds the b2nd fixtures committed by package b2.
const ndDir = "../testdata"

func openArray(t *testing.T, name string) *ArrayTable {
	t.Helper()
	tb, err := OpenArray(filepath.Join(ndDir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func i64(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }

// TestArrayFixtures checks every element of the nd_* fixtures against the
// formulas of the fixtures README §2.
func TestArrayFixtures(t *testing.T) {
	cases := []struct {
		file   string
		schema string
		n      int
		want   func(i int) []any // values of one row, in schema order
	}{
		{"nd_i1_1d.b2nd", "nd_i1_1d TINYINT", 10000, func(i int) []any { return []any{int64(i%256 - 128)} }},
		{"nd_i2_1d.b2nd", "nd_i2_1d SMALLINT", 10000, func(i int) []any { return []any{int64(i*3 - 15000)} }},
		{"nd_u2_1d.b2nd", "nd_u2_1d USMALLINT", 10000, func(i int) []any { return []any{int64((i * 5) & 0xFFFF)} }},
		{"nd_u4_1d.b2nd", "nd_u4_1d UINTEGER", 10000, func(i int) []any { return []any{int64(uint32(i * 100000))} }},
		{"nd_u8_1d.b2nd", "nd_u8_1d UBIGINT", 10000, func(i int) []any {
			return []any{uint64(i)*1000000007 + 9000000000000000000}
		}},
		{"nd_i8_1d.b2nd", "nd_i8_1d BIGINT", 10000, func(i int) []any { return []any{int64(-i * 123456789)} }},
		{"nd_f4_1d.b2nd", "nd_f4_1d FLOAT", 10000, func(i int) []any {
			return []any{float64(float32(float32(i)*0.125) - 50.0)}
		}},
		{"nd_c16_1d.b2nd", "nd_c16_1d_re DOUBLE, nd_c16_1d_im DOUBLE", 10000, func(i int) []any {
			return []any{float64(i), -float64(i)}
		}},
		{"nd_f8_pystyle_zstd5.b2nd", "nd_f8_pystyle_zstd5 DOUBLE", 1000, func(i int) []any { return []any{float64(i) * 1.5} }},
		{"nd_bool_1d_blosclz_bitshuffle.b2nd", "nd_bool_1d_blosclz_bitshuffle BOOLEAN", 1000, func(i int) []any {
			return []any{i%3 == 0 || i%7 == 0}
		}},
		{"nd_U4_1d_zstd.b2nd", "nd_U4_1d_zstd VARCHAR", 500, func(i int) []any {
			s := strconv.Itoa((i * 7) % 10000)
			if len(s) > 4 {
				s = s[:4]
			}
			return []any{s}
		}},
		{"nd_U80_pystyle_shufflemeta4.b2nd", "nd_U80_pystyle_shufflemeta4 VARCHAR", 300, func(i int) []any {
			return []any{fmt.Sprintf("row-%d-\u00e9\U0001F600", i)}
		}},
		{"nd_S6_2d_lz4hc.b2nd", "dim0 BIGINT, dim1 BIGINT, nd_S6_2d_lz4hc VARCHAR", 600, func(i int) []any {
			a, b := i/30, i%30
			return []any{int64(a), int64(b), fmt.Sprintf("r%02dc%02d", a, b)}
		}},
		{"nd_i32_2d_edges_zstd.b2nd", "dim0 BIGINT, dim1 BIGINT, nd_i32_2d_edges_zstd INTEGER", 37 * 53, func(i int) []any {
			a, b := i/53, i%53
			return []any{int64(a), int64(b), int64(a*1000 + b)}
		}},
		{"nd_u8_2d_sparse_zlib.b2nd", "dim0 BIGINT, dim1 BIGINT, nd_u8_2d_sparse_zlib UTINYINT", 10000, func(i int) []any {
			a, b := i/100, i%100
			return []any{int64(a), int64(b), int64((a + 2*b) % 256)}
		}},
		{"nd_f64_3d_lz4.b2nd", "dim0 BIGINT, dim1 BIGINT, dim2 BIGINT, nd_f64_3d_lz4 DOUBLE", 1320, func(i int) []any {
			a, b, c := i/132, i/12%11, i%12
			return []any{int64(a), int64(b), int64(c), float64(a*10000+b*100+c) + 0.5}
		}},
		{"nd_zeros_f4_2d.b2nd", "dim0 BIGINT, dim1 BIGINT, nd_zeros_f4_2d FLOAT", 10000, func(i int) []any {
			return []any{int64(i / 100), int64(i % 100), 0.0}
		}},
		{"nd_scalar_f8_0d.b2nd", "nd_scalar_f8_0d DOUBLE", 1, func(i int) []any { return []any{42.5} }},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			tb := openArray(t, tc.file)
			if got := schemaString(tb.Schema()); got != tc.schema {
				t.Fatalf("schema %q, want %q", got, tc.schema)
			}
			if tb.RowCount() != int64(tc.n) {
				t.Fatalf("RowCount %d, want %d", tb.RowCount(), tc.n)
			}
			for _, threads := range []int{1, 4} {
				rows := scanAll(t, tb, index.ScanSpec{Threads: threads})
				if len(rows) != tc.n {
					t.Fatalf("threads=%d: %d rows, want %d", threads, len(rows), tc.n)
				}
				// Unordered mode may interleave chunks: index rows by position
				// for N-d arrays, or sort by nothing for 1-D (threads=1 only).
				if threads > 1 && tb.ndims == 0 {
					continue
				}
				for k, row := range rows {
					i := k
					if tb.ndims > 0 {
						i = 0
						for d := 0; d < tb.ndims; d++ {
							i = i*int(tb.Shape()[d]) + int(row[d].I)
						}
					}
					checkRow(t, fmt.Sprintf("row %d", i), row, tc.want(i))
				}
			}
		})
	}
}

func schemaString(s columnar.Schema) string {
	out := ""
	for i, f := range s {
		if i > 0 {
			out += ", "
		}
		out += f.Name + " " + f.Type.String()
	}
	return out
}

// checkRow compares values with plain Go expectations: int64, uint64,
// float64 (NaN matches NaN), bool, string, []byte, nil (NULL).
func checkRow(t *testing.T, where string, got []columnar.Value, want []any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", where, len(got), len(want))
	}
	for c, w := range want {
		g := got[c]
		ok := false
		switch x := w.(type) {
		case nil:
			ok = g.Null
		case int64:
			ok = !g.Null && g.I == x && g.Type.Phys() == columnar.PhysInt
		case uint64:
			ok = !g.Null && uint64(g.I) == x && g.Type.Phys() == columnar.PhysUint
		case float64:
			ok = !g.Null && (g.F == x || math.IsNaN(g.F) && math.IsNaN(x))
		case bool:
			ok = !g.Null && g.Bool() == x
		case string:
			ok = !g.Null && g.S == x
		case []byte:
			ok = !g.Null && g.S == string(x)
		}
		if !ok {
			t.Fatalf("%s col %d: got %v (%s), want %v", where, c, g, g.Type, w)
		}
	}
}

func TestArrayDimPruning(t *testing.T) {
	tb := openArray(t, "nd_i32_2d_edges_zstd.b2nd") // (37, 53), chunks (16, 20): 3×3
	p := index.Pred{Col: 0, Op: index.Between, Vals: []columnar.Value{i64(16), i64(20)}}
	if s := tb.SupportsFilter(p); s != index.Inexact {
		t.Fatalf("SupportsFilter = %v", s)
	}
	if s := tb.SupportsFilter(index.Pred{Col: 2, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt32, 1)}}); s != index.Unsupported {
		t.Fatalf("value SupportsFilter = %v", s)
	}
	var st index.ScanStats
	rows := scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st, Threads: 2})
	if st.UnitsTotal != 9 || st.UnitsSkipped != 6 || st.UnitName != "chunks" {
		t.Fatalf("stats %+v", st)
	}
	// The middle chunk row covers dim0 16..31: all 16*53 elements.
	if len(rows) != 16*53 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if r[0].I < 16 || r[0].I > 31 || r[2].I != r[0].I*1000+r[1].I {
			t.Fatalf("row %v", r)
		}
	}
	if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}); d != "chunks=3/9 (positions: dim0 BETWEEN 16 AND 20)" {
		t.Fatalf("DescribeScan %q", d)
	}
	// NoPrune reads everything.
	st = index.ScanStats{}
	rows = scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st, NoPrune: true})
	if len(rows) != 37*53 || st.UnitsSkipped != 0 {
		t.Fatalf("NoPrune: %d rows, %+v", len(rows), st)
	}
}

func TestArrayLimit(t *testing.T) {
	tb := openArray(t, "nd_i8_1d.b2nd")
	rows := scanAll(t, tb, index.ScanSpec{Limit: 4005, Threads: 4})
	if len(rows) != 4005 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		checkRow(t, fmt.Sprint(i), r, []any{int64(-i * 123456789)})
	}
}

func TestArrayMetadata(t *testing.T) {
	tb := openArray(t, "nd_f8_pystyle_zstd5.b2nd")
	got := map[string]string{}
	for _, e := range tb.Metadata() {
		got[e.Key] = e.Value
	}
	want := map[string]string{"name": `"fixture-v1"`, "answer": "42", "shape_tuple": "[1, 2, 3]", "dict": `{"a": 1, "b": "x"}`}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("vlmeta %s = %q, want %q", k, got[k], v)
		}
	}
}

func TestArrayUnsupportedDType(t *testing.T) {
	dir := t.TempDir()
	for _, dt := range []string{"<f2", ">i4", "<M8[Y]"} {
		p := filepath.Join(dir, "a.b2nd")
		dtt := 2
		if dt != "<f2" {
			dtt = map[string]int{">i4": 4, "<M8[Y]": 8}[dt]
		}
		if err := b2.WriteArray(p, dt, []int64{4}, make([]byte, 4*dtt), nil); err != nil {
			t.Fatalf("%s: %v", dt, err)
		}
		_, err := OpenArray(p)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), dt) {
			t.Errorf("%s: %v", dt, err)
		}
	}
	// A structured dtype gives one column per field.
	p := filepath.Join(dir, "s.b2nd")
	rec := []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 0, 0}
	if err := b2.WriteArray(p, "[('lo', '<i8'), ('hi', '<f8'), ('tag', 'S4')]", []int64{1}, rec, nil); err != nil {
		t.Fatal(err)
	}
	tb, err := OpenArray(p)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if s := schemaString(tb.Schema()); s != "lo BIGINT, hi DOUBLE, tag VARCHAR" {
		t.Fatalf("schema %s", s)
	}
	rows := scanAll(t, tb, index.ScanSpec{})
	checkRow(t, "0", rows[0], []any{int64(1), math.Float64frombits(2), "ab"})
}

// TestArrayLargeChunks reads a chunk much larger than a batch in pieces.
func TestArrayLargeChunks(t *testing.T) {
	const n = 250_000
	data := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(data[8*i:], uint64(i*3))
	}
	p := filepath.Join(t.TempDir(), "big.b2nd")
	if err := b2.WriteArray(p, "<i8", []int64{n}, data, &b2.ArrayOptions{ChunkShape: []int{100_000}, BlockShape: []int{1000}}); err != nil {
		t.Fatal(err)
	}
	tb, err := OpenArray(p)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	rows := scanAll(t, tb, index.ScanSpec{Threads: 1})
	if len(rows) != n {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if r[0].I != int64(i*3) {
			t.Fatalf("row %d = %v", i, r[0])
		}
	}
	if c := scanAll(t, tb, index.ScanSpec{Cols: []int{}, Threads: 2}); len(c) != n {
		t.Fatalf("count %d", len(c))
	}
}
