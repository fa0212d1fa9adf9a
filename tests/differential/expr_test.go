package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// pair is one SQL fragment in both dialects: b for b2sql, s for SQLite.
type pair struct{ b, s string }

func same(t string) pair { return pair{t, t} }

// join concatenates fragments with sep in both dialects.
func join(sep string, ps ...pair) pair {
	var b, s []string
	for _, p := range ps {
		b = append(b, p.b)
		s = append(s, p.s)
	}
	return pair{strings.Join(b, sep), strings.Join(s, sep)}
}

// f formats a template whose %s verbs take the fragments, per dialect.
func f(format string, ps ...pair) pair {
	b := make([]any, len(ps))
	s := make([]any, len(ps))
	for i, p := range ps {
		b[i], s[i] = p.b, p.s
	}
	return pair{fmt.Sprintf(format, b...), fmt.Sprintf(format, s...)}
}

// ref is a column visible to an expression: qual.name of kind k.
type ref struct {
	qual, name string
	k          kind
}

func (c ref) sql() pair {
	if c.qual == "" {
		return same(c.name)
	}
	return same(c.qual + "." + c.name)
}

// scope is the set of columns an expression may read.
type scope []ref

func tableScope(t *table, qual string) scope {
	var sc scope
	for _, c := range t.cols {
		sc = append(sc, ref{qual, c.name, c.kind})
	}
	return sc
}

func (sc scope) of(k kind) []ref {
	var out []ref
	for _, c := range sc {
		if c.k == k {
			out = append(out, c)
		}
	}
	return out
}

// gen generates random expressions and queries from one seed.
type gen struct {
	r      *rand.Rand
	tables map[string]*table
	// subqueries switches on correlated subqueries with LIMIT and
	// aggregates in odd places (see query_test.go).
}

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// intLit is a small integer literal; negative ones in parentheses so that
// "a - -3" never turns into a comment.
func (g *gen) intLit(lo, hi int) pair {
	v := lo + g.pick(hi-lo+1)
	if v < 0 {
		return same(fmt.Sprintf("(%d)", v))
	}
	return same(fmt.Sprint(v))
}

// floatLit is a multiple of 1/4 written with a decimal point (b2sql reads
// it as DECIMAL, SQLite as REAL; the values are exact in both).
func (g *gen) floatLit() pair {
	v := float64(g.pick(161)-80) / 4
	t := fmt.Sprintf("%.2f", v)
	if v < 0 {
		t = "(" + t + ")"
	}
	return same(t)
}

func (g *gen) strLit() pair {
	return same("'" + vocab[g.pick(len(vocab))] + "'")
}

func (g *gen) dateLit() pair {
	d := epoch.AddDate(0, 0, g.pick(62)-1).Format(time.DateOnly)
	return pair{"DATE '" + d + "'", "'" + d + "'"}
}

func (g *gen) tsLit() pair {
	t := epoch.Add(time.Duration(g.pick(10*24*4)) * 15 * time.Minute).Format(time.DateTime)
	return pair{"TIMESTAMP '" + t + "'", "'" + t + "'"}
}

func (g *gen) lit(k kind) pair {
	switch k {
	case kFloat:
		return g.floatLit()
	case kStr:
		return g.strLit()
	case kBool:
		return same([]string{"true", "false"}[g.pick(2)])
	case kDate:
		return g.dateLit()
	case kTS:
		return g.tsLit()
	}
	return g.intLit(-6, 6)
}

// col picks a column of kind k from sc, or a literal when there is none.
func (g *gen) col(sc scope, k kind) pair {
	cs := sc.of(k)
	if len(cs) == 0 {
		return g.lit(k)
	}
	return cs[g.pick(len(cs))].sql()
}

// expr returns an expression of kind k over sc, at most depth levels deep.
func (g *gen) expr(sc scope, k kind, depth int) pair {
	if depth <= 0 || g.chance(0.4) {
		if g.chance(0.8) {
			return g.col(sc, k)
		}
		return g.lit(k)
	}
	d := depth - 1
	switch k {
	case kInt:
		switch g.pick(8) {
		case 0:
			return f("(%s + %s)", g.expr(sc, kInt, d), g.expr(sc, kInt, d))
		case 1:
			return f("(%s - %s)", g.expr(sc, kInt, d), g.expr(sc, kInt, d))
		case 2:
			return f("(%s * %s)", g.expr(sc, kInt, d), g.intLit(-3, 3))
		case 3:
			return f("abs(%s)", g.expr(sc, kInt, d))
		case 4:
			return f("(%s %% %s)", g.expr(sc, kInt, d), g.intLit(1, 7))
		case 5:
			return f("length(%s)", g.expr(sc, kStr, d))
		case 6:
			return f("coalesce(%s, %s)", g.expr(sc, kInt, d), g.intLit(-6, 6))
		default:
			return g.caseExpr(sc, kInt, d)
		}
	case kFloat:
		switch g.pick(5) {
		case 0:
			return f("(%s + %s)", g.expr(sc, kFloat, d), g.expr(sc, kInt, d))
		case 1:
			return f("(%s * %s)", g.expr(sc, kFloat, d), g.intLit(-2, 2))
		case 2:
			// b2sql's / divides as floats; SQLite's needs a REAL operand.
			div := 1 + g.pick(4)
			e := g.expr(sc, kInt, d)
			return pair{fmt.Sprintf("(%s / %d)", e.b, div), fmt.Sprintf("(%s / %d.0)", e.s, div)}
		case 3:
			return f("abs(%s)", g.expr(sc, kFloat, d))
		default:
			return g.caseExpr(sc, kFloat, d)
		}
	case kStr:
		switch g.pick(6) {
		case 0:
			return f("lower(%s)", g.expr(sc, kStr, d))
		case 1:
			return f("upper(%s)", g.expr(sc, kStr, d))
		case 2:
			return f("(%s || %s)", g.expr(sc, kStr, d), g.expr(sc, kStr, d))
		case 3:
			return f("substr(%s, %s, %s)", g.expr(sc, kStr, d), g.intLit(1, 3), g.intLit(0, 3))
		case 4:
			return f("coalesce(%s, %s)", g.expr(sc, kStr, d), g.strLit())
		default:
			return f("replace(%s, 'b', 'Q')", g.expr(sc, kStr, d))
		}
	case kBool:
		return g.pred(sc, d)
	}
	return g.col(sc, k)
}

func (g *gen) caseExpr(sc scope, k kind, d int) pair {
	if g.chance(0.5) {
		return f("CASE WHEN %s THEN %s ELSE %s END", g.pred(sc, d), g.expr(sc, k, d), g.expr(sc, k, d))
	}
	return f("CASE WHEN %s THEN %s END", g.pred(sc, d), g.expr(sc, k, d))
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

// comparable returns a random comparable kind (not bool: its order is fine
// but dull).
func (g *gen) comparable() kind {
	return []kind{kInt, kInt, kFloat, kStr, kDate, kTS}[g.pick(6)]
}

var likePatterns = []string{"a%", "%b%", "_", "h_l%", "%", "%c", "b_c", "x%", "%B%", "a_b", "%%", ""}

// pred returns a boolean expression over sc.
func (g *gen) pred(sc scope, depth int) pair {
	d := depth - 1
	if depth <= 0 {
		d = 0
	}
	choice := g.pick(11)
	if depth <= 0 && choice >= 8 {
		choice = g.pick(8)
	}
	switch choice {
	case 0, 1:
		k := g.comparable()
		rhs := g.lit(k)
		if g.chance(0.3) {
			rhs = g.expr(sc, k, d)
		}
		return f("%s "+cmpOps[g.pick(len(cmpOps))]+" %s", g.expr(sc, k, d), rhs)
	case 2:
		k := []kind{kInt, kFloat, kStr, kBool, kDate, kTS}[g.pick(6)]
		not := []string{"", " NOT"}[g.pick(2)]
		return f("%s IS"+not+" NULL", g.expr(sc, k, d))
	case 3:
		k := g.comparable()
		lo, hi := g.lit(k), g.lit(k)
		not := []string{"", "NOT "}[g.pick(2)]
		return f("%s "+not+"BETWEEN %s AND %s", g.expr(sc, k, d), lo, hi)
	case 4:
		k := []kind{kInt, kStr, kFloat, kDate}[g.pick(4)]
		var items []pair
		for range 1 + g.pick(4) {
			if g.chance(0.1) {
				items = append(items, same("NULL"))
			} else {
				items = append(items, g.lit(k))
			}
		}
		not := []string{"", "NOT "}[g.pick(2)]
		return f("%s "+not+"IN (%s)", g.expr(sc, k, d), join(", ", items...))
	case 5:
		pat := same("'" + likePatterns[g.pick(len(likePatterns))] + "'")
		not := []string{"", "NOT "}[g.pick(2)]
		return f("%s "+not+"LIKE %s", g.expr(sc, kStr, d), pat)
	case 6:
		c := g.col(sc, kBool)
		switch g.pick(3) {
		case 0:
			return c
		case 1:
			return f("NOT %s", c)
		}
		return f("%s = %s", c, g.lit(kBool))
	case 7:
		return f("%s "+cmpOps[g.pick(len(cmpOps))]+" %s", g.expr(sc, kFloat, d), g.expr(sc, kInt, d))
	case 8:
		return f("(%s AND %s)", g.pred(sc, d), g.pred(sc, d))
	case 9:
		return f("(%s OR %s)", g.pred(sc, d), g.pred(sc, d))
	}
	return f("NOT (%s)", g.pred(sc, d))
}
