package executor

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/rivo/uniseg"
)

// substring and its units. Text is counted in characters (runes) by
// length and substring, and in grapheme clusters (what a reader sees as one character: 🤦🏼‍♂️ is five
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

// substringOverloads are substring's (and substring_grapheme's)
// signatures, (string, start) and (string, start, length), over k.
func substringOverloads(k function.Factory) []function.Overload {
	return []function.Overload{
		{Params: []string{"string", "start"}, Args: []function.Arg{function.Varchar, function.Integer}, Returns: columnar.TVarchar, Kernel: k},
		{Params: []string{"string", "start", "length"}, Args: []function.Arg{function.Varchar, function.Integer, function.Integer}, Returns: columnar.TVarchar, Kernel: k},
	}
}

func lengthGraphemeKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x := args[0]
	b.ForEach(func(i int) { out.Ints[i] = graphemeCount(x.Bytes[idx(x, i)]) })
	return nil
}

func substringGraphemeKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	return substringOf(graphemeUnits, args, b, out)
}

// substringKernel follows DuckDB: 1-based start counted in characters; a
// start ≤ 0 counts the characters before the string; a negative length is an
// error in DuckDB only for literal lengths, here it yields ”.
func substringKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	return substringOf(runeUnits, args, b, out)
}

// substringOf is substring counting in the units u (characters, or
// grapheme clusters for substring_grapheme).
func substringOf(u textUnits, args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x, st := args[0], args[1]
	var ln *columnar.Vector
	if len(args) > 2 {
		ln = args[2]
	}
	var err error
	b.ForEach(func(i int) {
		s := x.Bytes[idx(x, i)]
		start := st.Ints[idx(st, i)]
		count := int64(1 << 62)
		if ln != nil {
			count = ln.Ints[idx(ln, i)]
			if (count > math.MaxUint32 || count < -math.MaxUint32) && err == nil {
				err = fmt.Errorf("substring length outside of supported range (> %d)", uint32(math.MaxUint32))
			}
		}

		if (start > math.MaxUint32 || start < -math.MaxUint32) && err == nil {
			err = fmt.Errorf("substring offset outside of supported range (> %d)", uint32(math.MaxUint32))
		}
		if err == nil {
			out.Bytes[i] = substrUnits(u, s, start, count)
		}
	})

	return err
}

func substrUnits(u textUnits, s []byte, start, count int64) []byte {
	if start < 0 {
		// Negative start counts from the end, as in DuckDB.
		start = u.count(s) + start + 1
	}
	if count < 0 {
		// A negative length takes the characters before start (DuckDB).
		start, count = start+count, -count
	}
	if start < 1 {
		count += start - 1
		start = 1
	}
	if count <= 0 {
		return s[:0]
	}
	pos, state := 0, -1
	for r := int64(1); r < start && pos < len(s); r++ {
		var size int
		size, state = u.next(s[pos:], state)
		pos += size
	}
	end := pos
	for c := int64(0); c < count && end < len(s); c++ {
		var size int
		size, state = u.next(s[end:], state)
		end += size
	}
	return s[pos:end]
}
