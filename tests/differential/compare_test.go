package differential

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// cell is one result value in a form both engines map to: NULL, a number
// (booleans as 0/1, integers, decimals and doubles alike) or text (strings,
// dates, timestamps).
type cell struct {
	null  bool
	isNum bool
	num   float64
	text  string
}

func (c cell) String() string {
	switch {
	case c.null:
		return "NULL"
	case c.isNum:
		return strconv.FormatFloat(c.num, 'g', -1, 64)
	}
	return strconv.Quote(c.text)
}

// sortKey renders c for sorting rows into a canonical order: numbers with
// 6 significant digits, so that values equal within the tolerance sort
// alike, and midnight timestamps as dates (see sameText).
func (c cell) sortKey() string {
	switch {
	case c.null:
		return "\x00"
	case c.isNum:
		return "\x01" + strconv.FormatFloat(c.num, 'g', 6, 64)
	}
	return "\x02" + strings.TrimSuffix(c.text, " 00:00:00")
}

func fromB2(v columnar.Value) cell {
	if v.Null {
		return cell{null: true}
	}
	switch v.Type.ID {
	case columnar.Bool:
		if v.Bool() {
			return cell{isNum: true, num: 1}
		}
		return cell{isNum: true}
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Uint8, columnar.Uint16,
		columnar.Uint32, columnar.Uint64, columnar.Float32, columnar.Float64, columnar.Decimal,
		columnar.Hugeint, columnar.Uhugeint, columnar.Decimal128: // sum(BIGINT) is HUGEINT, as in DuckDB
		return cell{isNum: true, num: v.AsFloat()}
	}
	return cell{text: v.String()}
}

func fromSQLite(v any) cell {
	switch v := v.(type) {
	case nil:
		return cell{null: true}
	case int64:
		return cell{isNum: true, num: float64(v)}
	case float64:
		return cell{isNum: true, num: v}
	case bool:
		if v {
			return cell{isNum: true, num: 1}
		}
		return cell{isNum: true}
	case []byte:
		return cell{text: string(v)}
	case string:
		return cell{text: v}
	}
	return cell{text: fmt.Sprint(v)}
}

// sameText reports whether two texts name the same value. A CTable stores
// DATE as datetime64, so b2sql returns a CTable date as a timestamp at
// midnight: "2024-01-05 00:00:00" is the date "2024-01-05".
func sameText(a, b string) bool {
	if a == b {
		return true
	}
	return strings.TrimSuffix(a, " 00:00:00") == strings.TrimSuffix(b, " 00:00:00") &&
		(len(a) == len("2024-01-05") || len(b) == len("2024-01-05"))
}

func equalCells(a, b cell) bool {
	switch {
	case a.null || b.null:
		return a.null == b.null
	case a.isNum != b.isNum:
		return false
	case a.isNum:
		if a.num == b.num {
			return true
		}
		return math.Abs(a.num-b.num) <= 1e-9*math.Max(math.Abs(a.num), math.Abs(b.num))
	}
	return sameText(a.text, b.text)
}

func rowKey(r []cell) string {
	var sb strings.Builder
	for _, c := range r {
		sb.WriteString(c.sortKey())
		sb.WriteByte('\x1f')
	}
	return sb.String()
}

// compareResults returns "" when got (b2sql) and want (SQLite) agree, else
// a description of the first difference. Unless ordered, both are sorted
// into a canonical order first.
func compareResults(got, want [][]cell, ordered bool) string {
	if !ordered {
		got, want = slices.Clone(got), slices.Clone(want)
		byKey := func(a, b []cell) int { return strings.Compare(rowKey(a), rowKey(b)) }
		slices.SortStableFunc(got, byKey)
		slices.SortStableFunc(want, byKey)
	}
	for i := range min(len(got), len(want)) {
		if len(got[i]) != len(want[i]) {
			return fmt.Sprintf("row %d: %d columns, SQLite has %d", i, len(got[i]), len(want[i]))
		}
		for j := range got[i] {
			if !equalCells(got[i][j], want[i][j]) {
				return fmt.Sprintf("row %d column %d: b2sql %v, SQLite %v\n  b2sql row:  %v\n  SQLite row: %v",
					i, j, got[i][j], want[i][j], got[i], want[i])
			}
		}
	}
	if len(got) != len(want) {
		var extra []cell
		who := "b2sql"
		if len(got) > len(want) {
			extra = got[len(want)]
		} else {
			extra, who = want[len(got)], "SQLite"
		}
		return fmt.Sprintf("b2sql returned %d rows, SQLite %d; first extra row (%s): %v", len(got), len(want), who, extra)
	}
	return ""
}
