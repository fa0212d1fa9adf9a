package hashtab

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestIntervalKeys: intervals equal after normalization (a month as 30
// days, a day as 24 hours) get one id, alone or beside another column, and
// Keys gives back the form of the row that created each id.
func TestIntervalKeys(t *testing.T) {
	iv := func(m, d int32, us int64) columnar.IntervalParts {
		return columnar.IntervalParts{Months: m, Days: d, Micros: us}
	}
	const hour = 3600 * columnar.MicrosPerSecond
	rows := []columnar.IntervalParts{
		iv(0, 0, 24*hour), iv(0, 1, 0), iv(1, 0, 0), iv(0, 30, 0), iv(0, 29, 24*hour), iv(0, 2, 0),
	}
	wantIDs := []int32{0, 0, 1, 1, 1, 2}
	wantKeys := []columnar.IntervalParts{rows[0], rows[2], rows[5]}
	for _, types := range [][]columnar.Type{{columnar.TInterval}, {columnar.TInt64, columnar.TInterval}} {
		for _, size := range batchSizes {
			m := New(types)
			c := len(types) - 1
			var got []int32
			for from := 0; from < len(rows); from += size {
				n := min(size, len(rows)-from)
				b := &columnar.Batch{Len: n}
				for k, typ := range types {
					v := columnar.NewVector(typ, n)
					for r := range n {
						if k == c {
							v.SetInterval(r, rows[from+r])
						} else {
							v.Ints[r] = 7
						}
					}
					b.Cols = append(b.Cols, v)
				}
				keys := make([]*columnar.Vector, len(types))
				for k := range keys {
					keys[k] = b.Cols[k]
				}
				gids := make([]int32, n)
				m.Assign(b, keys, gids)
				got = append(got, gids...)
			}
			if len(got) != len(wantIDs) {
				t.Fatalf("types %v size %d: %d ids", types, size, len(got))
			}
			for i := range got {
				if got[i] != wantIDs[i] {
					t.Fatalf("types %v size %d: ids %v, want %v", types, size, got, wantIDs)
				}
			}
			cols := make([]*columnar.Vector, len(types))
			for k, typ := range types {
				cols[k] = columnar.NewVector(typ, 0)
			}
			m.Keys(cols, 0, m.Len())
			for g, want := range wantKeys {
				if k := cols[c].IntervalAt(g); k != want {
					t.Errorf("types %v size %d: key %d = %+v, want %+v", types, size, g, k, want)
				}
			}
		}
	}
}
