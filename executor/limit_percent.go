package executor

import (
	"context"
	"io"
	"math"
	"strconv"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// LimitPercent is LIMIT p% [OFFSET n]: it skips Offset rows, then passes
// floor(total × Percent / 100) rows, total being every row of its input
// (as DuckDB's PhysicalLimitPercent counts, before the offset). The count
// is known only at the end of the input, so the rows are held until then,
// reserved from the query's memory manager.
type LimitPercent struct {
	Input   Operator
	Percent float64 // in [0, 100]
	Offset  int64

	mem     *memory.Manager
	res     *memory.Reservation
	store   *chunkedStore
	from    int // next stored row to send
	to      int // rows up to here are sent
	out     *columnar.Batch
	emitted bool
}

func (l *LimitPercent) Types() []columnar.Type { return l.Input.Types() }
func (l *LimitPercent) Children() []Operator   { return []Operator{l.Input} }
func (l *LimitPercent) String() string {
	return "Limit " + strconv.FormatFloat(l.Percent, 'g', -1, 64) + "% offset " + itoa(l.Offset)
}

// SetMemory makes the operator account what it holds to m.
func (l *LimitPercent) SetMemory(m *memory.Manager) { l.mem = m }

func (l *LimitPercent) Open(ctx context.Context) error {
	if err := l.Input.Open(ctx); err != nil {
		return err
	}
	types := l.Input.Types()
	l.store = newChunkedStore(types, 0)
	l.res = l.mem.Reserve("limit percent", false)
	for {
		b, err := l.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := l.res.Grow(chunkBytes(b, b.Cols)); err != nil {
			return err
		}
		l.store.appendRows(b, b.Cols)
	}
	total := l.store.n
	n := int(math.Floor(float64(total) * l.Percent / 100))
	l.from = int(min(l.Offset, int64(total)))
	l.to = min(l.from+n, total)
	l.out = columnar.NewBatch(types, columnar.MaxBatch)
	return nil
}

func (l *LimitPercent) Next(ctx context.Context) (*columnar.Batch, error) {
	if l.from >= l.to {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k := min(l.to-l.from, columnar.MaxBatch)
	for c := range l.out.Cols {
		l.store.copyRange(l.out.Cols[c], c, l.from, l.from+k)
	}
	l.out.Len, l.out.Sel = k, nil
	l.from += k
	return l.out, nil
}

func (l *LimitPercent) Close() error {
	l.store = nil
	l.res.Free()
	l.res = nil
	return l.Input.Close()
}
