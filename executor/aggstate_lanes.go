package executor

// Kernels for aggregates into a few groups (TPC-H Q01's four, a GROUP BY
// of a flag): consecutive rows mostly update the same group, and each
// update of counts[g] or vals[g] must wait for the store of the one
// before it (store-to-load forwarding, several cycles a row). Four lanes,
// row i in lane i%4, keep four such chains in flight instead of one; the
// lanes are added into the state once a batch.

// fewGroups is the most groups the lane kernels take (a power of two, so
// that masking a group id proves it in range).
const fewGroups = 16

// countRowsLanes is countRows for states of at most fewGroups groups.
func countRowsLanes(counts []int64, gids []int32, sel []int, n int) {
	var c [4][fewGroups]int64
	const m = fewGroups - 1
	if sel == nil {
		gids = gids[:n]
		i := 0
		for ; i+4 <= len(gids); i += 4 {
			c[0][gids[i]&m]++
			c[1][gids[i+1]&m]++
			c[2][gids[i+2]&m]++
			c[3][gids[i+3]&m]++
		}
		for ; i < len(gids); i++ {
			c[0][gids[i]&m]++
		}
	} else {
		k := 0
		for ; k+4 <= len(sel); k += 4 {
			c[0][gids[sel[k]]&m]++
			c[1][gids[sel[k+1]]&m]++
			c[2][gids[sel[k+2]]&m]++
			c[3][gids[sel[k+3]]&m]++
		}
		for ; k < len(sel); k++ {
			c[0][gids[sel[k]]&m]++
		}
	}
	for g := range counts {
		counts[g] += c[0][g] + c[1][g] + c[2][g] + c[3][g]
	}
}

// sumIntsLanes is sumInts for states of at most fewGroups groups. It adds
// every row into vals and counts (wrapping) and reports false if a lane or
// a group overflowed on the way, so that unsumInts can take the batch
// back out exactly. Its overflow is that of sums in another order than
// sumInts' (lane by lane): use it only where an overflow is not an error
// but a move to exact 128-bit sums (updateWideSum).
func sumIntsLanes(vals, counts []int64, in []int64, gids []int32, sel []int, n int) bool {
	var acc, c [4][fewGroups]int64
	var bad int64
	const m = fewGroups - 1
	add := func(l int, g int32, x int64) {
		a := acc[l][g&m]
		r := a + x
		bad |= (a ^ r) & (x ^ r)
		acc[l][g&m] = r
		c[l][g&m]++
	}
	if sel == nil {
		in, gids = in[:n], gids[:n]
		i := 0
		for ; i+4 <= len(in); i += 4 {
			add(0, gids[i], in[i])
			add(1, gids[i+1], in[i+1])
			add(2, gids[i+2], in[i+2])
			add(3, gids[i+3], in[i+3])
		}
		for ; i < len(in); i++ {
			add(0, gids[i], in[i])
		}
	} else {
		k := 0
		for ; k+4 <= len(sel); k += 4 {
			i0, i1, i2, i3 := sel[k], sel[k+1], sel[k+2], sel[k+3]
			add(0, gids[i0], in[i0])
			add(1, gids[i1], in[i1])
			add(2, gids[i2], in[i2])
			add(3, gids[i3], in[i3])
		}
		for ; k < len(sel); k++ {
			i := sel[k]
			add(0, gids[i], in[i])
		}
	}
	for g := range vals {
		r := vals[g]
		for l := range acc {
			x := acc[l][g]
			s := r + x
			bad |= (r ^ s) & (x ^ s)
			r = s
		}
		vals[g] = r
		counts[g] += c[0][g] + c[1][g] + c[2][g] + c[3][g]
	}
	return bad >= 0
}
