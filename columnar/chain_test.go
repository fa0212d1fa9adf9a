package columnar

import (
	"context"
	"io"
	"testing"
)

// rowsReader yields one batch of n int rows valued from, from+1, …
type rowsReader struct {
	from, n int
	sent    bool
	closed  *int
}

func (r *rowsReader) Schema() Schema { return Schema{{Name: "x", Type: TInt64}} }
func (r *rowsReader) Next(context.Context) (*Batch, error) {
	if r.sent {
		return nil, io.EOF
	}
	r.sent = true
	b := NewBatch([]Type{TInt64}, r.n)
	b.Len = r.n
	for i := range r.n {
		b.Cols[0].Ints[i] = int64(r.from + i)
	}
	return b, nil
}
func (r *rowsReader) Close() error { *r.closed++; return nil }

// TestChain: units 0-2, 3-4, 5-8 in order; a limit stops after the batch
// that reaches it, without opening later units; every opened unit closes.
func TestChain(t *testing.T) {
	for _, c := range []struct {
		limit  int64
		want   []int64
		opened int
	}{
		{-1, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}, 3},
		{3, []int64{0, 1, 2}, 1},
		{4, []int64{0, 1, 2, 3, 4}, 2},
	} {
		opened, closed := 0, 0
		unit := func(from, n int) func(context.Context) (Reader, error) {
			return func(context.Context) (Reader, error) {
				opened++
				return &rowsReader{from: from, n: n, closed: &closed}, nil
			}
		}
		r := Chain(Schema{{Name: "x", Type: TInt64}}, []func(context.Context) (Reader, error){unit(0, 3), unit(3, 2), unit(5, 4)}, c.limit)
		var got []int64
		for {
			b, err := r.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b.Cols[0].Ints[:b.Len]...)
		}
		r.Close()
		if len(got) != len(c.want) {
			t.Fatalf("limit %d: got %v, want %v", c.limit, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("limit %d: got %v, want %v", c.limit, got, c.want)
			}
		}
		if opened != c.opened || closed != opened {
			t.Errorf("limit %d: opened %d units (want %d), closed %d", c.limit, opened, c.opened, closed)
		}
	}
}
