package parquet

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
	"github.com/b2sql/b2sql/index"
)

// A string column read as dictionary codes (the DictCodes rule) is
// filtered on its codes: the predicate is evaluated once per dictionary
// value, giving a truth table over the codes, and each row costs one table
// lookup instead of a string comparison. Every batch of a column chunk
// shares the chunk's dictionary, so the table is kept for the next batch.

// codeTables remembers the truth tables of the latest (dictionary,
// predicate) pairs. A predicate is known by its operator and its constants
// (address of the first, count): the scan's predicates do not move while
// it runs.
type codeTables struct {
	entries [4]codeTable
	next    int
}

type codeTable struct {
	d     *dict.Dict
	key   *columnar.Value
	nvals int
	op    index.Op
	match []bool
}

// table returns p's truth table over d's codes (p compares a string column
// with constants).
func (m *codeTables) table(d *dict.Dict, p index.Pred) []bool {
	var key *columnar.Value
	if len(p.Vals) > 0 {
		key = &p.Vals[0]
	}
	for i := range m.entries {
		e := &m.entries[i]
		if e.d == d && e.key == key && e.nvals == len(p.Vals) && e.op == p.Op {
			return e.match
		}
	}
	vals := make([][]byte, len(p.Vals))
	for k, x := range p.Vals {
		vals[k] = []byte(x.S)
	}
	e := &m.entries[m.next]
	m.next = (m.next + 1) % len(m.entries)
	keep := keeper(p.Op, vals, bytes.Compare)
	if keep == nil {
		keep = func([]byte) bool { return false }
	}
	e.d, e.key, e.nvals, e.op = d, key, len(p.Vals), p.Op
	e.match = d.Match(keep, e.match)
	return e.match
}

// markCodes marks the non-NULL rows of sel whose code passes match.
func markCodes(match []bool, codes []int32, valid columnar.Bitmap, sel []int, mask []bool) {
	if valid == nil {
		for _, i := range sel {
			if match[codes[i]] {
				mask[i] = true
			}
		}
		return
	}
	for _, i := range sel {
		if valid.Get(i) && match[codes[i]] {
			mask[i] = true
		}
	}
}

// selectCodes keeps the non-NULL rows of sel whose code passes match, in
// place.
func selectCodes(match []bool, codes []int32, valid columnar.Bitmap, sel []int) []int {
	k := 0
	for _, i := range sel {
		sel[k] = i
		if match[codes[i]] {
			k++
		}
	}
	return dropNulls(valid, sel[:k])
}
