package executor

import (
	"github.com/b2sql/b2sql/columnar"
)

// A coded probe key is looked up once per code of its dictionary by the
// build's hashtab.Index (its Map's Finder remembers each code's id), so a
// row costs an array load instead of a string hash.

// plainKeys replaces the coded vectors of keys by decoded copies of the
// live rows of b (scratch vectors of j): a build side's keys, which its
// join filters read plain.
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
