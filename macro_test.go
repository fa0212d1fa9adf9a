package b2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// Macros through the embedded API: a query with a ? in a macro's argument,
// a prepared statement run twice, DB.Explain of a call, and an error in a
// body positioned at the call.
func TestMacrosAPI(t *testing.T) {
	db := openFixture(t, 10)
	ctx := context.Background()
	if err := db.Exec(ctx, "CREATE MACRO below(x, lim := 5) AS x < lim; CREATE MACRO firsts(n) AS TABLE SELECT i FROM t WHERE i < n"); err != nil {
		t.Fatal(err)
	}
	// The fixture's i runs 0..9.
	if got := queryInts(t, db, "SELECT count(*) FROM t WHERE below(i, ?)", 3); len(got) != 1 || got[0] != 3 {
		t.Errorf("below(i, 3): %v, want [3]", got)
	}
	if got := queryInts(t, db, "SELECT count(*) FROM t WHERE below(i)"); len(got) != 1 || got[0] != 5 {
		t.Errorf("below(i): %v, want [5]", got)
	}
	st, err := db.Prepare("SELECT sum(i) FROM firsts(?)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct{ n, sum int64 }{{3, 0 + 1 + 2}, {5, 0 + 1 + 2 + 3 + 4}} {
		rows, err := st.Query(ctx, c.n)
		if err != nil {
			t.Fatal(err)
		}
		var got int64
		for rows.Next() {
			if err := rows.Scan(&got); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
		if got != c.sum {
			t.Errorf("firsts(%d): sum %d, want %d", c.n, got, c.sum)
		}
	}
	plan, err := db.Explain("SELECT i FROM t WHERE below(i, 2)")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "i < 2") {
		t.Errorf("Explain of below(i, 2) does not filter i < 2:\n%s", plan)
	}
	if err := db.Exec(ctx, "CREATE MACRO broken(x) AS x + nope(x)"); err != nil {
		t.Fatal(err)
	}
	_, err = db.Query(ctx, "SELECT 1,\n  broken(i) FROM t")
	var e *b2sql.Error
	if !errors.As(err, &e) || e.Pos != (b2sql.Pos{Line: 2, Col: 3}) || !strings.Contains(e.Msg, `"nope"`) {
		t.Errorf("error in a macro's body: %v, want one at 2:3 about nope", err)
	}
}
