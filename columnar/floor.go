package columnar

// floorDiv and floorMod divide rounding toward negative infinity (Go's /
// and % truncate toward zero), as calendar arithmetic on days and
// microseconds before the epoch needs.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
