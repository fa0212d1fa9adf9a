package ctable

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestDictCodes: a dictionary() column comes coded (one dictionary for the
// whole column) only when the scan's consumer asked and the rule is on;
// values and NULLs are the same either way.
func TestDictCodes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.b2d")
	schema := columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "city", Type: columnar.TVarchar, Nullable: true}}
	w, err := Create(path, schema, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 3000
	cities := []string{"Lyon", "Paris", "Nice", "Brest"}
	bt := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, rows)
	bt.Len = rows
	for i := range rows {
		bt.Cols[0].Ints[i] = int64(i)
		if i%5 == 4 {
			bt.Cols[1].SetNull(i, rows)
		} else {
			bt.Cols[1].Bytes[i] = []byte(cities[i%4])
		}
	}
	if err := w.Write(bt); err != nil {
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
	for _, tc := range []struct {
		name  string
		spec  index.ScanSpec
		coded bool
	}{
		{"asked", index.ScanSpec{Cols: []int{0, 1}, Limit: -1, DictCols: []int{1}}, true},
		{"not asked", index.ScanSpec{Cols: []int{0, 1}, Limit: -1}, false},
		{"rule off", index.ScanSpec{Cols: []int{0, 1}, Limit: -1, DictCols: []int{1}, Off: index.RuleSet(0).With(index.DictCodes)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tb.Scan(context.Background(), tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			seen := 0
			for {
				b, err := r.Next(context.Background())
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				v := b.Cols[1]
				if (v.Dict != nil) != tc.coded {
					t.Fatalf("coded = %v, want %v", v.Dict != nil, tc.coded)
				}
				for k := 0; k < b.Live(); k++ {
					i := b.Row(k)
					id := int(b.Cols[0].Ints[i])
					got := v.Value(i)
					if id%5 == 4 {
						if !got.Null {
							t.Fatalf("row %d: %v, want NULL", id, got)
						}
					} else if got.S != cities[id%4] {
						t.Fatalf("row %d: %v, want %s", id, got, cities[id%4])
					}
					seen++
				}
			}
			if seen != rows {
				t.Fatalf("%d rows", seen)
			}
		})
	}
}

// TestAllCodes: the branch-free copy of little-endian codes reports true
// exactly when every code is in [0, nd), at every length (pairs and an odd
// tail) and wherever the offending code sits.
func TestAllCodes(t *testing.T) {
	for n := 0; n <= 9; n++ {
		vals := make([]int32, n)
		for i := range vals {
			vals[i] = int32((i * 7) % 5) // 0..4
		}
		raw := make([]byte, 4*n)
		put := func() {
			for i, v := range vals {
				raw[4*i], raw[4*i+1], raw[4*i+2], raw[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
			}
		}
		put()
		codes := make([]int32, n)
		if !allCodes(codes, raw, 5) {
			t.Fatalf("n=%d: codes below 5 refused", n)
		}
		for i := range vals {
			if codes[i] != vals[i] {
				t.Fatalf("n=%d: code %d = %d, want %d", n, i, codes[i], vals[i])
			}
		}
		for bad := range n {
			for _, v := range []int32{5, -1, 1 << 20} {
				old := vals[bad]
				vals[bad] = v
				put()
				if allCodes(codes, raw, 5) {
					t.Fatalf("n=%d: code %d at %d taken", n, v, bad)
				}
				vals[bad] = old
			}
		}
	}
}
