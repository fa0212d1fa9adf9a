package executor

import (
	"math"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// More scalar functions of DuckDB (see planner/functions.go):
//
//	contains(s, sub)        BOOLEAN
//	ends_with(s, suffix)    BOOLEAN
//	strlen(s)               BIGINT   bytes (length counts characters)
//	trunc(x)                DOUBLE   toward zero
//	concat_ws(sep, s, …)    VARCHAR  NULL arguments skipped; NULL when sep is NULL
func init() {
	add := func(name string, f rowFunc, strict bool) {
		moreFuncs[name] = struct {
			f      rowFunc
			strict bool
		}{f, strict}
	}
	add("concat_ws", fnConcatWS, false)
}

func fnContains(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.BoolValue(strings.Contains(a[0].S, a[1].S)), nil
}

func fnEndsWith(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.BoolValue(strings.HasSuffix(a[0].S, a[1].S)), nil
}

func fnStrlen(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(len(a[0].S))), nil
}

func fnTrunc(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.FloatValue(t, math.Trunc(a[0].F)), nil
}

func fnConcatWS(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	parts := make([]string, 0, len(a)-1)
	for _, v := range a[1:] {
		if !v.Null {
			parts = append(parts, v.S)
		}
	}
	return columnar.StringValue(strings.Join(parts, a[0].S)), nil
}
