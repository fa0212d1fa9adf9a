package parquet

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestListReader: lists of numbers, booleans and strings read by listReader equal
// what arrow-go's record reader gives, with NULL and empty lists, NULL
// elements, rows longer than listReader's level buffer, output batches of
// 1, 7 and 2048 rows, and filters that skip rows (late materialization)
// under every rule combination. The file is written by our writer from
// values drawn with a printed seed.
func TestListReader(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	elems := []columnar.Type{columnar.TInt32, columnar.TInt64, columnar.TFloat64, columnar.TBool, columnar.TUint8, columnar.TUint64,
		columnar.TVarchar, columnar.TBlob}
	sc := columnar.Schema{{Name: "id", Type: columnar.TInt64}}
	for i, et := range elems {
		sc = append(sc, columnar.Field{Name: string(rune('a' + i)), Type: columnar.ListOf(et), Nullable: true})
	}
	const rows = 6000
	types := make([]columnar.Type, len(sc))
	for i, f := range sc {
		types[i] = f.Type
	}
	path := filepath.Join(t.TempDir(), "lists.parquet")
	w, err := NewWriter(path, sc, WriterOptions{RowGroupRows: 2500})
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch(types, rows)
	b.Len = rows
	for r := range rows {
		b.Cols[0].Ints[r] = int64(r)
		for c, et := range elems {
			var v columnar.Value
			switch k := rng.IntN(20); {
			case k == 0:
				v = columnar.NullValue(sc[c+1].Type)
			case k == 1:
				v = columnar.Value{Type: sc[c+1].Type}
			default:
				n := rng.IntN(6)
				if r == 1234 {
					n = 10_000 // longer than a level buffer
				}
				v = columnar.Value{Type: sc[c+1].Type, Elems: make([]columnar.Value, n)}
				for j := range v.Elems {
					x := rng.Int64N(300) - 50
					switch {
					case rng.IntN(8) == 0:
						v.Elems[j] = columnar.NullValue(et)
					case et.ID == columnar.Float64:
						v.Elems[j] = columnar.FloatValue(et, float64(x)/4)
					case et.ID == columnar.Bool:
						v.Elems[j] = columnar.BoolValue(x%2 == 0)
					case et.ID == columnar.Uint8:
						v.Elems[j] = columnar.IntValue(et, x&0xff)
					case et.ID == columnar.Uint64:
						v.Elems[j] = columnar.UintValue(uint64(x) << 1)
					case et.ID == columnar.Varchar || et.ID == columnar.Blob:
						v.Elems[j] = columnar.Value{Type: et, S: strings.Repeat("é", int(x&7))}
					default:
						v.Elems[j] = columnar.IntValue(et, x)
					}
				}
			}
			b.Cols[c+1].SetValue(r, rows, v)
		}
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	for i := 1; i < len(sc); i++ {
		if tb.cols[i].nested == nil || tb.cols[i].nested.list == nil {
			t.Fatalf("column %s is not read by listReader", sc[i].Type)
		}
	}
	all := allColumns(len(sc))
	read := func(fast bool, spec index.ScanSpec) [][]columnar.Value {
		defer func(old bool) { listFast = old }(listFast)
		listFast = fast
		return readAll(t, tb, spec)
	}
	defer func(old int64) { batchRows = old }(batchRows)
	filter := []index.Pred{{Col: 0, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 4000)}}}
	for _, br := range []int64{1, 7, 2048} {
		batchRows = br
		for _, m := range scanModes {
			for _, f := range [][]index.Pred{nil, filter} {
				spec := m.spec(all, f, 1, nil)
				want, got := read(false, spec), read(true, spec)
				if len(got) != len(want) {
					t.Fatalf("batch %d %s filter %v: %d rows, want %d", br, m.name, f != nil, len(got), len(want))
				}
				for r := range want {
					for c := range want[r] {
						if got[r][c].String() != want[r][c].String() {
							t.Fatalf("batch %d %s filter %v: row %d col %s: %s, want %s", br, m.name, f != nil, r, sc[c].Name, got[r][c], want[r][c])
						}
					}
				}
			}
			if br == 1 {
				break // every mode at batch 1 would take long; one suffices
			}
		}
	}
}
