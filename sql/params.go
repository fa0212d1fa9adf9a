package sql

import (
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// ErrParam is the kind of errors about ? parameters: a count that does not
// match the statement's markers, or a value the binder cannot type.
var ErrParam = errors.New("parameter error")

// NumParams returns how many ? markers st holds (0 for statements that
// take no parameters).
func NumParams(st Statement) int {
	switch s := st.(type) {
	case *Query:
		return s.numParams()
	case *Explain:
		if s.Query == nil {
			return 0 // a write's markers are counted by the caller, which knows writes
		}
		return s.Query.numParams()
	case *Describe:
		if s.Query != nil {
			return s.Query.numParams()
		}
	}
	return 0
}

func (q *Query) numParams() int {
	n := 0
	for _, t := range q.toks {
		if t.isOp("?") {
			n++
		}
	}
	return n
}

// paramTok returns the token index of the i-th ? marker (0-based), or -1.
func (q *Query) paramTok(i int) int {
	for k, t := range q.toks {
		if t.isOp("?") {
			if i == 0 {
				return k
			}
			i--
		}
	}
	return -1
}

// checkParams reports a positioned ErrParam unless n values were given for
// q's markers: too few points at the first marker left without a value,
// too many at the last marker (or the statement's start).
func (q *Query) checkParams(n int) error {
	want := q.numParams()
	if n == want {
		return nil
	}
	at := 0
	if n < want {
		at = q.paramTok(n)
	} else if want > 0 {
		at = q.paramTok(want - 1)
	}
	return q.errAtTok(at, ErrParam, fmt.Sprintf("statement has %d parameter%s, %d argument%s given", want, paramPlural(want), n, paramPlural(n)))
}

func paramPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// BindParams is Bind with params as the values of the statement's ?
// markers, in order. Each value becomes a typed constant of the plan
// (never text spliced into the SQL). A count that differs from the number
// of markers is an ErrParam error at the first marker without a value (or
// the last marker, when there are too many values).
func BindParams(stmt *Query, cat planner.Catalog, params []columnar.Value) (*Bound, error) {
	if !stmt.parsed() {
		return Bind(stmt, cat)
	}
	if err := stmt.checkParams(len(params)); err != nil {
		return nil, err
	}
	return bindWithParams(stmt, cat, params)
}

// paramLimitN reads the n-th ? marker's value (1-based) as paramLimit.
func (b *binder) paramLimitN(n int, sp span, what string) (int64, error) {
	if n < 1 || n > len(b.params) {
		return 0, b.errAt(sp.lo, ErrParam, fmt.Sprintf("no value for %s parameter", what))
	}
	v := b.params[n-1]
	if v.Null || !v.Type.IsInteger() || v.I < 0 {
		return 0, b.errAt(b.q.paramTok(n-1), ErrParam, fmt.Sprintf("%s must be a non-negative integer, got %s", what, v))
	}
	return v.I, nil
}
