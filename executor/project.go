package executor

import (
	"context"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Project computes one output column per expression. Output batches share
// the input's selection; constant results are expanded so consumers only
// see the Const flag from scans that set it deliberately.
type Project struct {
	Input Operator
	Exprs []Expr
	Names []string // for EXPLAIN

	out columnar.Batch
}

func (p *Project) Types() []columnar.Type {
	t := make([]columnar.Type, len(p.Exprs))
	for i, e := range p.Exprs {
		t[i] = e.Type()
	}
	return t
}
func (p *Project) Children() []Operator           { return []Operator{p.Input} }
func (p *Project) String() string                 { return "Project " + strings.Join(p.Names, ", ") }
func (p *Project) Open(ctx context.Context) error { return p.Input.Open(ctx) }
func (p *Project) Close() error                   { return p.Input.Close() }

func (p *Project) Next(ctx context.Context) (*columnar.Batch, error) {
	b, err := p.Input.Next(ctx)
	if err != nil {
		return nil, err
	}
	if p.out.Cols == nil {
		p.out.Cols = make([]*columnar.Vector, len(p.Exprs))
	}
	for i, e := range p.Exprs {
		v, err := e.Eval(b)
		if err != nil {
			return nil, err
		}
		if v.Const {
			v = expandConst(v, b.Len)
		}
		p.out.Cols[i] = v
	}
	p.out.Len, p.out.Sel = b.Len, b.Sel
	return &p.out, nil
}

// expandConst returns a fresh plain vector of n rows holding v's value.
func expandConst(v *columnar.Vector, n int) *columnar.Vector {
	c := *v
	c.Bools, c.Ints, c.Uints, c.Floats, c.Bytes = nil, nil, nil, nil, nil
	c.Grow(1)
	switch v.Type.Phys() {
	case columnar.PhysBool:
		c.Bools[0] = v.Bools[0]
	case columnar.PhysInt:
		c.Ints[0] = v.Ints[0]
	case columnar.PhysUint:
		c.Uints[0] = v.Uints[0]
	case columnar.PhysFloat:
		c.Floats[0] = v.Floats[0]
	case columnar.PhysBytes:
		c.Bytes[0] = v.Bytes[0]
	}
	if v.Valid != nil {
		c.Valid = columnar.Bitmap{v.Valid[0]}
	}
	c.Flatten(n)
	return &c
}

// Limit skips Offset rows, then passes at most Count rows (-1 = no bound),
// and stops pulling its input once done.
type Limit struct {
	Input         Operator
	Count, Offset int64

	seen, sent int64
	out        columnar.Batch
	sel        []int
}

func (l *Limit) Types() []columnar.Type { return l.Input.Types() }
func (l *Limit) Children() []Operator   { return []Operator{l.Input} }
func (l *Limit) String() string {
	return "Limit " + itoa(l.Count) + " offset " + itoa(l.Offset)
}
func (l *Limit) Open(ctx context.Context) error { l.seen, l.sent = 0, 0; return l.Input.Open(ctx) }
func (l *Limit) Close() error                   { return l.Input.Close() }

func (l *Limit) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if l.Count >= 0 && l.sent >= l.Count {
			return nil, ioEOF
		}
		b, err := l.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		live := int64(b.Live())
		skip := int64(0)
		if l.seen < l.Offset {
			skip = min(l.Offset-l.seen, live)
		}
		l.seen += live
		take := live - skip
		if l.Count >= 0 {
			take = min(take, l.Count-l.sent)
		}
		if take <= 0 {
			continue
		}
		l.sent += take
		if skip == 0 && take == live {
			return b, nil
		}
		l.sel = l.sel[:0]
		for k := skip; k < skip+take; k++ {
			l.sel = append(l.sel, b.Row(int(k)))
		}
		l.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: l.sel}
		return &l.out, nil
	}
}
