package executor

// exprCols marks in cols the input columns e reads and reports whether it
// could tell: an expression it cannot see into (a lambda, which reads the
// outer row's columns through its own run) may read any column, and the
// caller must then assume all.
func exprCols(e Expr, cols []bool) bool {
	if c, ok := e.(*colExpr); ok {
		if c.idx < 0 || c.idx >= len(cols) {
			return false
		}
		cols[c.idx] = true
		return true
	}
	kids, ok := exprKids(e)
	if !ok {
		return false
	}
	for _, k := range kids {
		if !exprCols(k, cols) {
			return false
		}
	}
	return true
}

// exprKids returns the expressions e evaluates its value from; false for
// an expression whose inputs it does not know.
func exprKids(e Expr) ([]Expr, bool) {
	switch e := e.(type) {
	case *constExpr:
		return nil, true
	case *callExpr:
		return e.args, true
	case *logicExpr:
		return e.args, true
	case *coalesceExpr:
		return e.args, true
	case *castExpr:
		return []Expr{e.arg}, true
	case *isNullExpr:
		return []Expr{e.arg}, true
	case *fieldExpr:
		return []Expr{e.arg}, true
	case *mapPartExpr:
		return []Expr{e.arg}, true
	case *inExpr:
		return append([]Expr{e.arg}, e.list...), true
	case *caseExpr:
		kids := append(append([]Expr(nil), e.conds...), e.thens...)
		if e.els != nil {
			kids = append(kids, e.els)
		}
		return kids, true
	}
	return nil, false
}
