package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// Probing by dictionary codes: when the probe side's single string key
// comes dictionary-coded (the planner asked the scan for codes, see
// planner/dict.go), each code of the batch's dictionary is looked up in the
// build table once, on first sight, and remembered; every row then costs
// one array lookup instead of a string encoding and hash. The memo lasts
// as long as the dictionary: a Parquet row group brings a new one, a
// CTable dictionary() column keeps one for the whole table. Codes that no
// live row uses are never looked up.
type codeProbe struct {
	d    *dict.Dict
	rows [][]int32 // code -> the build rows holding its value (nil: none)
	seen []bool    // code -> looked up already
	one  columnar.Vector
	enc  []byte
}

// reset starts the memo for dictionary d.
func (m *codeProbe) reset(d *dict.Dict) {
	n := d.Len()
	if cap(m.rows) < n {
		m.rows = make([][]int32, n)
		m.seen = make([]bool, n)
	}
	m.rows, m.seen = m.rows[:n], m.seen[:n]
	clear(m.rows)
	clear(m.seen)
	m.d = d
}

// lookupCode returns the build rows whose key equals code c's value
// (looked up in the build table on the code's first sight).
func (j *HashJoin) lookupCode(c int32) []int32 {
	m := &j.codes
	if m.seen[c] {
		return m.rows[c]
	}
	m.one.Type = j.LeftKeys[0].Type()
	m.one.Valid, m.one.Const, m.one.Dict = nil, false, nil
	m.one.Bytes = append(m.one.Bytes[:0], m.d.Value(c))
	m.enc = hashtab.EncodeKey(m.enc[:0], []*columnar.Vector{&m.one}, 0)
	rows := j.table[string(m.enc)]
	m.rows[c], m.seen[c] = rows, true
	return rows
}

// probeCodes appends the candidate pairs of the live rows j.lrows whose
// coded key is v, marking NULL keys in j.lnull.
func (j *HashJoin) probeCodes(v *columnar.Vector) {
	d, codes, _ := dict.Of(v)
	if j.codes.d != d {
		j.codes.reset(d)
	}
	pairL, pairR := j.pairL, j.pairR
	if v.Const {
		if v.IsNull(0) {
			for k := range j.lrows {
				j.lnull[k] = true
			}
			return
		}
		m := j.lookupCode(codes[0])
		for k := range j.lrows {
			for _, r := range m {
				pairL = append(pairL, int32(k))
				pairR = append(pairR, r)
			}
		}
		j.pairL, j.pairR = pairL, pairR
		return
	}
	for k, i := range j.lrows {
		if v.Valid != nil && !v.Valid.Get(i) {
			j.lnull[k] = true
			continue
		}
		for _, r := range j.lookupCode(codes[i]) {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r)
		}
	}
	j.pairL, j.pairR = pairL, pairR
}

// plainKeys replaces the coded vectors of keys by decoded copies of the
// live rows of b (scratch vectors of j), for the paths that hash plain
// bytes: several keys, or a build side that came coded.
func (j *HashJoin) plainKeys(keys []*columnar.Vector, b *columnar.Batch) {
	for c, v := range keys {
		if v.Dict == nil {
			continue
		}
		for len(j.plain) <= c {
			j.plain = append(j.plain, &columnar.Vector{})
		}
		keys[c] = decodeCoded(v, b, j.plain[c])
	}
}

// decodeCoded is decodeLive (dict.go) that also takes a Const coded
// vector (one row).
func decodeCoded(v *columnar.Vector, b *columnar.Batch, scratch *columnar.Vector) *columnar.Vector {
	if !v.Const {
		return decodeLive(v, b, scratch)
	}
	out := decodeLive(v, &columnar.Batch{Len: 1}, scratch)
	out.Const = true
	return out
}

// plainCols returns b's columns with the coded ones decoded (live rows
// only), for the kinds that pass probe rows through (Semi, Anti, Mark):
// operators above the join did not ask for codes.
func (j *HashJoin) plainCols(b *columnar.Batch) []*columnar.Vector {
	coded := false
	for _, v := range b.Cols {
		coded = coded || v.Dict != nil
	}
	if !coded {
		return b.Cols
	}
	cols := append(j.decoded[:0], b.Cols...)
	for len(j.decodedVecs) < len(cols) {
		j.decodedVecs = append(j.decodedVecs, &columnar.Vector{})
	}
	for c, v := range cols {
		if v.Dict != nil {
			cols[c] = decodeCoded(v, b, j.decodedVecs[c])
		}
	}
	j.decoded = cols
	return cols
}
