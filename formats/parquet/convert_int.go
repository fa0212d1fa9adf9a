package parquet

// convInt converts an integer in a Parquet time unit to microseconds:
// multiplication for milliseconds, floor division for nanoseconds.
func convInt(v, mul, div int64) int64 {
	if div != 1 {
		q := v / div
		if v%div < 0 {
			q--
		}
		return q
	}
	return v * mul
}

// beInt64 decodes a big-endian two's complement integer; ok is false if it
// does not fit in an int64.
func beInt64(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, true
	}
	neg := b[0]&0x80 != 0
	// Leading sign-extension bytes carry no information.
	for len(b) > 8 {
		if (neg && b[0] != 0xff) || (!neg && b[0] != 0) {
			return 0, false
		}
		b = b[1:]
	}
	var u uint64
	if neg {
		u = ^uint64(0)
	}
	for _, c := range b {
		u = u<<8 | uint64(c)
	}
	x := int64(u)
	return x, (x < 0) == neg
}

// convertUnits rescales time values to microseconds in place.
func convertUnits(vals []int64, mul, div int64) {
	switch {
	case mul != 1:
		for i, x := range vals {
			vals[i] = x * mul
		}
	case div != 1:
		for i, x := range vals {
			vals[i] = convInt(x, 1, div)
		}
	}
}
