package hashtab

import "testing"

// Values added in threes, straddling block ends, come out flat in order:
// blocks of 128, 256, … 64K values, then three more of 64K and a bit.
func TestBlockListFlat(t *testing.T) {
	var l BlockList[int64]
	const n = (2*blockLen - firstBlockLen) + 3*blockLen + 5
	for i := int64(0); i < n; i += 3 {
		l.Add([]int64{i, i + 1, i + 2}[:min(3, n-i)]...)
	}
	if l.N != n || len(l.Blocks) != 14 {
		t.Fatalf("n %d in %d blocks, want %d in 14", l.N, len(l.Blocks), n)
	}
	got := l.Flat()
	if len(got) != n {
		t.Fatalf("flat: %d values, want %d", len(got), n)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("value %d is %d", i, v)
		}
	}
	if l.N != 0 || l.Blocks != nil || len(l.Flat()) != 0 {
		t.Fatal("flat did not empty the list")
	}
}

// Values pushed one at a time land as added ones do: the same blocks, in
// order.
func TestBlockListPush(t *testing.T) {
	var pushed, added BlockList[int32]
	const n = 3*blockLen + 7
	for i := range int32(n) {
		pushed.Push(i)
		added.Add(i)
	}
	if pushed.N != n || len(pushed.Blocks) != len(added.Blocks) {
		t.Fatalf("pushed %d in %d blocks, added in %d", pushed.N, len(pushed.Blocks), len(added.Blocks))
	}
	for i, v := range pushed.Flat() {
		if v != int32(i) {
			t.Fatalf("value %d is %d", i, v)
		}
	}
}

// growth says what an Add allocates: the bytes of the blocks it starts,
// from empty, within a block, across several.
func TestBlockListGrowth(t *testing.T) {
	var l BlockList[int64]
	for _, n := range []int{1, 5, 122, 1, 1000, 3 * blockLen, 7} {
		want := l.growth(n, 8)
		before := l.bytes(8)
		l.Add(make([]int64, n)...)
		if got := l.bytes(8) - before; got != want {
			t.Fatalf("adding %d to %d values took %d bytes, growth said %d", n, l.N-n, got, want)
		}
	}
}
