package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// Distinct passes each distinct row the first time it is seen, streaming:
// an aggregate without aggregates, whose new groups are its output.
type Distinct struct {
	Input Operator

	seen hashtab.Map
	gids []int32
	out  columnar.Batch
}

func (d *Distinct) Types() []columnar.Type { return d.Input.Types() }
func (d *Distinct) Children() []Operator   { return []Operator{d.Input} }
func (d *Distinct) String() string         { return "Distinct" }
func (d *Distinct) Close() error           { return d.Input.Close() }

func (d *Distinct) Open(ctx context.Context) error {
	d.seen = hashtab.New(d.Input.Types())
	return d.Input.Open(ctx)
}

func (d *Distinct) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		b, err := d.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		d.gids = growIDs(d.gids, b.Len)
		fresh := d.seen.Assign(b, b.Cols, d.gids)
		if len(fresh) == 0 {
			continue
		}
		d.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: fresh}
		return &d.out, nil
	}
}

// growIDs returns ids with room for n group ids.
func growIDs(ids []int32, n int) []int32 {
	if cap(ids) < n {
		return make([]int32, max(n, columnar.MaxBatch))
	}
	return ids[:n]
}
