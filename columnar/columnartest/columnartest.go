// Package columnartest reads batches the way tests need to: every batch a
// Reader or an operator returns is checked against the batch contract
// (columnar.Batch, columnar.Reader) before its rows are turned into values,
// so that a test of any scan or operator also tests that contract.
package columnartest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Nexter is anything that yields batches until io.EOF: a columnar.Reader,
// an executor operator.
type Nexter interface {
	Next(ctx context.Context) (*columnar.Batch, error)
}

// MaxRows is the largest batch a producer may return (Len): scans batch
// whole blocks of up to 8192 rows.
const MaxRows = 8192

// CheckBatch reports the first way b breaks the batch contract: a batch
// from Next has at least one live row and at most MaxRows rows; Sel, when
// set, is strictly increasing within [0, Len); every vector's payload
// covers Len rows (one row when Const) for its type's physical
// representation, its validity bitmap (when set) covers them too, and a
// dictionary-coded vector has a code for each.
func CheckBatch(b *columnar.Batch) error {
	if b == nil {
		return errors.New("nil batch without io.EOF")
	}
	if b.Len < 0 || b.Len > MaxRows {
		return fmt.Errorf("batch of %d rows (at most %d)", b.Len, MaxRows)
	}
	if b.Live() == 0 {
		return errors.New("batch with no live row")
	}
	if b.Sel != nil {
		prev := -1
		for k, r := range b.Sel {
			if r <= prev || r >= b.Len {
				return fmt.Errorf("Sel[%d] = %d after %d (Len %d): not strictly increasing within the batch", k, r, prev, b.Len)
			}
			prev = r
		}
	}
	for c, v := range b.Cols {
		if v == nil {
			return fmt.Errorf("column %d: nil vector", c)
		}
		if err := checkVector(v, b.Len); err != nil {
			return fmt.Errorf("column %d (%s): %w", c, v.Type, err)
		}
	}
	return nil
}

func checkVector(v *columnar.Vector, n int) error {
	rows := n
	if v.Const {
		rows = min(n, 1)
	}
	if v.Valid != nil && len(v.Valid)*64 < rows {
		return fmt.Errorf("validity covers %d rows, the batch has %d", len(v.Valid)*64, rows)
	}
	if v.Dict != nil {
		if len(v.Codes) < rows {
			return fmt.Errorf("%d codes for %d rows", len(v.Codes), rows)
		}
		return nil
	}
	have := -1
	switch v.Type.Phys() {
	case columnar.PhysBool:
		have = len(v.Bools)
	case columnar.PhysInt:
		have = len(v.Ints)
	case columnar.PhysUint:
		have = len(v.Uints)
	case columnar.PhysFloat:
		have = len(v.Floats)
	case columnar.PhysBytes:
		have = len(v.Bytes)
	case columnar.PhysNested:
		if v.Type.ID != columnar.Struct && (len(v.Starts) < rows || len(v.Ends) < rows) {
			return fmt.Errorf("%d starts and %d ends for %d rows", len(v.Starts), len(v.Ends), rows)
		}
	}
	if have >= 0 && have < rows {
		return fmt.Errorf("payload of %d rows, the batch has %d", have, rows)
	}
	return nil
}

// ReadAll reads src to io.EOF, checking every batch, and returns its live
// rows as values in the order produced.
func ReadAll(ctx context.Context, src Nexter) ([][]columnar.Value, error) {
	var out [][]columnar.Value
	for {
		b, err := src.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if err := CheckBatch(b); err != nil {
			return out, fmt.Errorf("batch after %d rows: %w", len(out), err)
		}
		for i := range b.Live() {
			r := b.Row(i)
			row := make([]columnar.Value, len(b.Cols))
			for c, v := range b.Cols {
				row[c] = v.Value(r)
			}
			out = append(out, row)
		}
	}
}

// MustReadAll is ReadAll failing t on an error.
func MustReadAll(t testing.TB, src Nexter) [][]columnar.Value {
	t.Helper()
	rows, err := ReadAll(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// Lines renders rows as text, one line per row, cells joined by "|" and
// NULL written NULL: a compact form for comparing with expected lines.
func Lines(rows [][]columnar.Value) []string {
	out := make([]string, len(rows))
	for i, row := range rows {
		var b strings.Builder
		for c, v := range row {
			if c > 0 {
				b.WriteByte('|')
			}
			b.WriteString(v.String())
		}
		out[i] = b.String()
	}
	return out
}
