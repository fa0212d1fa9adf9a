package sql

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// TestBindFromSyntaxSamePlan binds queries twice, with clause expressions
// from the syntax tree and from the vitess tree, and wants the same plan:
// moving an expression onto the syntax tree never changes its meaning.
func TestBindFromSyntaxSamePlan(t *testing.T) {
	qs := append(tpchQueries(t),
		"SELECT a + 1, -a, - 5, +b, 1.5 * a, 2e3, a // 2, a % 3, 'x' || s, price * 2, d + 1, f / 2 FROM t WHERE a > 1 AND NOT s = 'x' OR a IS NULL AND d > '2020-01-01' AND ts < '2021-01-01 10:00:00' AND u = 7",
		"SELECT a FROM t WHERE a BETWEEN 1 AND 3 AND a NOT BETWEEN 5 AND 6 AND s LIKE 'a%' AND s NOT ILIKE 'B%' AND City = 'Lyon'",
		"SELECT a IN (1, 2), a NOT IN (3), a IN (), s IS NOT NULL, (a > 1) IS TRUE, ok, ok IS NOT TRUE, NOT ok, (a > 1) IS NOT FALSE FROM t",
		"SELECT t.a, sum(f), count(*) FROM t, events e WHERE t.b = e.id GROUP BY t.a HAVING sum(f) > 1 ORDER BY t.a DESC NULLS FIRST, 2",
		"SELECT a AS x FROM t WHERE x > 1 ORDER BY x",
		"SELECT * FROM t JOIN events e ON t.b = e.id AND e.kind <> 'x' LEFT JOIN nation n ON n.n_nationkey = t.a OR t.a IS NULL",
		"SELECT * FROM t JOIN (events e JOIN region ON e.id = r_regionkey) ON t.b = e.id, (SELECT * FROM t t2 JOIN events ON t2.a = id) d",
		"SELECT * FROM t JOIN nation ON n_nationkey = a JOIN region ON r_regionkey = n_regionkey JOIN t t3 USING (s) JOIN events ON id = t3.b",
		"SELECT upper(s), lower(s || 'x'), length(s), abs(a - 3), round(f, 2), coalesce(a, b, 0), date_part('year', d), date_trunc('month', ts) FROM t",
		"SELECT count(DISTINCT a), sum(f * 2), avg(a), min(s), max(d), count(*), sum(a) + 1, a FROM t GROUP BY a HAVING count(*) > 2 AND max(s) <> 'x' ORDER BY sum(f) DESC",
		"SELECT CASE WHEN a > 1 THEN 'x' WHEN a IS NULL THEN NULL ELSE s END, CASE a WHEN 1 THEN 2.5 ELSE 3 END, CASE WHEN ok THEN 1 END FROM t",
		"SELECT a::VARCHAR, CAST(s AS INTEGER), TRY_CAST(s AS DATE), f::DECIMAL(10, 2), '1'::DOUBLE PRECISION, DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05', TIME '01:02:03' FROM t",
		"SELECT a IS DISTINCT FROM b, s IS NOT DISTINCT FROM 'x', NULL IS DISTINCT FROM NULL FROM t WHERE d > DATE '2020-01-01' - 3",
		"SELECT 9223372036854775807, -9223372036854775808, 18446744073709551615, 0.1 + 0.2, 1. , .5",
	)
	cat := bothCatalogs()
	bind := func(q string) string {
		st, err := Parse(Source{Text: q})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		bd, err := Bind(st.(*Query), cat)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return planner.Format(bd.Root)
	}
	for _, q := range qs {
		got := bind(q)
		bindFromSyntax = false
		want := bind(q)
		bindFromSyntax = true
		if got != want {
			t.Errorf("%s\nfrom the syntax tree:\n%s\nfrom vitess:\n%s", q, got, want)
		}
	}
}

// TestBindFromSyntaxErrors: errors of expressions bound from the syntax
// tree point where the vitess path pointed.
func TestBindFromSyntaxErrors(t *testing.T) {
	cat := bothCatalogs()
	for _, q := range []string{
		"SELECT a + s FROM t",
		"SELECT -s FROM t",
		"SELECT a FROM t WHERE s",
		"SELECT a FROM t WHERE s = 1",
		"SELECT a FROM t WHERE d = 'notadate'",
		"SELECT a FROM t WHERE b = 99999999999999999999999",
		"SELECT a FROM t WHERE ok AND a",
		"SELECT a FROM t GROUP BY s",
		"SELECT x FROM dup",
		"SELECT a FROM t WHERE a = 1 AND zz = 2",
		"SELECT x.a FROM t",
		"SELECT a FROM t WHERE s LIKE 1",
		"SELECT a FROM t WHERE a IN (1, 'x')",
		"SELECT a FROM t ORDER BY aa DESC",
		"SELECT upperr(s) FROM t",
		"SELECT date_part('yearz', d) FROM t",
		"SELECT sum(s) FROM t",
		"SELECT a FROM t WHERE sum(a) > 1",
		"SELECT CASE WHEN a THEN 1 END FROM t",
		"SELECT CASE a WHEN 'x' THEN 1 END FROM t",
		"SELECT d::INTEGER FROM t",
		"SELECT DATE 'nope' FROM t",
		"SELECT a IS DISTINCT FROM d FROM t",
		"SELECT count(*) + s FROM t GROUP BY a",
		"SELECT TIME '01:00:00' - TIME '03:00:00'",
		"SELECT CAST(DATE '2020-01-01' AS TIME)",
		"SELECT year(TIME '12:34:56')",
		"SELECT TIME '12:00:00' = DATE '2020-01-01'",
		"SELECT CAST(s AS INTEGER) + d FROM t",
		"SELECT (a IS DISTINCT FROM 1) + d FROM t",
		"SELECT (a IN (1, 2)) + d FROM t",
		"SELECT * FROM t JOIN events e ON t.s = e.idd",
		"SELECT * FROM t JOIN events e ON t.b",
		"SELECT 'b2sql:empty_in' IN ('b2sql:empty_in') FROM t WHERE (a > 1) IS TRUE AND s = 3",
	} {
		var errs [2]string
		for i, syn := range []bool{true, false} {
			bindFromSyntax = syn
			st, err := Parse(Source{Text: q})
			if err == nil {
				_, err = Bind(st.(*Query), cat)
			}
			if err != nil {
				errs[i] = err.Error()
			}
		}
		bindFromSyntax = true
		if errs[0] != errs[1] {
			t.Errorf("%s: from the syntax tree %q, from vitess %q", q, errs[0], errs[1])
		}
	}
}

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

// TestBindFromSyntaxParams: ? markers take their values in order on both
// paths, in a nested query too.
func TestBindFromSyntaxParams(t *testing.T) {
	cat := bothCatalogs()
	q := "SELECT a + ?, upper(?) FROM t WHERE s = ? AND a IN (SELECT id FROM events WHERE kind = ?) AND d > ?"
	vals := []columnar.Value{columnar.IntValue(columnar.TInt64, 7), columnar.StringValue("x"), columnar.StringValue("y"),
		columnar.StringValue("k"), columnar.StringValue("2020-01-01")}
	var plans [2]string
	for i, syn := range []bool{true, false} {
		bindFromSyntax = syn
		st, err := Parse(Source{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		bd, err := bindWithParams(st.(*Query), cat, vals)
		if err != nil {
			t.Fatal(err)
		}
		plans[i] = planner.Format(bd.Root)
	}
	bindFromSyntax = true
	if plans[0] != plans[1] {
		t.Errorf("from the syntax tree:\n%s\nfrom vitess:\n%s", plans[0], plans[1])
	}
	if !strings.Contains(plans[0], "'k'") || !strings.Contains(plans[0], "'y'") {
		t.Errorf("values not in place:\n%s", plans[0])
	}
}
