package executor

import "github.com/b2sql/b2sql/columnar"

// peerBounds returns, for each of the partition's rows (in window
// order), the first of its peers (rows with equal ORDER BY keys) and one
// past the last.
func peerBounds(f *WindowFunc, ord []*columnar.Vector, rows []int32) (peerStart, peerEnd []int) {
	m := len(rows)
	peer := func(a, b int) bool { return compareRows(ord, f.Order, int(rows[a]), int(rows[b])) == 0 }
	peerStart, peerEnd = make([]int, m), make([]int, m)
	for i := 0; i < m; {
		j := i + 1
		for j < m && peer(i, j) {
			j++
		}
		for k := i; k < j; k++ {
			peerStart[k], peerEnd[k] = i, j
		}
		i = j
	}
	return peerStart, peerEnd
}
