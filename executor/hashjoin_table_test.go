package executor

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// After finish, every key's rows come out in insertion order, across table
// growth (5000 keys from a 1024-slot start), with NULL probe keys marked
// and absent keys matching nothing.
func TestIntTableGroupsRowsInOrder(t *testing.T) {
	tab := newIntTable(0)
	// Row r has key r%5000 and is inserted unless r%7 == 3 (a NULL key
	// skipped by the caller): key k's rows are k, k+5000, k+10000 minus
	// those skipped.
	for r := range int32(15000) {
		if r%7 != 3 {
			tab.insert(int64(r%5000)-2500, r)
		}
	}
	tab.finish()
	v := columnar.NewVector(columnar.TInt64, 4)
	copy(v.Ints, []int64{-2500, 4999, 2499, 0})
	v.SetNull(3, 4)
	lnull := make([]bool, 4)
	pl, pr := tab.probeInts(v, []int{0, 1, 2, 3}, lnull, nil, nil)
	// key -2500 = rows 0, 5000, 10000 (5000%7 = 2, 10000%7 = 4: none
	// skipped); 4999 is absent; key 2499 = rows 4999, 9999, 14999
	// (4999%7 = 1, 9999%7 = 3: skipped, 14999%7 = 5).
	got := fmt.Sprint(pl, pr, lnull)
	want := fmt.Sprint([]int32{0, 0, 0, 2, 2}, []int32{0, 5000, 10000, 4999, 14999}, []bool{false, false, false, true})
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
