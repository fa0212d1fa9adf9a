package memory

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatSize writes bytes as DuckDB shows a memory setting: binary units
// with one decimal ("3.7 GiB", "1000.0 MiB"), plain bytes below 1 KiB.
func FormatSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	v := float64(n) / 1024
	u := 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	// DuckDB truncates to one decimal (2.5 GB = 2.33 GiB shows 2.3 GiB).
	return fmt.Sprintf("%.1f %s", math.Floor(v*10)/10, units[u])
}

// ParseSize reads a memory setting as DuckDB does: a number and a unit, KB
// MB GB TB for powers of 1000 and KiB MiB GiB TiB for powers of 1024 (B or
// bytes for bytes; case and spaces ignored). A negative number means no
// limit (returned as -1).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || t[i] == '-' || t[i] == '+') {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("memory must have a number (e.g. 1GB)")
	}
	num, err := strconv.ParseFloat(t[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("memory must have a number (e.g. 1GB)")
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	if num < 0 {
		return -1, nil
	}
	mult := map[string]float64{
		"b": 1, "byte": 1, "bytes": 1,
		"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("unknown unit for memory: '%s' (expected: KB, MB, GB, TB for 1000^i units or KiB, MiB, GiB, TiB for 1024^i units)", t[i:])
	}
	v := num * mult
	if v >= math.MaxInt64 {
		return -1, nil
	}
	return int64(v), nil
}
