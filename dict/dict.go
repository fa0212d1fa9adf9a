package dict

import (
	"bytes"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// Dict is an immutable list of byte strings; code c stands for Value(c).
// Values are kept in one arena with offsets, so a Dict of thousands of
// values is two allocations, and slices returned by Value stay valid for as
// long as anything references them (the arena is never reused). A Dict is
// safe for concurrent use. Values need not be distinct (Parquet does not
// promise it): Match and Global handle duplicates.
type Dict struct {
	arena []byte
	offs  []int32 // len = Len()+1; value c is arena[offs[c]:offs[c+1]]
}

// Builder accumulates the values of a Dict.
type Builder struct {
	arena []byte
	offs  []int32
}

// NewBuilder returns a builder expecting about n values of total size
// size bytes (hints only).
func NewBuilder(n, size int) *Builder {
	b := &Builder{arena: make([]byte, 0, size), offs: make([]int32, 1, n+1)}
	return b
}

// Add appends a value (copied).
func (b *Builder) Add(v []byte) {
	b.arena = append(b.arena, v...)
	b.offs = append(b.offs, int32(len(b.arena)))
}

// Dict returns the dictionary built so far; the builder must not be used
// after.
func (b *Builder) Dict() *Dict {
	d := &Dict{arena: b.arena, offs: b.offs}
	b.arena, b.offs = nil, nil
	return d
}

// New returns a dictionary of copies of values.
func New(values ...string) *Dict {
	size := 0
	for _, v := range values {
		size += len(v)
	}
	b := NewBuilder(len(values), size)
	for _, v := range values {
		b.Add([]byte(v))
	}
	return b.Dict()
}

// Len returns the number of codes.
func (d *Dict) Len() int { return len(d.offs) - 1 }

// Value returns the value of code c (0 <= c < Len()). The slice aliases the
// dictionary and must not be modified.
func (d *Dict) Value(c int32) []byte {
	return d.arena[d.offs[c]:d.offs[c+1]:d.offs[c+1]]
}

// Find returns the first code whose value is v, or -1 when v is absent.
func (d *Dict) Find(v []byte) int32 {
	for c := range int32(d.Len()) {
		if bytes.Equal(d.Value(c), v) {
			return c
		}
	}
	return -1
}

// Match returns a truth table over the codes: out[c] = pred(Value(c)). out
// is reused when large enough. This is how a filter against constants is
// translated once per dictionary, whatever the number of rows.
func (d *Dict) Match(pred func(v []byte) bool, out []bool) []bool {
	n := d.Len()
	if cap(out) < n {
		out = make([]bool, n)
	}
	out = out[:n]
	for c := range out {
		out[c] = pred(d.Value(int32(c)))
	}
	return out
}

// Of returns the dictionary and codes of a coded vector; ok is false for a
// plain vector.
func Of(v *columnar.Vector) (d *Dict, codes []int32, ok bool) {
	if v.Dict == nil {
		return nil, nil, false
	}
	d, ok = v.Dict.(*Dict)
	if !ok {
		panic(fmt.Sprintf("dict: vector holds a %T, not a *dict.Dict", v.Dict))
	}
	return d, v.Codes, true
}

// Set makes v a coded vector over d with n rows: v.Codes is grown to n
// (keeping its storage) and returned for the caller to fill.
func Set(v *columnar.Vector, d *Dict, n int) []int32 {
	if cap(v.Codes) < n {
		v.Codes = make([]int32, n, max(n, 2*cap(v.Codes)))
	}
	v.Codes = v.Codes[:n]
	v.Dict = d
	return v.Codes
}
