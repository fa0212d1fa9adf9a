package executor

import (
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
	"github.com/rivo/uniseg"
)

// Text is counted in characters (runes) by length and substring, and in
// grapheme clusters (what a reader sees as one character: 🤦🏼‍♂️ is five
// runes, one cluster) by length_grapheme and substring_grapheme, as
// DuckDB's; uniseg finds the clusters.

// textUnits steps through text by its units.
type textUnits struct {
	// next is the byte size of the unit s starts with; state carries
	// uniseg's segmentation state from one call to the next (-1 first).
	next  func(s []byte, state int) (size, newState int)
	count func(s []byte) int64
}

var runeUnits = textUnits{
	next: func(s []byte, state int) (int, int) {
		_, size := utf8.DecodeRune(s)
		return size, state
	},
	count: func(s []byte) int64 { return int64(utf8.RuneCount(s)) },
}

var graphemeUnits = textUnits{
	next: func(s []byte, state int) (int, int) {
		c, _, _, st := uniseg.FirstGraphemeCluster(s, state)
		return len(c), st
	},
	count: graphemeCount,
}

// graphemeCount is the number of grapheme clusters in s.
func graphemeCount(s []byte) int64 {
	n := int64(0)
	for state := -1; len(s) > 0; n++ {
		_, s, _, state = uniseg.FirstGraphemeCluster(s, state)
	}
	return n
}

func lengthGraphemeKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x := args[0]
	b.ForEach(func(i int) { out.Ints[i] = graphemeCount(x.Bytes[idx(x, i)]) })
	return nil
}

func substringGraphemeKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	return substringOf(graphemeUnits, args, b, out)
}
