package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// kind is the engine-neutral class of a result cell. Both engines' values are
// mapped onto these so that, say, DuckDB's HUGEINT sum and a b2sql BIGINT sum
// compare equal.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt   // exact integer
	kFloat // float, decimal, or an integer too wide for int64
	kTime  // microseconds since 1970-01-01 UTC (dates at midnight)
	kString
)

// cell is one normalized result value.
type cell struct {
	K kind
	I int64 // kBool (0/1), kInt, kTime
	F float64
	S string
}

func (c cell) String() string {
	switch c.K {
	case kNull:
		return "NULL"
	case kBool:
		return strconv.FormatBool(c.I != 0)
	case kInt:
		return strconv.FormatInt(c.I, 10)
	case kFloat:
		return strconv.FormatFloat(c.F, 'g', -1, 64)
	case kTime:
		return time.UnixMicro(c.I).UTC().Format("2006-01-02 15:04:05.999999")
	}
	return strconv.Quote(c.S)
}

// num reports c as a float, and whether c is numeric at all.
func (c cell) num() (float64, bool) {
	switch c.K {
	case kInt:
		return float64(c.I), true
	case kFloat:
		return c.F, true
	}
	return 0, false
}

// relTol is the relative tolerance for floats: engines sum in different
// orders, so the last few bits of a float sum may differ.
const relTol = 1e-6

// equalCell reports whether two cells agree: integers, times, strings and
// booleans exactly, numbers with a float on either side within relTol.
func equalCell(a, b cell) bool {
	if a.K == kInt && b.K == kInt {
		return a.I == b.I
	}
	if fa, ok := a.num(); ok {
		fb, ok := b.num()
		if !ok {
			return false
		}
		return floatClose(fa, fb)
	}
	if a.K != b.K {
		return false
	}
	switch a.K {
	case kNull:
		return true
	case kString:
		return a.S == b.S
	}
	return a.I == b.I
}

func floatClose(a, b float64) bool {
	if a == b {
		return true
	}
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b))
}

// compareCell is a total order used to sort row sets before comparing them.
// Numbers of either kind sort together, by value, so an int in one engine
// and a float in the other land in the same place.
func compareCell(a, b cell) int {
	ra, rb := rank(a.K), rank(b.K)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch {
	case a.K == kInt && b.K == kInt:
		return cmp.Compare(a.I, b.I)
	case ra == rank(kInt):
		fa, _ := a.num()
		fb, _ := b.num()
		return cmp.Compare(fa, fb) // NaN first: cmp.Compare orders it least
	case a.K == kString:
		return strings.Compare(a.S, b.S)
	case a.K == kNull:
		return 0
	}
	return cmp.Compare(a.I, b.I)
}

func rank(k kind) int {
	if k == kFloat {
		return int(kInt)
	}
	return int(k)
}

func compareRow(a, b []cell) int {
	for i := range min(len(a), len(b)) {
		if c := compareCell(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func formatRow(r []cell) string {
	parts := make([]string, len(r))
	for i, c := range r {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// result is a query's full answer in normalized form.
type result struct {
	Cols []string
	Rows [][]cell
}

// diff compares two results and returns "" when they agree, or a description
// of the first difference. Unless ordered, both are compared as sorted row
// sets; the inputs are not modified.
func diff(a, b *result, ordered bool, aName, bName string) string {
	if len(a.Cols) != len(b.Cols) {
		return fmt.Sprintf("%s has %d columns, %s has %d", aName, len(a.Cols), bName, len(b.Cols))
	}
	ra, rb := a.Rows, b.Rows
	if !ordered {
		ra = slices.SortedFunc(slices.Values(ra), compareRow)
		rb = slices.SortedFunc(slices.Values(rb), compareRow)
	}
	for i := range min(len(ra), len(rb)) {
		for j := range ra[i] {
			if !equalCell(ra[i][j], rb[i][j]) {
				where := "row"
				if !ordered {
					where = "sorted row"
				}
				return fmt.Sprintf("%s %d, column %d (%s): %s %s vs %s %s", where, i, j+1, a.Cols[j],
					aName, formatRow(ra[i]), bName, formatRow(rb[i]))
			}
		}
	}
	switch {
	case len(ra) > len(rb):
		return fmt.Sprintf("%s has %d rows, %s %d; first extra %s row: %s",
			aName, len(ra), bName, len(rb), aName, formatRow(ra[len(rb)]))
	case len(rb) > len(ra):
		return fmt.Sprintf("%s has %d rows, %s %d; first extra %s row: %s",
			aName, len(ra), bName, len(rb), bName, formatRow(rb[len(ra)]))
	}
	return ""
}
