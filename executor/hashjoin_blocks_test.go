package executor

import "testing"

// Values added in threes, straddling block ends, come out flat in order:
// blocks of 1K, 2K, … 64K values, then three more of 64K and a bit.
func TestBlockListFlat(t *testing.T) {
	var l blockList[int64]
	const n = (2*blockLen - firstBlockLen) + 3*blockLen + 5
	for i := int64(0); i < n; i += 3 {
		l.add([]int64{i, i + 1, i + 2}[:min(3, n-i)]...)
	}
	if l.n != n || len(l.blocks) != 11 {
		t.Fatalf("n %d in %d blocks, want %d in 11", l.n, len(l.blocks), n)
	}
	got := l.flat()
	if len(got) != n {
		t.Fatalf("flat: %d values, want %d", len(got), n)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("value %d is %d", i, v)
		}
	}
	if l.n != 0 || l.blocks != nil || len(l.flat()) != 0 {
		t.Fatal("flat did not empty the list")
	}
}

// Values pushed one at a time land as added ones do: the same blocks, in
// order.
func TestBlockListPush(t *testing.T) {
	var pushed, added blockList[int32]
	const n = 3*blockLen + 7
	for i := range int32(n) {
		pushed.push(i)
		added.add(i)
	}
	if pushed.n != n || len(pushed.blocks) != len(added.blocks) {
		t.Fatalf("pushed %d in %d blocks, added in %d", pushed.n, len(pushed.blocks), len(added.blocks))
	}
	for i, v := range pushed.flat() {
		if v != int32(i) {
			t.Fatalf("value %d is %d", i, v)
		}
	}
}
