package hashtab

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/b2sql/b2sql/columnar"
)

// TestStrMapTouched runs a string Map whose slots outgrow touchFrom, so
// that its plain batches load their slots ahead (touch.go) and its table
// grows through the touched rehash: every id, new row and key is checked
// against a Go map (checkMap), short (slot-held) and long (arena) keys
// mixed, each twice, in a shuffled order.
func TestStrMapTouched(t *testing.T) {
	const distinct = 80000
	if slots := 2 * distinct; slots*int(unsafe.Sizeof(strSlot{})) < 2*touchFrom {
		t.Fatalf("%d keys do not take the table past touchFrom", distinct)
	}
	var rows [][]columnar.Value
	for i := range distinct {
		k := fmt.Sprintf("k%d", i)
		if i%3 == 0 {
			k = fmt.Sprintf("a longer key, past sixteen bytes: %d", i)
		}
		v := str(k)
		rows = append(rows, []columnar.Value{v}, []columnar.Value{v})
	}
	checkShuffled(t, []columnar.Type{columnar.TVarchar}, rows, 3)
}

// TestIntMapTouched runs integer keys past touchFrom in both of intGroups'
// tables (a direct table of 300K small keys, a hash table of 100K large
// ones), shuffled, some twice, through checkMap.
func TestIntMapTouched(t *testing.T) {
	var rows [][]columnar.Value
	for i := range 300000 {
		rows = append(rows, []columnar.Value{i64(int64(i))})
		if i%3 == 0 {
			rows = append(rows, []columnar.Value{i64(1<<40 + int64(i)*7919)})
		}
		if i%5 == 0 {
			rows = append(rows, []columnar.Value{i64(int64(i))})
		}
	}
	checkShuffled(t, []columnar.Type{columnar.TInt64}, rows, 5)
}

// TestPackedTouched: two integer keys packed into one word (region, user)
// with 120K distinct pairs, so that the packed groups' hash table passes
// touchFrom.
func TestPackedTouched(t *testing.T) {
	var rows [][]columnar.Value
	for i := range 120000 {
		r := []columnar.Value{i64(int64(i % 20)), i64(int64(i/20) * 13)}
		rows = append(rows, r)
		if i%4 == 0 {
			rows = append(rows, r)
		}
	}
	checkShuffled(t, []columnar.Type{columnar.TInt64, columnar.TInt64}, rows, 6)
}

// checkShuffled is checkMap of rows in an order shuffled by seed, in
// batches of columnar.MaxBatch.
func checkShuffled(t *testing.T, types []columnar.Type, rows [][]columnar.Value, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(19, seed))
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	checkMap(t, types, rows, columnar.MaxBatch, nil, nil)
}
