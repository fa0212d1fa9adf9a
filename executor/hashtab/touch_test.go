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
	const distinct = 60000
	if slots := 2 * distinct; slots*int(unsafe.Sizeof(strSlot{})) < 2*touchFrom {
		t.Fatalf("%d keys do not take the table past touchFrom", distinct)
	}
	rng := rand.New(rand.NewPCG(19, 3))
	var rows [][]columnar.Value
	for i := range distinct {
		k := fmt.Sprintf("k%d", i)
		if i%3 == 0 {
			k = fmt.Sprintf("a longer key, past sixteen bytes: %d", i)
		}
		v := str(k)
		rows = append(rows, []columnar.Value{v}, []columnar.Value{v})
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	checkMap(t, []columnar.Type{columnar.TVarchar}, rows, columnar.MaxBatch, nil, nil)
}
