package sql

import (
	"errors"
	"testing"
)

// bindScript splits, parses and binds every statement of a script,
// returning the first error.
func bindScript(script string) error {
	for _, src := range Split(script) {
		st, err := Parse(src)
		if err != nil {
			return err
		}
		if q, ok := st.(*Query); ok {
			if _, err := Bind(q, newCatalog()); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestErrors(t *testing.T) {
	cases := []struct {
		sql  string
		kind error
		msg  string
	}{
		{"SELECT pricee FROM t", ErrUnknownColumn, `line 1:8: unknown column "pricee" (did you mean "price"?)`},
		{"SELECT t.pricee FROM t", ErrUnknownColumn, `line 1:8: unknown column "t.pricee" (did you mean "price"?)`},
		{"SELECT zzz FROM t", ErrUnknownColumn, `line 1:8: unknown column "zzz"`},
		{"SELECT a FROM t WHERE b > 1 AND qq = 2", ErrUnknownColumn, `line 1:33: unknown column "qq"`},
		{"SELECT 'é', pricee FROM t", ErrUnknownColumn, `line 1:13: unknown column "pricee" (did you mean "price"?)`},
		{"SELECT a FROM tt", ErrUnknownTable, `line 1:15: unknown table "tt" (did you mean "t"?)`},
		{"SELECT x.a FROM t", ErrUnknownTable, `line 1:8: unknown table "x"`},
		{"SELECT * FROM 'nofile.parquet'", ErrUnknownTable, `line 1:15: cannot open "nofile.parquet": no such file`},
		{"SELECT lowerr(s) FROM t", ErrUnknownFunction, `line 1:8: unknown function "lowerr" (did you mean "lower"?)`},
		{"SELECT * FROM read_foo('x')", ErrUnknownFunction, `line 1:15: unknown table function "read_foo"`},
		{"SELECT x FROM dup", ErrAmbiguousColumn, `line 1:8: column reference "x" is ambiguous`},
		{"SELECT a + s FROM t", ErrType, `line 1:8: cannot apply + to INTEGER and VARCHAR`},
		{"SELECT a FROM t WHERE s = 1", ErrType, `line 1:23: cannot compare VARCHAR with INTEGER`},
		{"SELECT a FROM t WHERE d = 'abc'", ErrType, `line 1:27: could not cast 'abc' to DATE`},
		{"SELECT a FROM t WHERE ts > 'not a time'", ErrType, `line 1:28: could not cast 'not a time' to TIMESTAMP`},
		{"SELECT 300::TINYINT", ErrType, `line 1:8: could not cast 300 to TINYINT`},
		{"SELECT CAST(a AS FOO) FROM t", ErrType, `line 1:18: unknown type "FOO"`},
		{"SELECT a FROM t WHERE [a]", ErrType, `line 1:23: WHERE expects BOOLEAN, got INTEGER[]`}, // WHERE a casts a number, as DuckDB
		{"SELECT sum(s) FROM t", ErrType, `line 1:12: sum(VARCHAR) is not supported`},
		{"SELECT date_part('fortnight', d) FROM t", ErrType, `line 1:18: unknown date part "fortnight"`},
		{"SELECT CAST(d AS INTEGER) FROM t", ErrType, `line 1:13: cannot cast DATE to INTEGER`},
		{"SELECT a, count(*) FROM t", ErrGrouping, `line 1:8: column "a" must appear in the GROUP BY clause or be used in an aggregate function`},
		{"SELECT s, a FROM t GROUP BY s", ErrGrouping, `line 1:11: column "a" must appear in the GROUP BY clause or be used in an aggregate function`},
		{"SELECT s FROM t GROUP BY s ORDER BY a", ErrGrouping, `line 1:37: column "a" must appear in the GROUP BY clause or be used in an aggregate function`},
		{"SELECT s FROM t GROUP BY s HAVING b > 1", ErrGrouping, `line 1:35: column "b" must appear in the GROUP BY clause or be used in an aggregate function`},
		{"SELECT a FROM t WHERE sum(a) > 1", ErrGrouping, `line 1:23: aggregate functions are not allowed in WHERE`},
		{"SELECT sum(count(*)) FROM t", ErrGrouping, `line 1:12: aggregate function calls cannot be nested`},
		{"SELECT count(*) FROM t GROUP BY 1", ErrGrouping, `line 1:8: aggregate functions are not allowed in GROUP BY`},
		{"SELECT DISTINCT a FROM t ORDER BY b", ErrGrouping, `line 1:35: for SELECT DISTINCT, ORDER BY expressions must appear in the select list`},
		// The second t, the one to alias (the first was found by searching the
		// FROM clause's text for the name before the binder positioned its
		// errors from the syntax tree).
		{"SELECT * FROM t, t", ErrUnsupported, `line 1:18: duplicate table name "t" in FROM; use an alias`},
		{"SELECT * FROM t AS x, events AS x", ErrUnsupported, `line 1:33: duplicate table name "x" in FROM; use an alias`},
		{"SELECT a FROM t WHERE a IN (SELECT id, id FROM events)", ErrType, `line 1:29: subquery returns 2 columns, expected 1`},
		// A correlated subquery above the Aggregate reads group keys only.
		{"SELECT b FROM t GROUP BY b HAVING count(*) > (SELECT count(*) FROM events WHERE id = a)", ErrGrouping, `line 1:47: column "a" must appear in the GROUP BY clause or be used in an aggregate function (read by a subquery here)`},
		// A subquery key groups; a column under it is not grouped (DuckDB's error).
		{"SELECT a FROM t GROUP BY (SELECT max(a) FROM t)", ErrGrouping, `line 1:8: column "a" must appear in the GROUP BY clause or be used in an aggregate function`},
		// (SELECT 1) without FROM is the constant 1 (bind_subquery_list.go), as DuckDB groups by it.
		{"SELECT a FROM t GROUP BY (SELECT 1)", ErrGrouping, `line 1:8: column "a" must appear in the GROUP BY clause or be used in an aggregate function`},
		// Unnamed STRUCTs: refused, saying how to name the fields (was "unknown function \"row\" (did you mean \"now\"?)").
		{"SELECT a FROM t UNION SELECT a, b FROM t", ErrType, `line 1:17: each UNION query must have the same number of columns (1 and 2)`},
		{"SELECT count(*), sum(a) OVER () FROM t", ErrGrouping, `line 1:22: column "a" must appear in the GROUP BY clause or be used in an aggregate function`},
		{"SELECT a FROM t WHERE rank() OVER () > 1", ErrGrouping, `line 1:30: window functions are not allowed in WHERE`},
		{"SELECT 1 # 2", ErrUnsupported, `line 1:10: operator "#" is not supported`},
		{"SELECT a FROM t ORDER BY 5", ErrUnknownColumn, `line 1:26: ORDER BY position 5 is not in select list (1..1)`},
		{"SELECT a FROM t GROUP BY 0", ErrUnknownColumn, `line 1:26: GROUP BY position 0 is not in select list (1..1)`},
		{"SELECT a FROM t WHER a > 1", ErrSyntax, `line 1:22: syntax error at or near "a"`},
		{"SELECT a FROM t WHERE", ErrSyntax, `line 1:22: syntax error at end of input (expected an expression after "WHERE")`},
		{"SELECT a +* 2 FROM t", ErrUnsupported, `line 1:10: operator "+*" is not supported`}, // DuckDB: no function "+*"
		{"SELECT 'abc FROM t", ErrSyntax, `line 1:8: unterminated quoted string`},
		{"SELECT \"abc FROM t", ErrSyntax, `line 1:8: unterminated quoted identifier`},
		{"SELECT a /* comment", ErrSyntax, `line 1:10: unterminated comment`},
		{"SELECT a FROM t WHERE a = $1", ErrParam, `line 1:27: no value for parameter $1`},
		{"SELECT $1, $a", ErrParam, `line 1:12: named ($name) and numbered (?, $1) parameters cannot be mixed`},
		{"SELECT 1 2", ErrSyntax, `line 1:10: syntax error at or near "2"`}, // 1x is 1 AS x, as in DuckDB
		{"SELECT a::", ErrSyntax, `line 1:11: syntax error at end of input (expected a type name)`},
		{"FROB a", ErrSyntax, `line 1:1: syntax error at or near "FROB" (expected a statement)`},
		{"SET threads 4", ErrSyntax, `line 1:13: syntax error at or near "4" (expected "=" or TO)`},
		// Multi-line statements report the line inside the statement.
		{"SELECT a,\n       pricee\nFROM t", ErrUnknownColumn, `line 2:8: unknown column "pricee" (did you mean "price"?)`},
		{"SELECT a\nFROM t\nWHERE d >\n  'xyz'", ErrType, `line 4:3: could not cast 'xyz' to DATE`},
		{"SELECT a\nFROM t\nWHER a > 1", ErrSyntax, `line 3:6: syntax error at or near "a"`},
		{"SELECT a -- note\n  FROM t WHERE 'é' = 'é' AND zz", ErrUnknownColumn, `line 2:30: unknown column "zz"`},
		// Later statements of a script report script positions.
		{"SELECT 1;\nSELECT x FROM t;", ErrUnknownColumn, `line 2:8: unknown column "x"`},
		{"SELECT 1; SELECT 'a;b'; SELECT pricee FROM t", ErrUnknownColumn, `line 1:32: unknown column "pricee" (did you mean "price"?)`},
		{"SELECT 1;\n-- a comment; with a semicolon\n  SELECT a FROM t WHER a > 1;", ErrSyntax, `line 3:24: syntax error at or near "a"`},
		{"SELECT 1;\n\n   SELECT a FROM t WHERE", ErrSyntax, `line 3:25: syntax error at end of input (expected an expression after "WHERE")`},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			err := bindScript(tc.sql)
			if err == nil {
				t.Fatalf("no error, want %q", tc.msg)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if err.Error() != tc.msg {
				t.Errorf("error\n %q\nwant\n %q", err.Error(), tc.msg)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("kind %v, want %v", e.Kind, tc.kind)
			}
		})
	}
}

// TestWithEnd: an error built from a recorded position (as internal/dml
// builds them) gets the end of its token, on a later line of a script
// too; an error with an End keeps it.
func TestWithEnd(t *testing.T) {
	src := Source{Text: "INSERT INTO m\n  VALUES (1, 'a b')", Line: 3, Col: 5}
	for _, tc := range []struct {
		pos, want Pos
	}{
		{Pos{3, 17}, Pos{3, 18}}, // m
		{Pos{3, 5}, Pos{3, 11}},  // INSERT
		{Pos{4, 14}, Pos{4, 19}}, // 'a b'
		{Pos{9, 1}, Pos{}},       // outside: unchanged
	} {
		err := WithEnd(src, &Error{Pos: tc.pos, Kind: ErrType, Msg: "x"})
		if got := err.(*Error).End; got != tc.want {
			t.Errorf("%v: End %v, want %v", tc.pos, got, tc.want)
		}
	}
	kept := &Error{Pos: Pos{3, 5}, End: Pos{3, 7}}
	if got := WithEnd(src, kept).(*Error).End; got != (Pos{3, 7}) {
		t.Errorf("End changed to %v", got)
	}
}
