package executor

import "github.com/b2sql/b2sql/columnar"

// nonNullRows indexes the rows of one partition whose argument is not
// NULL, for lag and lead with IGNORE NULLS: the offset then counts only
// those rows, as in DuckDB (lag(x, 2 IGNORE NULLS) is the second earlier
// non-NULL x).
type nonNullRows struct {
	rows   []int // partition positions of the non-NULL rows, in order
	before []int // before[i]: how many non-NULL rows precede row i
}

func newNonNullRows(m int, arg func(int) columnar.Value) *nonNullRows {
	nn := &nonNullRows{before: make([]int, m)}
	for i := range m {
		nn.before[i] = len(nn.rows)
		if !arg(i).Null {
			nn.rows = append(nn.rows, i)
		}
	}
	return nn
}

// lagLead returns lag (lead: lead) of row i by k ≥ 0: the k-th non-NULL
// argument before (after) it, or def when there is none; an offset of 0
// is the row's own argument.
func (nn *nonNullRows) lagLead(lead bool, k int, def columnar.Value, i int, arg func(int) columnar.Value) columnar.Value {
	if k == 0 {
		return arg(i)
	}
	j := nn.before[i] - k // lag: index in rows
	if lead {
		after := nn.before[i] // rows up to and including i
		if !arg(i).Null {
			after++
		}
		j = after + k - 1
	}
	if j < 0 || j >= len(nn.rows) {
		return def
	}
	return arg(nn.rows[j])
}
