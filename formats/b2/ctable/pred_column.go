package ctable

import "github.com/b2sql/b2sql/index"

// predColumn returns the single column p reads, or -1 when it reads several.
func predColumn(p index.Pred) int {
	cols := p.Cols(nil)
	if len(cols) == 0 {
		return -1
	}
	for _, c := range cols[1:] {
		if c != cols[0] {
			return -1
		}
	}
	return cols[0]
}
