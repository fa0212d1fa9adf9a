package executor

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestSortPermSecondKeyPrefix: an integer first key leaves the prefix's
// second word to the second key (integer, short strings decided by it,
// long strings only narrowed). sortPerm must order like a stable sort
// on the keys compared one by one, for every direction, with strings
// that end in zero bytes ("a" < "a\x00"), that share their first 8
// bytes, that are empty, and with NULLs in the second key (no prefix).
func TestSortPermSecondKeyPrefix(t *testing.T) {
	const n = 5000
	// The first 8 have at most 7 bytes.
	words := []string{"", "a", "a\x00", "a\x00\x00", "b", "Brand#1", "\xff", "abcdefg", "Brand#12", "Brand#12x", "Brand#13", "abcdefgh", "abcdefgh\x00"}
	for _, shape := range []string{"int", "uint", "short", "long", "nulls"} {
		t.Run(shape, func(t *testing.T) {
			first := columnar.NewVector(columnar.TInt64, n)
			if shape == "uint" {
				first = columnar.NewVector(columnar.TUint64, n)
			}
			second := columnar.NewVector(columnar.TVarchar, n)
			if shape == "int" || shape == "uint" {
				second = columnar.NewVector(columnar.TInt64, n)
			}
			third := columnar.NewVector(columnar.TInt64, n)
			for i := range n {
				f := int64((i*7919)%11) - 5 // negatives and positives, many ties
				if shape == "uint" {
					first.Uints[i] = uint64(f+5) << 60 // high bits set
				} else {
					first.Ints[i] = f
				}
				switch shape {
				case "int", "uint":
					second.Ints[i] = int64((i*31)%17) - 8
				case "short":
					second.Bytes[i] = []byte(words[(i*13)%8])
				default:
					second.Bytes[i] = []byte(words[(i*13)%len(words)])
				}
				third.Ints[i] = int64((i * 17) % 5)
			}
			if shape == "nulls" {
				second.SetNull(7, n)
				second.SetNull(4000, n)
			}
			st := newChunkedStore([]columnar.Type{first.Type, second.Type, third.Type}, 0)
			st.appendRows(&columnar.Batch{Len: n}, []*columnar.Vector{first, second, third})
			keys := []int{0, 1, 2}
			for _, dirs := range [][3]bool{{}, {true, false, false}, {false, true, false}, {true, true, true}} {
				spec := []SortKey{{Desc: dirs[0]}, {Desc: dirs[1]}, {Desc: dirs[2]}}
				got, err := sortPerm(context.Background(), st, keys, spec)
				if err != nil {
					t.Fatal(err)
				}
				want := rowNumbers(n)
				dir := func(c int, desc bool) int {
					if desc {
						return -c
					}
					return c
				}
				slices.SortStableFunc(want, func(a, b int32) int {
					var c int
					if shape == "uint" {
						c = cmp.Compare(first.Uints[a], first.Uints[b])
					} else {
						c = cmp.Compare(first.Ints[a], first.Ints[b])
					}
					if c = dir(c, dirs[0]); c != 0 {
						return c
					}
					switch an, bn := second.IsNull(int(a)), second.IsNull(int(b)); {
					case an && bn:
					case an || bn:
						// NULLs last in both directions (the default).
						return cmp.Compare(b2i(an), b2i(bn))
					case second.Type.ID == columnar.TInt64.ID:
						c = dir(cmp.Compare(second.Ints[a], second.Ints[b]), dirs[1])
					default:
						c = dir(bytes.Compare(second.Bytes[a], second.Bytes[b]), dirs[1])
					}
					if c != 0 {
						return c
					}
					return dir(cmp.Compare(third.Ints[a], third.Ints[b]), dirs[2])
				})
				if !slices.Equal(got, want) {
					i := 0
					for got[i] == want[i] {
						i++
					}
					t.Fatalf("%v: first difference at %d: row %d, want row %d", fmt.Sprint(dirs), i, got[i], want[i])
				}
			}
		})
	}
}

// rowNumbers returns 0..n-1.
func rowNumbers(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}
