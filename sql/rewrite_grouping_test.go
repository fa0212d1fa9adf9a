package sql

import (
	"reflect"
	"testing"
)

// TestRewriteGroupingSets pins the GROUP BY text vitess sees (each key
// once, a comma inserted after it, every other byte blanked) and the sets
// recorded, written out by hand from the definitions of ROLLUP and CUBE.
func TestRewriteGroupingSets(t *testing.T) {
	cases := []struct {
		in, out string
		sets    [][]int
	}{
		{"SELECT 1 FROM t GROUP BY ROLLUP (a, b)", "SELECT 1 FROM t GROUP BY         a,  b ", [][]int{{0, 1}, {0}, {}}},
		{"SELECT 1 FROM t GROUP BY CUBE (a, b)", "SELECT 1 FROM t GROUP BY       a,  b ", [][]int{{0, 1}, {0}, {1}, {}}},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (b), ())", "SELECT 1 FROM t GROUP BY                 a,  b           ", [][]int{{0, 1}, {1}, {}}},
		{"SELECT 1 FROM t GROUP BY a, ROLLUP (b)", "SELECT 1 FROM t GROUP BY a,          b ", [][]int{{0, 1}, {0}}},
		{"SELECT 1 FROM t GROUP BY a, b WITH ROLLUP HAVING 1", "SELECT 1 FROM t GROUP BY a,  b             HAVING 1", [][]int{{0, 1}, {0}, {}}},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS (())", "SELECT 1 FROM t                            ", [][]int{{}}},
		{"SELECT 1 FROM t GROUP BY ROLLUP ((a, b), c)", "SELECT 1 FROM t GROUP BY          a,  b,   c ", [][]int{{0, 1, 2}, {0, 1}, {}}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			rw := mustRewrite(t, tc.in)
			if rw.text != tc.out {
				t.Errorf("text\n got %q\nwant %q", rw.text, tc.out)
			}
			if tc.sets != nil && !reflect.DeepEqual(rw.groupSets, tc.sets) {
				t.Errorf("sets %v, want %v", rw.groupSets, tc.sets)
			}
		})
	}
}
