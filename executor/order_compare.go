package executor

import "github.com/b2sql/b2sql/columnar"

// orderCompare orders x and y as ORDER BY … [DESC] [NULLS FIRST] does:
// NULLs last unless nullsFirst, whatever the direction.
func orderCompare(x, y columnar.Value, desc, nullsFirst bool) int {
	switch {
	case x.Null && y.Null:
		return 0
	case x.Null:
		if nullsFirst {
			return -1
		}
		return 1
	case y.Null:
		if nullsFirst {
			return 1
		}
		return -1
	}
	c := columnar.Compare(x, y)
	if desc {
		return -c
	}
	return c
}
