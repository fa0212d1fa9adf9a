package executor

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// Dictionary codes in the executor (the DictCodes rule). A scan hands a
// string column over coded (columnar.Vector.Dict/Codes) only when the
// planner saw that every consumer of the column understands codes: group
// keys (HashAgg), comparisons and IN against constants, IS [NOT] NULL,
// count(col). Those consumers translate constants once per dictionary and
// group through dict.Remap; anything else that meets a coded vector decodes
// it first (decodeLive), which is always correct, merely not faster.

// decodeLive returns v as a plain vector: v itself when it is not coded,
// otherwise scratch filled for the live rows of b (values alias the
// dictionary; NULL rows and dead rows are left nil).
func decodeLive(v *columnar.Vector, b *columnar.Batch, scratch *columnar.Vector) *columnar.Vector {
	d, codes, ok := dict.Of(v)
	if !ok {
		return v
	}
	scratch.Type = v.Type
	scratch.Reset(b.Len)
	scratch.Valid = v.Valid
	out := scratch.Bytes[:b.Len]
	if b.Sel == nil {
		for i, c := range codes[:b.Len] {
			if v.Valid == nil || v.Valid.Get(i) {
				out[i] = d.Value(c)
			} else {
				out[i] = nil
			}
		}
		return scratch
	}
	for _, i := range b.Sel {
		if v.Valid == nil || v.Valid.Get(i) {
			out[i] = d.Value(codes[i])
		} else {
			out[i] = nil
		}
	}
	return scratch
}

// codeMatch caches the truth table of a predicate over the codes of the
// last dictionary seen, so a filter against constants costs one
// comparison per dictionary value per chunk, then one table load per row.
type codeMatch struct {
	d     *dict.Dict
	key   []byte // the constant the table was computed for (cmp only)
	table []bool
}

// get returns the table for d, computing it with pred when d or key
// changed.
func (m *codeMatch) get(d *dict.Dict, key []byte, pred func(v []byte) bool) []bool {
	if d == m.d && bytes.Equal(key, m.key) && m.table != nil {
		return m.table
	}
	m.table = d.Match(pred, m.table)
	m.d = d
	m.key = append(m.key[:0], key...)
	return m.table
}

// selectCodes sets out[i] = table[codes[i]] for the live rows. NULL rows
// get garbage (their code is 0 or stale), which their validity hides.
func selectCodes(table []bool, codes []int32, out []bool, sel []int) {
	out = out[:len(codes)]
	if len(table) == 0 {
		// An empty dictionary: every row is NULL (no value to code).
		for i := range out {
			out[i] = false
		}
		return
	}
	if sel == nil {
		for i, c := range codes {
			out[i] = table[c]
		}
		return
	}
	for _, i := range sel {
		out[i] = table[codes[i]]
	}
}

// cmpCodesVC compares a coded vector with a constant: the predicate is
// evaluated once per dictionary value (cached in m), then looked up per row.
func cmpCodesVC(m *codeMatch, op cmpOp, a *columnar.Vector, c []byte, n int, out []bool, sel []int) {
	d, codes, _ := dict.Of(a)
	table := m.get(d, c, func(v []byte) bool { return bytesCmp(op, v, c) })
	selectCodes(table, codes[:n], out, sel)
}
