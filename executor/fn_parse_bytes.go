package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// fnParseFormattedBytes is parse_formatted_bytes(text): the bytes a size
// such as '1.5 GB' or '2 MiB' stands for, read as DuckDB reads a
// memory_limit: a number (digits, '.', 'e', '-'), then a unit word, any
// case, after optional spaces (B/byte(s); K/KB/kilobyte(s) … T/TB/
// terabyte(s) in 1000s; KiB … TiB in 1024s); what follows the unit is
// ignored. The bytes are truncated to an integer.
func fnParseFormattedBytes(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	s := strings.ToLower(strings.TrimSpace(a[0].S))
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == '-') })
	if end < 0 {
		end = len(s)
	}
	num := s[:end]
	if num == "" {
		return columnar.Value{}, fmt.Errorf("memory must have a number (e.g. 1GB)")
	}
	x, err := strconv.ParseFloat(num, 64)
	switch {
	case err != nil && !isRangeErr(err): // cast.go; out of range is ±Inf, past every unit
		return columnar.Value{}, fmt.Errorf("invalid memory limit: '%s'", num)
	case x < 0:
		return columnar.Value{}, fmt.Errorf("memory cannot be negative")
	}
	unit := strings.Fields(s[end:] + " ")
	word := ""
	if len(unit) > 0 {
		word = unit[0]
	}
	mult, ok := byteUnits[word]
	if !ok {
		return columnar.Value{}, fmt.Errorf("unknown unit for memory: '%s' (expected: KB, MB, GB, TB for 1000^i units or KiB, MiB, GiB, TiB for 1024^i units)", word)
	}
	n := x * mult
	if math.IsInf(n, 0) || n >= math.MaxUint64 {
		return columnar.Value{}, fmt.Errorf("memory value out of range: value is too large")
	}
	return columnar.UintValue(uint64(n)), nil
}

// byteUnits are the unit words of parse_formatted_bytes and their bytes.
var byteUnits = map[string]float64{
	"b": 1, "byte": 1, "bytes": 1,
	"k": 1e3, "kb": 1e3, "kilobyte": 1e3, "kilobytes": 1e3,
	"m": 1e6, "mb": 1e6, "megabyte": 1e6, "megabytes": 1e6,
	"g": 1e9, "gb": 1e9, "gigabyte": 1e9, "gigabytes": 1e9,
	"t": 1e12, "tb": 1e12, "terabyte": 1e12, "terabytes": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}
