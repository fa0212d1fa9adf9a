package sql

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// USING SAMPLE and TABLESAMPLE, as DuckDB reads them: a size in percent
// (n%, n PERCENT) or rows (n, n ROWS), a method (reservoir, system,
// bernoulli; by default system for a percentage and reservoir for rows)
// and an optional seed (n% (method, seed), REPEATABLE (seed)).

// withoutSample returns t's TABLESAMPLE and t without it (nil, t when t
// has none).
func withoutSample(t ast.TableRef) (*ast.Sample, ast.TableRef) {
	switch t := t.(type) {
	case *ast.Table:
		if t.Sample != nil {
			c := *t
			c.Sample = nil
			return t.Sample, &c
		}
	case *ast.TableFunc:
		if t.Sample != nil {
			c := *t
			c.Sample = nil
			return t.Sample, &c
		}
	case *ast.Derived:
		if t.Sample != nil {
			c := *t
			c.Sample = nil
			return t.Sample, &c
		}
	}
	return nil, t
}

// sampleNode puts sample sm over in.
func (b *binder) sampleNode(in planner.Node, sm *ast.Sample) (planner.Node, error) {
	at := b.q.tokAt(sm.Start)
	size, null, err := b.constNumber(sm.Size, "sample size")
	if err != nil {
		return nil, err
	}
	if null {
		return nil, b.errAt(b.q.tokAt(sm.Size.Extent().Start), ErrType, "the sample size cannot be NULL")
	}
	n := &planner.Sample{Input: in, Percent: sm.Percent, Size: size, Method: planner.SampleReservoir}
	switch sm.Method {
	case "":
		if sm.Percent {
			n.Method = planner.SampleSystem
		}
	case "reservoir":
	case "system":
		n.Method = planner.SampleSystem
	case "bernoulli":
		n.Method = planner.SampleBernoulli
	default:
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("unknown sample method %q (reservoir, system, bernoulli)", sm.Method))
	}
	switch {
	case n.Percent && !(size >= 0 && size <= 100):
		return nil, b.errAt(b.q.tokAt(sm.Size.Extent().Start), ErrType, fmt.Sprintf("sample size %g%% out of range, must be between 0 and 100", size))
	case !n.Percent && !(size >= 0):
		return nil, b.errAt(b.q.tokAt(sm.Size.Extent().Start), ErrType, "the sample size must be a number of rows from 0")
	case !n.Percent && n.Method != planner.SampleReservoir:
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("sample method %s cannot take a number of rows: use reservoir sampling or a percentage", n.Method))
	}
	if sm.Seed != nil {
		seed, null, err := b.constNumber(sm.Seed, "sample seed")
		if err != nil {
			return nil, err
		}
		if !null {
			if seed != math.Trunc(seed) {
				return nil, b.errAt(b.q.tokAt(sm.Seed.Extent().Start), ErrType, "the sample seed must be an integer")
			}
			n.Seed, n.Seeded = int64(seed), true
		}
	}
	return n, nil
}

// constNumber reads e, a constant number (a literal, a parameter or an
// expression of them), as a float; null reports NULL.
func (b *binder) constNumber(e ast.Expr, what string) (v float64, null bool, err error) {
	v, null, volatile, err := b.foldNumber(e, what)
	if err == nil && volatile {
		err = b.errAt(b.q.tokAt(e.Extent().Start), ErrType, "the "+what+" must be a constant number")
	}
	return v, null, err
}

// foldNumber is constNumber that reports a number whose expression does
// not fold to a constant (random()) as volatile instead of an error.
func (b *binder) foldNumber(e ast.Expr, what string) (v float64, null, volatile bool, err error) {
	at := b.q.tokAt(e.Extent().Start)
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = nil, nil, nil
	x, err := b.bindAST(e, ectx{sp: b.q.spanOf(e), clause: what})
	b.restoreScope(saved)
	if err != nil {
		return 0, false, false, err
	}
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok && x.Type().IsNumeric() {
		return 0, false, true, nil
	}
	if !ok || !k.Val.Null && !k.Val.Type.IsNumeric() || !k.Val.Null && k.Val.Type.ID == columnar.Bool {
		return 0, false, false, b.errAt(at, ErrType, "the "+what+" must be a constant number")
	}
	if k.Val.Null {
		return 0, true, false, nil
	}
	return k.Val.AsFloat(), false, false, nil
}
