package sql

import (
	"testing"
)

// TestBindPlans checks bound plans against hand-reviewed renderings (see
// formatPlan: $name is a reference to a column computed above the scan).
func TestBindPlans(t *testing.T) {
	cases := []struct {
		sql, plan, err string
	}{
		{"SELECT a, b FROM t WHERE a > 5 ORDER BY b DESC LIMIT 10 OFFSET 2", `
Limit 10 offset 2
  Sort [$b DESC]
    Project [t.a AS a:INTEGER, t.b AS b:BIGINT]
      Filter (t.a > 5)
        Scan t AS t cols=12
`, ""},
		{"SELECT 1+1", `
Project [(1 + 1) AS 1+1:INTEGER]
  Values ()
`, ""},
		{"SELECT * FROM t WHERE small = 3 AND u < 10 AND b IN (1, 2) AND price >= 9.99 AND d BETWEEN '2024-01-01' AND '2024-12-31'", `
Project [t.a AS a:INTEGER, t.b AS b:BIGINT, t.s AS s:VARCHAR, t.price AS price:DECIMAL(10,2), t.d AS d:DATE, t.ts AS ts:TIMESTAMP, t.f AS f:DOUBLE, t.small AS small:SMALLINT, t.u AS u:UINTEGER, t.ub AS ub:UBIGINT, t.ok AS ok:BOOLEAN, t.City AS City:VARCHAR]
  Filter and((t.small = 3), (t.u < 10), t.b IN (1, 2), (t.price >= 9.99), ((t.d >= DATE '2024-01-01') AND (t.d <= DATE '2024-12-31')))
    Scan t AS t cols=12
`, ""},
		{"SELECT x.a FROM t AS x WHERE x.s LIKE 'a%'", `
Project [x.a AS a:INTEGER]
  Filter (x.s LIKE 'a%')
    Scan t AS x cols=12
`, ""},
		{"SELECT s, count(*) AS n, count(DISTINCT a), sum(f), avg(a), min(d), max(ts) FROM t GROUP BY s HAVING count(*) > 1 ORDER BY n DESC NULLS FIRST, 1", `
Sort [$n DESC NULLS FIRST, $s]
  Project [$s AS s:VARCHAR, $count_star() AS n:BIGINT, $count(DISTINCT t.a) AS count(DISTINCT a):BIGINT, $sum(t.f) AS sum(f):DOUBLE, avg_of_sum($sum(t.a), $count(t.a), false) AS avg(a):DOUBLE, $min(t.d) AS min(d):DATE, $max(t.ts) AS max(ts):TIMESTAMP]
    Filter ($count_star() > 1)
      Aggregate groups=[t.s] aggs=[count_star():BIGINT, count(DISTINCT t.a):BIGINT, sum(t.f):DOUBLE, sum(t.a):BIGINT, count(t.a):BIGINT, min(t.d):DATE, max(t.ts):TIMESTAMP]
        Scan t AS t cols=12
`, ""},
		{"SELECT DISTINCT s FROM t ORDER BY s", `
Sort [$s]
  Distinct
    Project [t.s AS s:VARCHAR]
      Scan t AS t cols=12
`, ""},
		{"SELECT a FROM t ORDER BY b NULLS LAST, lower(s) LIMIT 3", `
Project [$a AS a:INTEGER]
  Limit 3 offset 0
    Sort [$t.b, $lower(t.s)]
      Project [t.a AS a:INTEGER, t.b AS t.b:BIGINT, lower(t.s) AS lower(t.s):VARCHAR]
        Scan t AS t cols=12
`, ""},
		{"SELECT count(*) + 1, sum(a) / count(a) FROM t", `
Project [($count_star() + 1) AS count(*) + 1:BIGINT, (CAST(CAST($sum(t.a) AS HUGEINT) AS DOUBLE) / CAST($count(t.a) AS DOUBLE)) AS sum(a) / count(a):DOUBLE]
  Aggregate groups=[] aggs=[count_star():BIGINT, sum(t.a):BIGINT, count(t.a):BIGINT]
    Scan t AS t cols=12
`, ""},
		{"SELECT a % 3 AS g, count(*) FROM t GROUP BY g ORDER BY g", `
Sort [$g]
  Project [$(t.a % 3) AS g:INTEGER, $count_star() AS count(*):BIGINT]
    Aggregate groups=[(t.a % 3)] aggs=[count_star():BIGINT]
      Scan t AS t cols=12
`, ""},
		{"SELECT a+1 AS x, x*2 AS y FROM t WHERE y > 3", `
Project [(t.a + 1) AS x:INTEGER, ((t.a + 1) * 2) AS y:INTEGER]
  Filter (((t.a + 1) * 2) > 3)
    Scan t AS t cols=12
`, ""},
		{"SELECT b, sum(price) FROM t GROUP BY 1 ORDER BY 2 DESC", `
Sort [$sum(price) DESC]
  Project [$b AS b:BIGINT, $sum(t.price) AS sum(price):DECIMAL(38,2)]
    Aggregate groups=[t.b] aggs=[sum(t.price):DECIMAL(38,2)]
      Scan t AS t cols=12
`, ""},
		{"SELECT s FROM t GROUP BY s ORDER BY count(*) DESC, s", `
Project [$s AS s:VARCHAR]
  Sort [$count_star() DESC, $s]
    Project [$s AS s:VARCHAR, $count_star() AS count_star():BIGINT]
      Aggregate groups=[t.s] aggs=[count_star():BIGINT]
        Scan t AS t cols=12
`, ""},
		{"SELECT a + 1 FROM t GROUP BY a ORDER BY a", `
Project [$a + 1 AS a + 1:INTEGER]
  Sort [$a]
    Project [($a + 1) AS a + 1:INTEGER, $a AS a:INTEGER]
      Aggregate groups=[t.a] aggs=[]
        Scan t AS t cols=12
`, ""},
		{"SELECT a FROM t LIMIT 5", `
Limit 5 offset 0
  Project [t.a AS a:INTEGER]
    Scan t AS t cols=12
`, ""},
		{"SELECT a FROM t OFFSET 5", `
Limit -1 offset 5
  Project [t.a AS a:INTEGER]
    Scan t AS t cols=12
`, ""},
		{"SELECT * FROM 'data/events.parquet' WHERE kind ILIKE 'x%' ORDER BY id", `
Sort [$id]
  Project [events.id AS id:BIGINT, events.kind AS kind:VARCHAR]
    Filter (events.kind ILIKE 'x%')
      Scan data/events.parquet AS events cols=2
`, ""},
		{"SELECT * FROM read_parquet('events/*.parquet') e WHERE e.id IN (1, 2, 3)", `
Project [e.id AS id:BIGINT, e.kind AS kind:VARCHAR]
  Filter e.id IN (1, 2, 3)
    Scan events/*.parquet AS e cols=2
`, ""},
		{"SELECT kind FROM `data/events.b2z`", `
Project [events.kind AS kind:VARCHAR]
  Scan data/events.b2z AS events cols=2
`, ""},
		{"SELECT e.kind FROM read_b2('x/events.b2frame') AS e", `
Project [e.kind AS kind:VARCHAR]
  Scan x/events.b2frame AS e cols=2
`, ""},
		{"SELECT upper(kind) AS k, count(*) FROM events GROUP BY k HAVING k <> 'X'", `
Project [$upper(events.kind) AS k:VARCHAR, $count_star() AS count(*):BIGINT]
  Filter ($upper(events.kind) <> 'X')
    Aggregate groups=[upper(events.kind)] aggs=[count_star():BIGINT]
      Scan events AS events cols=2
`, ""},
		{"SELECT COUNT(*) FROM t HAVING COUNT(*) > 0", `
Project [$count_star() AS COUNT(*):BIGINT]
  Filter ($count_star() > 0)
    Aggregate groups=[] aggs=[count_star():BIGINT]
      Scan t AS t cols=12
`, ""},
		{"SELECT id AS a FROM events ORDER BY a", `
Sort [$a]
  Project [events.id AS a:BIGINT]
    Scan events AS events cols=2
`, ""},
		{"SELECT a AS b FROM t ORDER BY b", `
Sort [$b]
  Project [t.a AS b:INTEGER]
    Scan t AS t cols=12
`, ""},
		{"SELECT * FROM events WHERE id NOT BETWEEN 1 AND 9", `
Project [events.id AS id:BIGINT, events.kind AS kind:VARCHAR]
  Filter ((events.id < 1) OR (events.id > 9))
    Scan events AS events cols=2
`, ""},
		{"SELECT a, count(*) FROM t GROUP BY ALL", `
Project [$a AS a:INTEGER, $count_star() AS count(*):BIGINT]
  Aggregate groups=[t.a] aggs=[count_star():BIGINT]
    Scan t AS t cols=12
`, ""},
		{"SELECT DISTINCT id, kind FROM events LIMIT 1", `
Limit 1 offset 0
  Distinct
    Project [events.id AS id:BIGINT, events.kind AS kind:VARCHAR]
      Scan events AS events cols=2
`, ""},
		{"SELECT kind, id FROM events ORDER BY 2, kind DESC NULLS FIRST", `
Sort [$id, $kind DESC NULLS FIRST]
  Project [events.kind AS kind:VARCHAR, events.id AS id:BIGINT]
    Scan events AS events cols=2
`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := Parse(Source{Text: tc.sql})
			if err == nil {
				var bd *Bound
				if bd, err = Bind(st.(*Query), newCatalog()); err == nil {
					if got := "\n" + formatPlan(bd.Root); got != tc.plan {
						t.Errorf("plan:\n%s\nwant:\n%s", got, tc.plan)
					}
					if n := len(bd.Root.Schema()); n != len(bd.Names) {
						t.Errorf("%d names for %d columns", len(bd.Names), n)
					}
				}
			}
			if got := errString(err); got != tc.err {
				t.Errorf("error %q, want %q", got, tc.err)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
