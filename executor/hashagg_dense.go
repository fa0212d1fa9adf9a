package executor

// denseTable is the direct table of a single integer GROUP BY key: slot v
// holds the group id + 1 of key v (0 = none yet). Up to 64Ki keys it is
// one slice grown by doubling; past that it grows by whole pages of 64Ki
// slots, so that covering key ranges of millions (TPC-H Q18's order keys)
// neither copies what is there nor allocates and clears up to twice the
// range, which was a quarter of Q18's CPU time.
type denseTable struct {
	pages [][]int32
	n     int // keys covered: [0, n)
}

const (
	densePageBits = 16
	densePage     = 1 << densePageBits
)

// at returns the slot of key v; v must be in [0, n).
func (d *denseTable) at(v int64) *int32 {
	return &d.pages[v>>densePageBits][v&(densePage-1)]
}

// cover grows the table to cover at least keys [0, v] (v < denseKeys),
// never past denseKeys.
func (d *denseTable) cover(v int) {
	if v < densePage {
		var first []int32
		if len(d.pages) > 0 {
			first = d.pages[0]
		}
		grown := make([]int32, min(max(v+1, 2*len(first), 256), densePage))
		copy(grown, first)
		d.pages = [][]int32{grown}
		d.n = len(grown)
		return
	}
	if len(d.pages) == 1 && len(d.pages[0]) < densePage {
		grown := make([]int32, densePage)
		copy(grown, d.pages[0])
		d.pages[0] = grown
	}
	// A quarter more pages at least: fewer, larger steps.
	want := max(v>>densePageBits+1, len(d.pages)+len(d.pages)/4)
	want = min(want, max(v>>densePageBits+1, denseKeys>>densePageBits))
	for len(d.pages) < want {
		d.pages = append(d.pages, make([]int32, densePage))
	}
	d.n = len(d.pages) << densePageBits
}
