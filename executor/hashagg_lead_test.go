package executor

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// leadRow is one input row of the lead-key tests: a nil id or name is NULL.
type leadRow struct {
	id   *int64
	name *string
	city string
	x    int64
}

// leadRows makes n rows over ids 0..999 (row r has id r%1000, so the first
// batch has 1000 distinct ids), whose name and city depend on the id alone
// (id 500's name is NULL; every third name is longer than 16 bytes); every
// 97th row has a NULL id, the name "nobody" and the city "nowhere". rename(r, id, name) may
// change a row's name to break the dependency.
func leadRows(n int, rename func(r int, id int64, name string) string) []leadRow {
	rows := make([]leadRow, n)
	for r := range rows {
		id := int64(r % 1000)
		name := fmt.Sprintf("n%d", id)
		if id%3 == 0 {
			name += "-a-name-longer-than-sixteen-bytes"
		}
		row := leadRow{id: &id, city: fmt.Sprintf("c%d", id%7), x: int64(r)}
		if rename != nil {
			name = rename(r, id, name)
		}
		if id != 500 {
			row.name = &name
		}
		if r%97 == 0 {
			nobody := "nobody"
			row.id, row.name, row.city = nil, &nobody, "nowhere"
		}
		rows[r] = row
	}
	return rows
}

// leadWant is GROUP BY id, name, city with count(*), sum(x), computed
// directly from the rows.
func leadWant(rows []leadRow) []string {
	type acc struct{ n, sum int64 }
	groups := map[string]*acc{}
	for _, r := range rows {
		id, name := "NULL", "NULL"
		if r.id != nil {
			id = fmt.Sprint(*r.id)
		}
		if r.name != nil {
			name = *r.name
		}
		k := id + "|" + name + "|" + r.city
		a := groups[k]
		if a == nil {
			a = &acc{}
			groups[k] = a
		}
		a.n++
		a.sum += r.x
	}
	var out []string
	for k, a := range groups {
		out = append(out, fmt.Sprintf("%s|%d|%d", k, a.n, a.sum))
	}
	slices.Sort(out)
	return out
}

var leadTypes = []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TVarchar, columnar.TInt64}

func leadAgg(rows []leadRow) *HashAgg {
	vals := make([][]columnar.Value, len(rows))
	for i, r := range rows {
		id, name := null(columnar.TInt64), null(columnar.TVarchar)
		if r.id != nil {
			id = i64(*r.id)
		}
		if r.name != nil {
			name = str(*r.name)
		}
		vals[i] = []columnar.Value{id, name, str(r.city), i64(r.x)}
	}
	return &HashAgg{
		// Batches of 1024; odd ones carry a selection around a poison row.
		Input:  &source{types: leadTypes, rows: vals, n: 1024},
		Groups: []Expr{ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TVarchar), ColumnExpr(2, columnar.TVarchar)},
		Aggs: []AggSpec{
			{Kind: AggCountStar, Type: columnar.TInt64},
			{Kind: AggSum, Arg: ColumnExpr(3, columnar.TInt64), Type: columnar.TInt64},
		},
	}
}

// runLeadAgg groups rows by id, name and city and checks the groups
// against leadWant; it returns the kind of key table it grouped by.
func runLeadAgg(t *testing.T, rows []leadRow) string {
	t.Helper()
	agg := leadAgg(rows)
	got, kind := drainAgg(t, agg)
	slices.Sort(got)
	want := leadWant(rows)
	if !equalStrings(got, want) {
		t.Fatalf("%d groups, want %d; first differences:\n%s", len(got), len(want), firstDiffs(got, want))
	}
	return kind
}

// When the integer key determines the string keys, groups are found by it
// alone and the results are those of grouping by all three keys.
func TestHashAggLeadKey(t *testing.T) {
	if runLeadAgg(t, leadRows(5000, nil)) != "composite+lead" {
		t.Fatal("the grouping did not run by its lead key")
	}
}

// Lead keys outside the direct table's range (negative, or past 2^23)
// live in the hash table beside it: the groups are the same.
func TestHashAggLeadKeyWideIDs(t *testing.T) {
	rows := leadRows(5000, nil)
	for _, r := range rows {
		if r.id == nil {
			continue
		}
		switch id := *r.id; {
		case id%5 == 0:
			*r.id = id + 1<<40
		case id%7 == 0:
			*r.id = -id
		}
	}
	if runLeadAgg(t, rows) != "composite+lead" {
		t.Fatal("the grouping did not run by its lead key")
	}
}

// When a later batch shows the integer key does not determine a string
// key, the grouping moves to all keys and no group is lost or merged.
func TestHashAggLeadKeyBroken(t *testing.T) {
	for _, at := range []int{1500, 2048, 4990} {
		t.Run(fmt.Sprint("from row ", at), func(t *testing.T) {
			rows := leadRows(5000, func(r int, id int64, name string) string {
				if r >= at && id%10 == 0 {
					return name + "-late"
				}
				return name
			})
			if runLeadAgg(t, rows) == "composite+lead" {
				t.Fatal("the broken dependency went unnoticed")
			}
		})
	}
}

// Coded strings are compared by value across dictionaries that number
// them differently; a code whose value differs from its group's breaks
// the dependency.
func TestHashAggLeadKeyCoded(t *testing.T) {
	vals := make([]string, 300)
	for i := range vals {
		vals[i] = fmt.Sprintf("value %03d", i)
	}
	rev := slices.Clone(vals)
	slices.Reverse(rev)
	d1, d2 := dict.New(vals...), dict.New(rev...)
	var b1, b2, b3 codedBatch
	b1.d, b2.d, b3.d = d1, d2, d2
	for i := 0; i < 300; i++ {
		b1.codes, b1.ints = append(b1.codes, int32(i)), append(b1.ints, int64(i))
		b2.codes, b2.ints = append(b2.codes, int32(299-i)), append(b2.ints, int64(i)) // the same pairs, renumbered
	}
	b1.codes[7] = -1                                             // (7, NULL) …
	b2.codes[7] = -1                                             // … twice
	b3.codes, b3.ints = []int32{299 - 5, 299 - 6}, []int64{5, 5} // (5, value 005) again, then (5, value 006)
	for _, broken := range []bool{false, true} {
		src := &coded{batches: []codedBatch{b1, b2}}
		if broken {
			src.batches = append(src.batches, b3)
		}
		agg := &HashAgg{
			Input:  src,
			Groups: []Expr{ColumnExpr(1, columnar.TInt64), ColumnExpr(0, columnar.TVarchar)},
			Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
		}
		got, kind := drainAgg(t, agg)
		slices.Sort(got)
		var want []string
		for i := 0; i < 300; i++ {
			name, n := vals[i], 2
			switch {
			case i == 7:
				name = "NULL"
			case i == 5 && broken:
				n = 3
			}
			want = append(want, fmt.Sprintf("%d|%s|%d", i, name, n))
		}
		if broken {
			want = append(want, "5|value 006|1")
		}
		slices.Sort(want)
		if !equalStrings(got, want) {
			t.Fatalf("broken=%v: first differences:\n%s", broken, firstDiffs(got, want))
		}
		if lead := kind == "composite+lead"; lead == broken {
			t.Fatalf("broken=%v: lead mode still on = %v", broken, lead)
		}
	}
}

func firstDiffs(got, want []string) string {
	var sb strings.Builder
	n := 0
	for i := 0; i < max(len(got), len(want)) && n < 5; i++ {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			fmt.Fprintf(&sb, "  row %d: got %q want %q\n", i, g, w)
			n++
		}
	}
	return sb.String()
}
