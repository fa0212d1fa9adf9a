package executor

import (
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// readings has sensors a and b read at times 0, 4, 5 (a) and 2, 6 (b), and
// a reading with a NULL sensor at 1.
func readings(n int) *source {
	rows := [][]columnar.Value{
		{str("a"), i64(0), i64(100)},
		{str("a"), i64(4), i64(101)},
		{str("a"), i64(5), i64(102)},
		{str("b"), i64(2), i64(103)},
		{str("b"), i64(6), i64(104)},
		{null(columnar.TVarchar), i64(1), i64(105)},
	}
	return &source{types: []columnar.Type{columnar.TVarchar, columnar.TInt64, columnar.TInt64}, rows: rows, n: n}
}

// events asks at times 1, 5, 3, 9, 4, 0 for sensors a, a, b, a, c, b.
func events(n int) *source {
	rows := [][]columnar.Value{
		{str("a"), i64(1)}, {str("a"), i64(5)}, {str("b"), i64(3)},
		{str("a"), i64(9)}, {str("c"), i64(4)}, {str("b"), i64(0)},
	}
	return &source{types: []columnar.Type{columnar.TVarchar, columnar.TInt64}, rows: rows, n: n}
}

func TestAsofJoin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		op    AsofOp
		outer bool
		want  []string // the reading's value per event, in event order
	}{
		// >=: the last reading at or before; 9 takes a's 5, c and b@0 have none.
		{"ge", AsofGE, false, []string{"100", "102", "103", "102"}},
		{"gt left", AsofGT, true, []string{"100", "101", "103", "102", "NULL", "NULL"}},
		{"le", AsofLE, false, []string{"101", "102", "104", "103"}},
		{"lt", AsofLT, false, []string{"101", "104", "103"}},
	} {
		runSizes(t, func(t *testing.T, n int) {
			j := &AsofJoin{Left: events(n), Right: readings(n),
				LeftKeys: []Expr{ColumnExpr(0, columnar.TVarchar)}, RightKeys: []Expr{ColumnExpr(0, columnar.TVarchar)},
				LeftOn: ColumnExpr(1, columnar.TInt64), RightOn: ColumnExpr(1, columnar.TInt64), Op: tc.op, Outer: tc.outer}
			var got []string
			for _, r := range drainValues(t, j) {
				got = append(got, r[4])
			}
			if !equalStrings(got, tc.want) {
				t.Fatalf("%s: got %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}

func TestPositionalJoin(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// 9 people beside 6 readings: the last 3 rows have NULL readings.
		j := &PositionalJoin{Left: people(n), Right: readings(n)}
		rows := drainValues(t, j)
		if len(rows) != 9 {
			t.Fatalf("got %d rows, want 9", len(rows))
		}
		for i, r := range rows {
			want := "NULL"
			if i < 6 {
				want = []string{"100", "101", "102", "103", "104", "105"}[i]
			}
			if r[0] != []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}[i] || r[5] != want {
				t.Fatalf("row %d = %v, want id %d beside reading %s", i, r, i+1, want)
			}
		}
	})
}

// drainValues runs op and returns its rows as cells (NULL for nulls).
func drainValues(t *testing.T, op Operator) [][]string {
	t.Helper()
	if err := op.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	var out [][]string
	for {
		b, err := op.Next(t.Context())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < b.Live(); k++ {
			r := b.Row(k)
			var cells []string
			for _, v := range b.Cols {
				x := valueAt(v, r)
				if x.Null {
					cells = append(cells, "NULL")
				} else {
					cells = append(cells, x.String())
				}
			}
			out = append(out, cells)
		}
	}
	return out
}
