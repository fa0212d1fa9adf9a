package sql

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// TestMarkerStringsAreStrings: a string that looks like one of the
// vitess path's in-band markers is just a string once bound from the
// syntax tree (issue 15).
func TestMarkerStringsAreStrings(t *testing.T) {
	st, err := Parse(Source{Text: "SELECT 'b2sql:empty_in' IN ('b2sql:empty_in')"})
	if err != nil {
		t.Fatal(err)
	}
	bd, err := Bind(st.(*Query), tpchCatalog())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := planner.Format(bd.Root), "'b2sql:empty_in' IN ('b2sql:empty_in')"; !strings.Contains(got, want) {
		t.Errorf("plan %s does not compare the two strings (%s)", got, want)
	}
}

// bothCatalogs is newCatalog's tables and TPC-H's.
func bothCatalogs() *fakeCatalog {
	cat := tpchCatalog()
	for k, v := range newCatalog().tables {
		cat.tables[k] = v
	}
	return cat
}

// TestBindFromSyntaxParams: ? markers take their values in order, in a
// nested query too.
func TestBindFromSyntaxParams(t *testing.T) {
	cat := bothCatalogs()
	q := "SELECT a + ?, upper(?) FROM t WHERE s = ? AND a IN (SELECT id FROM events WHERE kind = ?) AND d > ?"
	vals := []columnar.Value{columnar.IntValue(columnar.TInt64, 7), columnar.StringValue("x"), columnar.StringValue("y"),
		columnar.StringValue("k"), columnar.StringValue("2020-01-01")}
	st, err := Parse(Source{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	bd, err := bindWithParams(st.(*Query), cat, vals)
	if err != nil {
		t.Fatal(err)
	}
	plans := []string{planner.Format(bd.Root)}
	if !strings.Contains(plans[0], "'k'") || !strings.Contains(plans[0], "'y'") {
		t.Errorf("values not in place:\n%s", plans[0])
	}
}
