package planner

import "github.com/b2sql/b2sql/columnar"

// JoinKind says which rows a Join keeps.
type JoinKind uint8

const (
	JoinInner  JoinKind = iota // pairs where Cond holds
	JoinLeft                   // … plus left rows without a match, NULL-extended
	JoinRight                  // … plus right rows without a match, NULL-extended
	JoinFull                   // … plus unmatched rows of both sides
	JoinCross                  // every pair (Cond is nil)
	JoinSemi                   // left rows with at least one match; left columns only
	JoinAnti                   // left rows with no match; left columns only
	JoinMark                   // left rows plus Mark: x IN (subquery) under SQL NULL rules
	JoinSingle                 // left rows plus the right's single row (scalar subquery); >1 right row is an error
)

var joinNames = [...]string{"INNER", "LEFT", "RIGHT", "FULL", "CROSS", "SEMI", "ANTI", "MARK", "SINGLE"}

func (k JoinKind) String() string { return joinNames[k] }

// EquiKey is one equality L = R of a join condition, L over the left input's
// columns and R over the right's, both of the same type. NULL keys never
// match.
type EquiKey struct{ L, R Expr }

// Join combines two inputs. EquiKeys are the conjuncts of the join
// condition of the form left = right (hashed); Cond is the rest (residual,
// evaluated over the concatenated row after the keys match; nil = TRUE).
// The output is the left columns then the right columns, except for Semi
// and Anti (left only) and Mark (left columns then Mark, a BOOLEAN that is
// TRUE when some right row matches, NULL when none does but a NULL key was
// involved, else FALSE; Mark joins have one key and no Cond).
type Join struct {
	Left, Right Node
	Kind        JoinKind
	EquiKeys    []EquiKey
	Cond        Expr
	Mark        Column
	NullAware   bool // Mark: x IN (…) rules (NULL when unmatched and a NULL key is involved); else EXISTS rules
	// Used, set by PruneColumns, holds the output columns the parent reads
	// when it reads fewer than all: the executor's join gathers only
	// those for its output rows. nil: all.
	Used map[ColID]bool
}

func (n *Join) Schema() []Column {
	switch n.Kind {
	case JoinSemi, JoinAnti:
		return n.Left.Schema()
	case JoinMark:
		return append(append([]Column(nil), n.Left.Schema()...), n.Mark)
	}
	return append(append([]Column(nil), n.Left.Schema()...), n.Right.Schema()...)
}

func (n *Join) Children() []Node { return []Node{n.Left, n.Right} }
func (n *Join) WithChildren(k []Node) Node {
	c := *n
	c.Left, c.Right = k[0], k[1]
	return &c
}

// SplitJoinCond splits a join condition into equi-keys between left and
// right and a residual. A conjunct a = b qualifies when one side reads only
// left columns and the other only right columns (and at least one each).
func SplitJoinCond(cond Expr, left, right []Column) ([]EquiKey, Expr) {
	if cond == nil {
		return nil, nil
	}
	l, r := colSet(left), colSet(right)
	var keys []EquiKey
	var rest []Expr
	for _, c := range SplitAnd(cond) {
		if k, ok := equiKey(c, l, r); ok {
			keys = append(keys, k)
			continue
		}
		rest = append(rest, c)
	}
	if len(rest) == 0 {
		return keys, nil
	}
	return keys, JoinAnd(rest)
}

func equiKey(e Expr, l, r map[ColID]bool) (EquiKey, bool) {
	c, ok := e.(*Call)
	if !ok || c.Fn != "=" || len(c.Args) != 2 {
		return EquiKey{}, false
	}
	a, b := c.Args[0], c.Args[1]
	if a.Type() != b.Type() {
		return EquiKey{}, false
	}
	switch {
	case within(a, l) && within(b, r):
		return EquiKey{L: a, R: b}, true
	case within(a, r) && within(b, l):
		return EquiKey{L: b, R: a}, true
	}
	return EquiKey{}, false
}

// within reports whether e reads at least one column, all of them in set.
func within(e Expr, set map[ColID]bool) bool {
	cols := ExprCols(e, nil)
	if len(cols) == 0 {
		return false
	}
	for id := range cols {
		if !set[id] {
			return false
		}
	}
	return true
}

func colSet(cols []Column) map[ColID]bool {
	m := make(map[ColID]bool, len(cols))
	for _, c := range cols {
		m[c.ID] = true
	}
	return m
}

// equiCond rebuilds the equalities of keys as expressions.
func equiCond(keys []EquiKey) []Expr {
	out := make([]Expr, len(keys))
	for i, k := range keys {
		out[i] = &Call{Fn: "=", Args: []Expr{k.L, k.R}, T: columnar.TBool}
	}
	return out
}
