package sql

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// TestExprTypes pins the typing decisions listed in types.go. Columns of t:
// a INTEGER, b BIGINT, s VARCHAR, price DECIMAL(10,2), d DATE,
// ts TIMESTAMP, f DOUBLE, small SMALLINT, u UINTEGER, ub UBIGINT, ok BOOLEAN.
func TestExprTypes(t *testing.T) {
	cases := []struct{ expr, typ, plan string }{
		// Literals.
		{"1", "INTEGER", "1"},
		{"-2147483648", "INTEGER", "-2147483648"},
		{"2147483648", "BIGINT", "2147483648"},
		{"18446744073709551615", "HUGEINT", "18446744073709551615"}, // DuckDB: past BIGINT, HUGEINT
		{"1.5", "DECIMAL(2,1)", "1.5"},
		{"-0.05", "DECIMAL(3,2)", "-0.05"}, // DuckDB 1.5.6 counts the leading 0
		{"0.1 + 0.2 = 0.3", "BOOLEAN", "((0.1 + 0.2) = 0.3)"},
		{"1234567890.123456789", "DECIMAL(19,9)", "1234567890.123456789"},
		{"1e3", "DOUBLE", "1000.0"},
		{"'x'", "VARCHAR", "'x'"},
		{"TRUE", "BOOLEAN", "true"},
		{"NULL", "NULL", "NULL"},
		{"DATE '2024-02-29'", "DATE", "DATE '2024-02-29'"},
		{"TIMESTAMP '2024-01-01 10:00:00.5'", "TIMESTAMP", "TIMESTAMP '2024-01-01 10:00:00.5'"},
		{"INTERVAL '1 day'", "INTERVAL", "1 day"},
		{"INTERVAL 90 MINUTES", "INTERVAL", "01:30:00"},
		{"INTERVAL '1 day 02:00:00'", "INTERVAL", "1 day 02:00:00"},
		// Arithmetic supertypes.
		{"a + b", "BIGINT", "(CAST(t.a AS BIGINT) + t.b)"},
		{"small + 1", "SMALLINT", "(t.small + 1)"}, // DuckDB: the literal takes SMALLINT
		{"a + u", "BIGINT", "(CAST(t.a AS BIGINT) + CAST(t.u AS BIGINT))"},
		{"b + ub", "HUGEINT", "(CAST(t.b AS HUGEINT) + CAST(t.ub AS HUGEINT))"},
		{"a + f", "DOUBLE", "(CAST(t.a AS DOUBLE) + t.f)"},
		{"price + f", "DOUBLE", "(CAST(t.price AS DOUBLE) + t.f)"},
		{"price + a", "DECIMAL(13,2)", "(CAST(t.price AS DECIMAL(13,2)) + CAST(t.a AS DECIMAL(13,2)))"},
		{"price - price", "DECIMAL(11,2)", "(CAST(t.price AS DECIMAL(11,2)) - CAST(t.price AS DECIMAL(11,2)))"},
		{"price * 2", "DECIMAL(18,2)", "(t.price * 2)"}, // DuckDB 1.5.6
		{"price * price", "DECIMAL(18,4)", "(t.price * t.price)"},
		{"price * a", "DECIMAL(18,2)", "(t.price * CAST(t.a AS DECIMAL(10,0)))"},
		{"price * b", "DECIMAL(29,2)", "(t.price * CAST(t.b AS DECIMAL(19,0)))"},
		{"price * 1.5", "DECIMAL(12,3)", "(t.price * 1.5)"},
		{"price % 2", "DECIMAL(12,2)", "(CAST(t.price AS DECIMAL(12,2)) % 2.00)"}, // DuckDB's type: exact
		{"a / 2", "DOUBLE", "(CAST(t.a AS DOUBLE) / 2.0)"},
		{"a // 2", "INTEGER", "(t.a // 2)"},
		{"b % a", "BIGINT", "(t.b % CAST(t.a AS BIGINT))"},
		{"-small", "SMALLINT", "-t.small"},
		{"a + '2'", "INTEGER", "(t.a + 2)"},
		{"a + NULL", "INTEGER", "(t.a + NULL)"},
		{"s || a", "VARCHAR", "(t.s || CAST(t.a AS VARCHAR))"},
		// Temporal arithmetic.
		{"d + 1", "DATE", "(t.d + 1)"},
		{"1 + d", "DATE", "(1 + t.d)"},
		{"d + small", "DATE", "(t.d + CAST(t.small AS INTEGER))"},
		{"d - d", "BIGINT", "(t.d - t.d)"},
		{"ts - ts", "INTERVAL", "(t.ts - t.ts)"},
		{"ts - d", "INTERVAL", "(t.ts - CAST(t.d AS TIMESTAMP))"},
		{"ts + INTERVAL 1 HOUR", "TIMESTAMP", "(t.ts + 01:00:00)"},
		{"INTERVAL 1 HOUR + ts", "TIMESTAMP", "(t.ts + 01:00:00)"},
		{"d - INTERVAL '1 week'", "TIMESTAMP", "(CAST(t.d AS TIMESTAMP) - 7 days)"},
		// Comparisons: literals take the column's type when they fit.
		{"small = 3", "BOOLEAN", "(t.small = 3)"},
		{"small = 100000", "BOOLEAN", "(CAST(t.small AS INTEGER) = 100000)"},
		{"u > -1", "BOOLEAN", "(CAST(t.u AS BIGINT) > -1)"},
		{"price > 1.5", "BOOLEAN", "(t.price > 1.50)"},
		{"price > 1.555", "BOOLEAN", "(CAST(t.price AS DECIMAL(11,3)) > 1.555)"},
		{"f > 1.5", "BOOLEAN", "(t.f > 1.5)"},
		{"price = 3", "BOOLEAN", "(t.price = 3.00)"},
		{"f > 1", "BOOLEAN", "(t.f > 1.0)"},
		{"a > 1.5", "BOOLEAN", "(CAST(t.a AS DECIMAL(11,1)) > 1.5)"},
		{"d = '2024-01-02'", "BOOLEAN", "(t.d = DATE '2024-01-02')"},
		{"'2024-01-02' < d", "BOOLEAN", "(DATE '2024-01-02' < t.d)"},
		{"ts > '2024-01-02'", "BOOLEAN", "(t.ts > TIMESTAMP '2024-01-02 00:00:00')"},
		{"d < ts", "BOOLEAN", "(CAST(t.d AS TIMESTAMP) < t.ts)"},
		{"a = '7'", "BOOLEAN", "(t.a = 7)"},
		{"ok = 'true'", "BOOLEAN", "(t.ok = true)"},
		{"b IN (1, 2, '3')", "BOOLEAN", "t.b IN (1, 2, 3)"},
		{"d IN ('2024-01-01', NULL)", "BOOLEAN", "t.d IN (DATE '2024-01-01', NULL)"},
		{"a BETWEEN 1 AND b", "BOOLEAN", "((CAST(t.a AS BIGINT) >= 1) AND (CAST(t.a AS BIGINT) <= t.b))"},
		{"s LIKE 'a%'", "BOOLEAN", "(t.s LIKE 'a%')"},
		{"s ILIKE 'a%'", "BOOLEAN", "(t.s ILIKE 'a%')"},
		{"s NOT ILIKE 'a%'", "BOOLEAN", "(t.s NOT_ILIKE 'a%')"},
		{"a IS NULL OR NOT ok", "BOOLEAN", "(t.a IS NULL OR NOT t.ok)"},
		{"ok IS NOT FALSE", "BOOLEAN", "NOT coalesce(NOT t.ok, false)"},
		// Conditional expressions.
		{"CASE WHEN ok THEN a ELSE b END", "BIGINT", "CASE WHEN t.ok THEN CAST(t.a AS BIGINT) ELSE t.b END"},
		{"CASE WHEN ok THEN d ELSE '2024-01-01' END", "DATE", "CASE WHEN t.ok THEN t.d ELSE DATE '2024-01-01' END"},
		{"CASE WHEN ok THEN 1 END", "INTEGER", "CASE WHEN t.ok THEN 1 END"},
		{"CASE s WHEN 'x' THEN 1 WHEN 'y' THEN 2.5 END", "DECIMAL(11,1)", "CASE WHEN (t.s = 'x') THEN 1.0 WHEN (t.s = 'y') THEN 2.5 END"},
		{"CASE WHEN ok THEN f ELSE 2.5 END", "DOUBLE", "CASE WHEN t.ok THEN t.f ELSE 2.5 END"},
		{"COALESCE(small, a, 0)", "INTEGER", "coalesce(CAST(t.small AS INTEGER), t.a, 0)"},
		{"COALESCE(NULL, s)", "VARCHAR", "coalesce(NULL, t.s)"},
		{"NULLIF(a, 0)", "INTEGER", "nullif(t.a, 0)"},
		// Casts.
		{"CAST(a AS VARCHAR)", "VARCHAR", "CAST(t.a AS VARCHAR)"},
		{"a::BIGINT", "BIGINT", "CAST(t.a AS BIGINT)"},
		{"a::bigint::varchar", "VARCHAR", "CAST(CAST(t.a AS BIGINT) AS VARCHAR)"},
		{"-a::BIGINT", "BIGINT", "-CAST(t.a AS BIGINT)"},
		{"(a + 1)::DOUBLE", "DOUBLE", "CAST((t.a + 1) AS DOUBLE)"},
		{"CAST('12' AS INT)", "INTEGER", "12"},
		{"'2024-01-01'::DATE", "DATE", "DATE '2024-01-01'"},
		{"CAST(1.005 AS DECIMAL(5,2))", "DECIMAL(5,2)", "1.01"},
		{"CAST(2.5 AS INTEGER)", "INTEGER", "3"},
		{"CAST(s AS DOUBLE PRECISION)", "DOUBLE", "CAST(t.s AS DOUBLE)"},
		{"CAST(price AS NUMERIC(12, 4))", "DECIMAL(12,4)", "CAST(t.price AS DECIMAL(12,4))"},
		{"CAST(s AS DECIMAL)", "DECIMAL(18,3)", "CAST(t.s AS DECIMAL(18,3))"},
		{"CAST(a AS TEXT)", "VARCHAR", "CAST(t.a AS VARCHAR)"},
		{"CAST(s AS BOOL)", "BOOLEAN", "CAST(t.s AS BOOLEAN)"},
		{"CAST(b AS UTINYINT)", "UTINYINT", "CAST(t.b AS UTINYINT)"},
		{"CAST(CAST(a AS INT) AS REAL)", "FLOAT", "CAST(t.a AS FLOAT)"},
		{"TRY_CAST(s AS DATE)", "DATE", "TRY_CAST(t.s AS DATE)"},
		{"TRY_CAST('x' AS INTEGER)", "INTEGER", "NULL"},
		{"CAST(ts AS DATE)", "DATE", "CAST(t.ts AS DATE)"},
		{"CAST(s AS BLOB)", "BLOB", "CAST(t.s AS BLOB)"},
		// Functions.
		{"lower(s)", "VARCHAR", "lower(t.s)"},
		{"UPPER(s)", "VARCHAR", "upper(t.s)"},
		{"length(s)", "BIGINT", "length(t.s)"},
		{"substring(s, 2, a)", "VARCHAR", "substring(t.s, 2, CAST(t.a AS BIGINT))"},
		{"substring(s FROM 2 FOR 3)", "VARCHAR", "substring(t.s, 2, 3)"},
		{"substr(s, 2)", "VARCHAR", "substring(t.s, 2)"},
		{"trim(s)", "VARCHAR", "trim(t.s)"},
		{"ltrim(s)", "VARCHAR", "ltrim(t.s)"},
		{"concat(s, a, NULL)", "VARCHAR", "concat(t.s, CAST(t.a AS VARCHAR), NULL)"},
		{"reverse(s)", "VARCHAR", "reverse(t.s)"},
		{"abs(small)", "SMALLINT", "abs(t.small)"},
		{"abs(price)", "DECIMAL(10,2)", "abs(t.price)"},
		{"round(price, 1)", "DECIMAL(10,1)", "CAST(round(t.price, 1) AS DECIMAL(10,1))"},
		{"round(price)", "DECIMAL(10,0)", "CAST(round(t.price) AS DECIMAL(10,0))"},
		{"floor(price)", "DECIMAL(10,0)", "CAST(floor(t.price) AS DECIMAL(10,0))"},
		{"round(price, -1)", "DECIMAL(10,0)", "CAST(round(t.price, -1) AS DECIMAL(10,0))"}, // round(price, a) is an error: the scale needs a constant
		{"round(f)", "DOUBLE", "round(t.f)"},
		{"floor(f)", "DOUBLE", "floor(t.f)"},
		{"ceiling(a)", "INTEGER", "ceil(t.a)"},
		{"EXTRACT(year FROM d)", "BIGINT", "date_part('year', t.d)"},
		{"extract('dow' from ts)", "BIGINT", "date_part('dow', t.ts)"},
		{"EXTRACT(epoch FROM ts)", "DOUBLE", "date_part('epoch', t.ts)"},
		{"date_part('month', d)", "BIGINT", "date_part('month', t.d)"},
		{"date_part('hours', INTERVAL '3 hours')", "BIGINT", "date_part('hour', 03:00:00)"},
		{"date_trunc('month', ts)", "TIMESTAMP", "date_trunc('month', t.ts)"},
		{"date_trunc('year', d)", "TIMESTAMP", "date_trunc('year', CAST(t.d AS TIMESTAMP))"}, // DuckDB: DATE => TIMESTAMP
	}
	cat := newCatalog()
	for _, tc := range cases {
		t.Run(tc.expr, func(t *testing.T) {
			st, err := Parse(Source{Text: "SELECT " + tc.expr + " FROM t"})
			if err != nil {
				t.Fatal(err)
			}
			bd, err := Bind(st.(*Query), cat)
			if err != nil {
				t.Fatal(err)
			}
			p := bd.Root.(*planner.Project)
			if got := p.Out[0].Type.String(); got != tc.typ {
				t.Errorf("type %s, want %s", got, tc.typ)
			}
			if got := p.Exprs[0].String(); got != tc.plan {
				t.Errorf("expr %s, want %s", got, tc.plan)
			}
			if p.Exprs[0].Type() != p.Out[0].Type {
				t.Errorf("expr type %s, column type %s", p.Exprs[0].Type(), p.Out[0].Type)
			}
			checkTyped(t, p.Exprs[0])
		})
	}
}

// checkTyped verifies the contract of planner/expr.go: the arguments of a
// call already have the types the vocabulary expects.
func checkTyped(t *testing.T, e planner.Expr) {
	planner.WalkExpr(e, func(x planner.Expr) {
		c, ok := x.(*planner.Call)
		if !ok {
			return
		}
		same := func(i, j int) {
			a, b := c.Args[i].Type(), c.Args[j].Type()
			if a != b && a.ID != columnar.Null && b.ID != columnar.Null {
				t.Errorf("%s: argument types %s and %s differ", c, a, b)
			}
		}
		switch c.Fn {
		case "=", "<>", "<", "<=", ">", ">=", "nullif":
			same(0, 1)
		case "in", "not_in", "coalesce":
			for i := 1; i < len(c.Args); i++ {
				same(0, i)
			}
		case "*":
			// A DECIMAL product multiplies the scaled integers as they
			// are (types.go): its operands keep their own scales.
			if !c.Args[0].Type().IsDecimal() || !c.Args[1].Type().IsDecimal() {
				same(0, 1)
			}
		case "/", "//", "%":
			same(0, 1)
		case "+", "-":
			if !c.Args[0].Type().IsTemporal() && !c.Args[1].Type().IsTemporal() && c.Args[0].Type().ID != columnar.Interval && c.Args[1].Type().ID != columnar.Interval {
				same(0, 1)
			}
		}
	})
}
