package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// SUMMARIZE t (DuckDB's) is SELECT * FROM summarize('t'): one row per
// column of a table, a path or a query, with
//
//	column_name, column_type  VARCHAR
//	min, max                  VARCHAR  of any type
//	approx_unique             BIGINT   approx_count_distinct
//	avg, std, q25, q50, q75   VARCHAR  numbers only (NULL otherwise); q* by quantile_cont;
//	                                   of a TIME avg and q* too (TIMEs, as DuckDB), std NULL
//	count                     BIGINT   rows
//	null_percentage           DECIMAL(9,2)
//
// The summary is SQL built from the source's schema: one aggregate over
// the source (a single scan, every column at once) cross joined with
// range(columns) to unpivot it, one row per column in schema order.

// isRelation reports whether name (parts joined by dots) names a table
// or view of the catalog in another schema than main.
func (b *binder) isRelation(name string) bool {
	key, schema, bad, _ := relKey(strings.Split(name, "."), pathOf(b.cat))
	if bad >= 0 || schema == "" {
		return false
	}
	if _, ok := b.cat.Table(key); ok {
		return true
	}
	vc, ok := b.cat.(planner.ViewCatalog)
	if ok {
		_, ok = vc.View(key)
	}
	return ok
}

// relationText is the SQL that names arg in FROM: a relation of another
// schema as "s"."t", a path as a string, a name as a quoted name.
func (b *binder) relationText(arg string) string {
	switch {
	case b.isRelation(arg):
		parts := strings.Split(arg, ".")
		for i, p := range parts {
			parts[i] = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
		}
		return strings.Join(parts, ".")
	case strings.ContainsAny(arg, "/\\.*") || hasKnownExt(arg):
		return quoteSQL(arg)
	}
	return `"` + strings.ReplaceAll(arg, `"`, `""`) + `"`
}

// oneStringArg returns the string of a call's only argument when it is a
// string literal, and the token to point errors at (the string's, else
// the call's at); "" otherwise.
func (b *binder) oneStringArg(args callexpr.SelectExprs, at int) (string, int) {
	if len(args) == 1 {
		if ae, ok := args[0].(*callexpr.AliasedExpr); ok {
			if v, ok := ae.Expr.(*callexpr.SQLVal); ok && v.Type == callexpr.StrVal {
				return string(v.Val), b.q.tok(v.At)
			}
		}
	}
	return "", at
}

// bindSummarize binds summarize('name, path or query') called at token
// at; its errors point at the string.
func (b *binder) bindSummarize(args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	arg, at := b.oneStringArg(args, at)
	if arg == "" {
		return nil, b.errAt(at, ErrType, "summarize expects one string argument (a table, a path or a query)")
	}
	// The source as SQL: a query in parentheses, else a relation's name or
	// a path (relationText).
	src := b.relationText(arg)
	if up := strings.ToUpper(strings.TrimSpace(arg)); strings.HasPrefix(up, "SELECT") || strings.HasPrefix(up, "WITH") || strings.HasPrefix(up, "(") {
		src = "(" + arg + ") AS summarized"
	}
	fail := func(err error) (*fromItem, error) {
		kind, msg := error(ErrUnsupported), err.Error()
		if e, ok := err.(*Error); ok {
			kind, msg = e.Kind, e.Msg
		}
		return nil, b.errAt(at, kind, "SUMMARIZE: "+msg)
	}
	schema, err := b.bindText("SELECT * FROM " + src)
	if err != nil {
		return fail(err)
	}
	bd, err := b.bindText(summarySQL(schema, src))
	if err != nil {
		return fail(err)
	}
	if alias == "" {
		alias = "summarize"
	}
	return b.relation(bd, alias, nil, nil)
}

// summarySQL is the summary query of the columns of bd read from src.
func summarySQL(bd *Bound, src string) string {
	cols := bd.Root.Schema()
	var agg []string
	pick := map[string][]string{}
	stat := func(key string, i int, expr string) {
		agg = append(agg, fmt.Sprintf("%s AS %s_%d", expr, key, i))
		pick[key] = append(pick[key], fmt.Sprintf("WHEN %d THEN %s_%d", i, key, i))
	}
	const noValue = "CAST(NULL AS VARCHAR)"
	for i, c := range cols {
		q := `"` + strings.ReplaceAll(bd.Names[i], `"`, `""`) + `"`
		varchar := func(x string) string { return "CAST(" + x + " AS VARCHAR)" }
		stat("name", i, quoteSQL(bd.Names[i]))
		stat("type", i, quoteSQL(c.Type.String()))
		stat("min", i, varchar("min("+q+")"))
		stat("max", i, varchar("max("+q+")"))
		stat("uniq", i, "approx_count_distinct("+q+")")
		stat("nonnull", i, "count("+q+")")
		numeric := c.Type.IsNumeric()
		for _, s := range []struct{ key, expr string }{
			{"avg", "avg(" + q + ")"}, {"std", "stddev_samp(" + q + ")"},
			{"q25", "quantile_cont(" + q + ", 0.25)"}, {"q50", "quantile_cont(" + q + ", 0.5)"}, {"q75", "quantile_cont(" + q + ", 0.75)"},
		} {
			if numeric || c.Type.ID == columnar.Time && s.key != "std" {
				stat(s.key, i, varchar(s.expr))
			} else {
				stat(s.key, i, noValue)
			}
		}
	}
	choose := func(key string) string { return "CASE i " + strings.Join(pick[key], " ") + " END" }
	return fmt.Sprintf(`SELECT %s AS column_name, %s AS column_type, %s AS "min", %s AS "max", %s AS approx_unique, `+
		`%s AS "avg", %s AS std, %s AS q25, %s AS q50, %s AS q75, n AS "count", `+
		`CAST(100.0 * (n - %s) / NULLIF(n, 0) AS DECIMAL(9,2)) AS null_percentage `+
		`FROM (SELECT count(*) AS n, %s FROM %s) AS agg, range(%d) AS r(i) ORDER BY i`,
		choose("name"), choose("type"), choose("min"), choose("max"), choose("uniq"),
		choose("avg"), choose("std"), choose("q25"), choose("q50"), choose("q75"),
		choose("nonnull"), strings.Join(agg, ", "), src, len(cols))
}
