package parquet

import (
	"bytes"
	"testing"

	"github.com/b2sql/b2sql/index"
)

// TestBytesKeeperBounds checks bytesKeeper against the definition of each
// operator through bytes.Compare, for constants around the 8-byte prefix
// the keys decide by, and BETWEEN p AND p⁺ (what LIKE 'p%' pushes, tested
// as a prefix) beside BETWEEN with other bounds.
func TestBytesKeeperBounds(t *testing.T) {
	values := []string{"", "A", "Al", "Am", "Am\x00", "Amber", "Amzzzzzzzzz", "An", "An\x00", "Ao",
		"Alphabet", "Alphabetical", "Alphabetica", "Alphabeu", "\xc3\x84", "\xc3\x84pfel", "\xc3\x85",
		"\xff", "\xff\xff", "\xff\xffa", "a\xff", "b", "Alphabetically long"}
	bounds := [][2]string{{"Am", "An"}, {"Al", "Am"}, {"Alphabetical", "Alphabeticam"}, {"Alphabet", "Alphabeu"},
		{"\xc3\x84", "\xc3\x85"}, {"a\xff", "b"}, {"Am", "Ao"}, {"", "A"}, {"Am", "Am"}}
	for _, b := range bounds {
		keep := bytesKeeper(index.Between, [][]byte{[]byte(b[0]), []byte(b[1])})
		for _, v := range values {
			want := bytes.Compare([]byte(v), []byte(b[0])) >= 0 && bytes.Compare([]byte(v), []byte(b[1])) <= 0
			if got := keep([]byte(v)); got != want {
				t.Errorf("%q BETWEEN %q AND %q: got %v, want %v", v, b[0], b[1], got, want)
			}
		}
	}
	ops := map[index.Op]func(c int) bool{
		index.Eq: func(c int) bool { return c == 0 }, index.Lt: func(c int) bool { return c < 0 },
		index.Le: func(c int) bool { return c <= 0 }, index.Gt: func(c int) bool { return c > 0 },
		index.Ge: func(c int) bool { return c >= 0 },
	}
	for op, holds := range ops {
		for _, k := range values {
			keep := bytesKeeper(op, [][]byte{[]byte(k)})
			for _, v := range values {
				if got, want := keep([]byte(v)), holds(bytes.Compare([]byte(v), []byte(k))); got != want {
					t.Errorf("%q op %d %q: got %v, want %v", v, op, k, got, want)
				}
			}
		}
	}
}
