//go:build !purego

package filter

// SetAVX2 switches the AVX2 kernels off or on (tests cover both paths) and
// returns the previous setting. It cannot enable AVX2 on a CPU without it.
func SetAVX2(on bool) bool {
	old := useAVX2
	useAVX2 = on && hasAVX2
	return old
}
