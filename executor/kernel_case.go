package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// A CASE whose every THEN and ELSE is a string constant (ELSE may be NULL
// or absent) can only produce a few values: it is evaluated to dictionary
// codes over a dictionary of those values, built once, so that a GROUP BY
// over it groups on codes (hashtab looks each code up once per dictionary)
// instead of hashing a string per row. Bytes is filled as well, so every
// consumer that reads strings sees the same values; rows are decided arm
// by arm over reused selections, with no copy of a value per row.

// caseCodes is the constant-branch plan of a caseExpr.
type caseCodes struct {
	d    *dict.Dict
	arm  []int32 // code of THEN k
	els  int32   // code of ELSE, -1 = NULL
	selA []int
	selB []int
}

// newCaseCodes returns the plan, or nil when some branch is not a non-NULL
// string constant (or the CASE is not of a string type).
func newCaseCodes(thens []Expr, els Expr, t columnar.Type) *caseCodes {
	if t.ID != columnar.Varchar {
		return nil
	}
	var vals []string
	code := func(e Expr) (int32, bool) {
		v, ok := ConstValue(e)
		if !ok || v.Null || v.Type.ID != columnar.Varchar {
			return 0, false
		}
		s := v.S
		for k, have := range vals {
			if have == s {
				return int32(k), true
			}
		}
		vals = append(vals, s)
		return int32(len(vals) - 1), true
	}
	c := &caseCodes{els: -1}
	for _, th := range thens {
		k, ok := code(th)
		if !ok {
			return nil
		}
		c.arm = append(c.arm, k)
	}
	if els != nil {
		if v, ok := ConstValue(els); !ok || !v.Null {
			k, ok := code(els)
			if !ok {
				return nil
			}
			c.els = k
		}
	}
	c.d = dict.New(vals...)
	return c
}

// evalCodes is caseExpr.Eval for a constant-branch CASE.
func (e *caseExpr) evalCodes(b *columnar.Batch) (*columnar.Vector, error) {
	c := e.codes
	n := b.Len
	out := &e.out
	out.Type = e.t
	out.Reset(n)
	out.Valid = nil
	codes := dict.Set(out, c.d, n)
	rest := c.selA[:0]
	b.ForEach(func(i int) { rest = append(rest, i) })
	next := c.selB[:0]
	for k, cond := range e.conds {
		if len(rest) == 0 {
			break
		}
		e.sub = columnar.Batch{Cols: b.Cols, Len: n, Sel: rest}
		cv, err := cond.Eval(&e.sub)
		if err != nil {
			return nil, err
		}
		code, val := c.arm[k], c.d.Value(c.arm[k])
		next = next[:0]
		for _, i := range rest {
			j := idx(cv, i)
			if !cv.IsNull(j) && cv.Bools[j] {
				codes[i], out.Bytes[i] = code, val
			} else {
				next = append(next, i)
			}
		}
		rest, next = next, rest
	}
	if len(rest) > 0 {
		if c.els < 0 {
			out.Valid = columnar.NewBitmap(n)
			for _, i := range rest {
				codes[i], out.Bytes[i] = 0, nil
				out.Valid.Clear(i)
			}
		} else {
			val := c.d.Value(c.els)
			for _, i := range rest {
				codes[i], out.Bytes[i] = c.els, val
			}
		}
	}
	c.selA, c.selB = rest[:0], next[:0]
	return out, nil
}

// caseExpr is a searched CASE.
type caseExpr struct {
	conds, thens []Expr
	els          Expr // nil = NULL
	t            columnar.Type
	out          columnar.Vector
	sub          columnar.Batch
	selBuf       []int
	restBuf      []int
	codes        *caseCodes // non-nil: every branch a string constant (kernel_case_codes.go)
}

func (e *caseExpr) Type() columnar.Type { return e.t }

func (e *caseExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	if e.codes != nil {
		return e.evalCodes(b)
	}
	n := b.Len
	out := &e.out
	out.Type = e.t
	out.Reset(n)
	out.Valid = columnar.NewBitmap(n)
	// rest lists rows not yet decided; each arm narrows it, so a THEN is only
	// evaluated on rows whose condition held (no spurious errors elsewhere).
	rest := e.restBuf[:0]
	b.ForEach(func(i int) { rest = append(rest, i) })
	for k, c := range e.conds {
		if len(rest) == 0 {
			break
		}
		e.sub = columnar.Batch{Cols: b.Cols, Len: n, Sel: rest}
		cv, err := c.Eval(&e.sub)
		if err != nil {
			return nil, err
		}
		hit := e.selBuf[:0]
		next := make([]int, 0, len(rest))
		for _, i := range rest {
			j := idx(cv, i)
			if !cv.IsNull(j) && cv.Bools[j] {
				hit = append(hit, i)
			} else {
				next = append(next, i)
			}
		}
		if len(hit) > 0 {
			e.sub = columnar.Batch{Cols: b.Cols, Len: n, Sel: hit}
			tv, err := e.thens[k].Eval(&e.sub)
			if err != nil {
				return nil, err
			}
			for _, i := range hit {
				out.CopyRow(i, tv, idx(tv, i), n)
			}
		}
		e.selBuf = hit
		rest = next
	}
	if len(rest) > 0 {
		if e.els == nil {
			for _, i := range rest {
				out.Valid.Clear(i)
			}
		} else {
			e.sub = columnar.Batch{Cols: b.Cols, Len: n, Sel: rest}
			ev, err := e.els.Eval(&e.sub)
			if err != nil {
				return nil, err
			}
			for _, i := range rest {
				out.CopyRow(i, ev, idx(ev, i), n)
			}
		}
	}
	e.restBuf = rest[:0]
	return out, nil
}
