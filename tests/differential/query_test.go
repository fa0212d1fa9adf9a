package differential

import (
	"fmt"
	"strings"
)

// query is one generated query in both dialects. ordered means its ORDER
// BY is a total order over the result, so rows must match in order.
type query struct {
	sql     pair
	ordered bool
	shape   string
}

// shapes are the query generators, picked uniformly.
var shapes = []struct {
	name string
	gen  func(g *gen) query
}{
	{"select", (*gen).selectQuery},
	{"aggregate", (*gen).groupQuery},
	{"global-aggregate", (*gen).globalAggQuery},
	{"distinct", (*gen).distinctQuery},
	{"join", (*gen).joinQuery},
	{"join-aggregate", (*gen).joinAggQuery},
	{"window", (*gen).windowQuery},
	{"subquery", (*gen).subqueryQuery},
	{"setop", (*gen).setopQuery},
	{"cte", (*gen).cteQuery},
}

func (g *gen) query() query {
	s := shapes[g.pick(len(shapes))]
	q := s.gen(g)
	q.shape = s.name
	return q
}

var allKinds = []kind{kInt, kInt, kFloat, kStr, kBool, kDate, kTS}

// items returns n select items of random kinds over sc, aliased c0, c1, …
func (g *gen) items(sc scope, n, depth int) pair {
	var ps []pair
	for i := range n {
		ps = append(ps, f("%s AS c"+fmt.Sprint(i), g.expr(sc, allKinds[g.pick(len(allKinds))], depth)))
	}
	return join(", ", ps...)
}

// limit returns " LIMIT n [OFFSET m]".
func (g *gen) limit() pair {
	t := fmt.Sprintf(" LIMIT %d", 1+g.pick(20))
	if g.chance(0.3) {
		t += fmt.Sprintf(" OFFSET %d", g.pick(10))
	}
	return same(t)
}

func nulls(g *gen) string { return []string{" NULLS FIRST", " NULLS LAST"}[g.pick(2)] }

func dir(g *gen) string { return []string{"", " DESC"}[g.pick(2)] }

// where returns " WHERE p" or nothing.
func (g *gen) where(sc scope, depth int) pair {
	if g.chance(0.2) {
		return same("")
	}
	return f(" WHERE %s", g.pred(sc, depth))
}

func (g *gen) selectQuery() query {
	sc := tableScope(g.tables["t1"], "")
	q := f("SELECT id, %s FROM t1%s", g.items(sc, 1+g.pick(3), 2), g.where(sc, 2))
	if g.chance(0.5) {
		q = f("%s ORDER BY id"+dir(g)+"%s", q, g.limit())
		return query{sql: q, ordered: true}
	}
	return query{sql: q}
}

// agg returns an aggregate over sc.
func (g *gen) agg(sc scope, depth int) pair {
	switch g.pick(8) {
	case 0:
		return same("count(*)")
	case 1:
		return f("count(%s)", g.expr(sc, allKinds[g.pick(len(allKinds))], depth))
	case 2:
		return f("count(DISTINCT %s)", g.expr(sc, []kind{kInt, kStr, kDate}[g.pick(3)], depth))
	case 3, 4:
		return f([]string{"sum(%s)", "avg(%s)"}[g.pick(2)], g.expr(sc, []kind{kInt, kFloat}[g.pick(2)], depth))
	}
	k := g.comparable()
	return f([]string{"min(%s)", "max(%s)"}[g.pick(2)], g.expr(sc, k, depth))
}

// groupKeys returns 1–2 grouping expressions over t1.
func (g *gen) groupKeys() []pair {
	keys := []pair{same("a"), same("s"), same("f"), same("d"), same("(a % 3)"), same("lower(s)"), same("(b % 4)"), same("coalesce(a, 0)")}
	n := 1 + g.pick(2)
	perm := g.r.Perm(len(keys))
	out := make([]pair, n)
	for i := range n {
		out[i] = keys[perm[i]]
	}
	return out
}

func (g *gen) groupQuery() query {
	sc := tableScope(g.tables["t1"], "")
	keys := g.groupKeys()
	var items []pair
	for i, k := range keys {
		items = append(items, f("%s AS k"+fmt.Sprint(i), k))
	}
	for i := range 1 + g.pick(3) {
		items = append(items, f("%s AS v"+fmt.Sprint(i), g.agg(sc, 1)))
	}
	q := f("SELECT %s FROM t1%s GROUP BY %s", join(", ", items...), g.where(sc, 2), join(", ", keys...))
	if g.chance(0.4) {
		q = f("%s HAVING %s", q, g.havingPred(sc))
	}
	if g.chance(0.5) {
		var ord []string
		for i := range keys {
			ord = append(ord, fmt.Sprintf("k%d%s%s", i, dir(g), nulls(g)))
		}
		return query{sql: f("%s ORDER BY "+strings.Join(ord, ", ")+"%s", q, g.limit()), ordered: true}
	}
	return query{sql: q}
}

// havingPred compares an aggregate with a literal.
func (g *gen) havingPred(sc scope) pair {
	switch g.pick(3) {
	case 0:
		return f("count(*) > %s", g.intLit(0, 5))
	case 1:
		return f("sum(b) "+cmpOps[g.pick(len(cmpOps))]+" %s", g.intLit(-6, 6))
	}
	return f("(min(x) < %s OR max(a) = %s)", g.floatLit(), g.intLit(-5, 5))
}

func (g *gen) globalAggQuery() query {
	sc := tableScope(g.tables["t1"], "")
	var items []pair
	for i := range 1 + g.pick(4) {
		items = append(items, f("%s AS v"+fmt.Sprint(i), g.agg(sc, 2)))
	}
	return query{sql: f("SELECT %s FROM t1%s", join(", ", items...), g.where(sc, 2))}
}

func (g *gen) distinctQuery() query {
	sc := tableScope(g.tables["t1"], "")
	n := 1 + g.pick(2)
	var items []pair
	var ord []string
	for i := range n {
		k := []kind{kInt, kStr, kBool, kDate, kFloat}[g.pick(5)]
		items = append(items, f("%s AS c"+fmt.Sprint(i), g.expr(sc, k, 1)))
		ord = append(ord, fmt.Sprintf("c%d%s%s", i, dir(g), nulls(g)))
	}
	q := f("SELECT DISTINCT %s FROM t1%s", join(", ", items...), g.where(sc, 2))
	if g.chance(0.5) {
		return query{sql: f("%s ORDER BY "+strings.Join(ord, ", ")+"%s", q, g.limit()), ordered: true}
	}
	return query{sql: q}
}

func joinScope(g *gen) scope {
	return append(tableScope(g.tables["t1"], "l"), tableScope(g.tables["t2"], "r")...)
}

func (g *gen) joinQuery() query {
	sc := joinScope(g)
	kind := []string{"JOIN", "LEFT JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}[g.pick(5)]
	on := same("l.a = r.k")
	if g.chance(0.3) {
		on = f("l.a = r.k AND %s", g.pred(sc, 1))
	}
	q := f("SELECT l.id AS lid, r.id AS rid, %s FROM t1 l "+kind+" t2 r ON %s%s", g.items(sc, 1+g.pick(2), 1), on, g.where(sc, 1))
	if g.chance(0.4) {
		return query{sql: f("%s ORDER BY lid"+nulls(g)+", rid"+dir(g)+nulls(g)+"%s", q, g.limit()), ordered: true}
	}
	return query{sql: q}
}

func (g *gen) joinAggQuery() query {
	sc := joinScope(g)
	key := []pair{same("r.name"), same("l.a"), same("l.f"), same("r.k")}[g.pick(4)]
	kind := []string{"JOIN", "LEFT JOIN"}[g.pick(2)]
	var items []pair
	for i := range 1 + g.pick(3) {
		items = append(items, f("%s AS v"+fmt.Sprint(i), g.agg(sc, 1)))
	}
	q := f("SELECT %s AS k, %s FROM t1 l "+kind+" t2 r ON l.a = r.k%s GROUP BY %s", key, join(", ", items...), g.where(sc, 1), key)
	return query{sql: q}
}

// window returns a window function call over t1.
func (g *gen) window() pair {
	part := []string{"", "PARTITION BY a ", "PARTITION BY s ", "PARTITION BY f ", "PARTITION BY d ", "PARTITION BY a, f "}[g.pick(6)]
	okey := []string{"a", "b", "s", "d", "x"}[g.pick(5)] + dir(g) + nulls(g)
	switch g.pick(11) {
	case 0:
		return same("row_number() OVER (" + part + "ORDER BY " + okey + ", id)")
	case 1:
		return same("rank() OVER (" + part + "ORDER BY " + okey + ")")
	case 2:
		return same("dense_rank() OVER (" + part + "ORDER BY " + okey + ")")
	case 3:
		frame := []string{"", " ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", " ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING", " ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", " ROWS UNBOUNDED PRECEDING"}[g.pick(5)]
		return same("sum(" + []string{"b", "x", "a"}[g.pick(3)] + ") OVER (" + part + "ORDER BY id" + dir(g) + frame + ")")
	case 4:
		return same("sum(" + []string{"b", "x"}[g.pick(2)] + ") OVER (" + strings.TrimSpace(part) + ")")
	case 5:
		return same("count(*) OVER (" + part + "ORDER BY " + okey + ")")
	case 6:
		fn := []string{"lag", "lead"}[g.pick(2)]
		arg := []string{"b", "s", "x", "d"}[g.pick(4)]
		off := []string{"", ", 2"}[g.pick(2)]
		return same(fn + "(" + arg + off + ") OVER (" + part + "ORDER BY id" + dir(g) + ")")
	case 7:
		fn := []string{"min", "max", "avg"}[g.pick(3)]
		return same(fn + "(" + []string{"b", "x", "a"}[g.pick(3)] + ") OVER (" + part + "ORDER BY " + okey + ")")
	}
	return same("count(s) OVER (" + part + "ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING)")
}

func (g *gen) windowQuery() query {
	sc := tableScope(g.tables["t1"], "")
	var items []pair
	for i := range 1 + g.pick(3) {
		items = append(items, f("%s AS w"+fmt.Sprint(i), g.window()))
	}
	q := f("SELECT id, %s FROM t1%s", join(", ", items...), g.where(sc, 1))
	if g.chance(0.3) {
		return query{sql: f("%s ORDER BY id%s", q, g.limit()), ordered: true}
	}
	return query{sql: q}
}

func (g *gen) subqueryQuery() query {
	ls := tableScope(g.tables["t1"], "l")
	rs := tableScope(g.tables["t2"], "r")
	rw := same("")
	if g.chance(0.6) {
		rw = f(" AND %s", g.pred(rs, 1))
	}
	var q pair
	switch g.pick(11) {
	case 0:
		not := []string{"", "NOT "}[g.pick(2)]
		q = f("SELECT l.id, l.a FROM t1 l WHERE l.a "+not+"IN (SELECT r.k FROM t2 r WHERE true%s)", rw)
	case 1:
		not := []string{"", "NOT "}[g.pick(2)]
		q = f("SELECT l.id, l.s FROM t1 l WHERE "+not+"EXISTS (SELECT 1 FROM t2 r WHERE r.k = l.a%s)", rw)
	case 2:
		q = f("SELECT l.id, (SELECT count(*) FROM t2 r WHERE r.k = l.a%s) AS n FROM t1 l%s", rw, g.where(ls, 1))
	case 3:
		agg := []string{"max(r.w)", "min(r.name)", "sum(r.k)", "count(r.name)", "avg(r.w)"}[g.pick(5)]
		q = f("SELECT l.id, (SELECT "+agg+" FROM t2 r WHERE r.k = l.a%s) AS v FROM t1 l", rw)
	case 4:
		q = same("SELECT l.id, l.b FROM t1 l WHERE l.b > (SELECT avg(m.b) FROM t1 m WHERE m.a = l.a)")
	case 5:
		q = f("SELECT l.id FROM t1 l WHERE l.x < (SELECT avg(r.w) FROM t2 r WHERE true%s)", rw)
	case 6:
		// A correlated subquery with ORDER BY … LIMIT: the first match.
		q = f("SELECT l.id, (SELECT r.name FROM t2 r WHERE r.k = l.a%s ORDER BY r.id"+dir(g)+" LIMIT 1) AS v FROM t1 l", rw)
	case 7:
		// Correlated NOT IN: NULLs on either side make it NULL.
		q = f("SELECT l.id FROM t1 l WHERE l.a NOT IN (SELECT r.k FROM t2 r WHERE r.w < l.x%s)", rw)
	case 9:
		// Correlated, grouped by the correlation key itself: one group per outer row.
		q = f("SELECT l.id, (SELECT max(r.w) FROM t2 r WHERE r.k = l.a%s GROUP BY r.k HAVING count(*) > %s) AS v FROM t1 l", rw, g.intLit(0, 2))
	case 10:
		// Correlated [NOT] IN over per-group counts.
		not := []string{"", "NOT "}[g.pick(2)]
		q = f("SELECT l.id, l.b FROM t1 l WHERE (l.a + 3) "+not+"IN (SELECT count(*) FROM t2 r WHERE r.k = l.a%s GROUP BY r.name)", rw)
	default:
		// A correlated derived table (refused by b2sql as unsupported).
		q = f("SELECT l.id, (SELECT count(*) FROM (SELECT r.k FROM t2 r WHERE r.k <= l.a%s GROUP BY r.k) AS z) AS n FROM t1 l", rw)
	}
	return query{sql: q}
}

func (g *gen) setopQuery() query {
	ls := tableScope(g.tables["t1"], "")
	rs := tableScope(g.tables["t2"], "")
	cols := [][2]string{{"a", "k"}, {"s", "name"}, {"x", "w"}, {"(a % 2)", "(k % 2)"}}[g.pick(4)]
	op := []string{"UNION", "UNION ALL", "INTERSECT", "EXCEPT"}[g.pick(4)]
	q := f("SELECT %s AS c FROM t1%s "+op+" SELECT %s FROM t2%s", same(cols[0]), g.where(ls, 1), same(cols[1]), g.where(rs, 1))
	if g.chance(0.4) {
		return query{sql: f("%s ORDER BY c"+dir(g)+nulls(g)+"%s", q, g.limit()), ordered: true}
	}
	return query{sql: q}
}

func (g *gen) cteQuery() query {
	sc := tableScope(g.tables["t1"], "")
	cte := f("WITH c AS (SELECT a AS g, count(*) AS n, sum(b) AS sb, max(s) AS ms FROM t1%s GROUP BY a)", g.where(sc, 1))
	cs := scope{{"c", "g", kInt}, {"c", "n", kInt}, {"c", "sb", kInt}, {"c", "ms", kStr}, {"r", "name", kStr}, {"r", "w", kFloat}}
	kind := []string{"JOIN", "LEFT JOIN"}[g.pick(2)]
	q := f("%s SELECT c.g, c.n, c.sb, c.ms, r.name FROM c "+kind+" t2 r ON r.k = c.g%s", cte, g.where(cs, 1))
	return query{sql: q}
}
