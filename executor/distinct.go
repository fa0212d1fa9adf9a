package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
)

// Distinct passes each distinct row the first time it is seen, streaming.
type Distinct struct {
	Input Operator

	seen map[string]struct{}
	key  []byte
	sel  []int
	out  columnar.Batch
}

func (d *Distinct) Types() []columnar.Type { return d.Input.Types() }
func (d *Distinct) Children() []Operator   { return []Operator{d.Input} }
func (d *Distinct) String() string         { return "Distinct" }
func (d *Distinct) Close() error           { return d.Input.Close() }

func (d *Distinct) Open(ctx context.Context) error {
	d.seen = map[string]struct{}{}
	return d.Input.Open(ctx)
}

func (d *Distinct) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		b, err := d.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		d.sel = d.sel[:0]
		forEach(b, func(i int) {
			d.key = encodeKey(d.key[:0], b.Cols, i)
			if _, ok := d.seen[string(d.key)]; ok {
				return
			}
			d.seen[string(d.key)] = struct{}{}
			d.sel = append(d.sel, i)
		})
		if len(d.sel) == 0 {
			continue
		}
		d.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: d.sel}
		return &d.out, nil
	}
}
