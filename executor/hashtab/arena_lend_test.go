package hashtab

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/b2sql/b2sql/columnar"
)

// lentBuffer returns n strings of mixed lengths (empty, short, long, one
// longer than an arena chunk) stored back to back in one buffer with
// spare capacity, as the exchange stores them, and the strings as slices
// of that buffer.
func lentBuffer(n int) ([]byte, [][]byte) {
	buf := make([]byte, 0, 64)
	var ends []int
	for i := range n {
		var s []byte
		switch {
		case i%7 == 3:
		case i == n/2:
			s = bytes.Repeat([]byte{'L'}, maxTextChunk+11)
		default:
			k := i % (n / 2)
			s = fmt.Appendf(nil, "key %d %s", k, bytes.Repeat([]byte{'x'}, k%40))
		}
		buf = append(buf, s...)
		ends = append(ends, len(buf))
	}
	strs := make([][]byte, n)
	lo := 0
	for i, hi := range ends {
		strs[i] = buf[lo:hi:hi]
		lo = hi
	}
	return buf, strs
}

// within reports whether s's bytes lie in buf's memory.
func within(s, buf []byte) bool {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(buf))
}

// Strings lying in a lent buffer are referred to where they lie, others
// are copied; the arena never writes into a lent buffer's spare capacity,
// and counts a lent buffer in its bytes once a string was found in it.
func TestTextArenaLend(t *testing.T) {
	buf, strs := lentBuffer(3000)
	spare := buf[len(buf):cap(buf)]
	for i := range spare {
		spare[i] = 0xEE
	}
	other := make([]byte, 0, 64) // a second lent buffer, of other strings
	for i := range 50 {
		other = fmt.Appendf(other, "other-%03d", i)
	}
	var a textArena
	a.lend([][]byte{buf, other, nil})
	if a.bytes() != 0 {
		t.Fatalf("bytes %d before any string was found in a lent buffer", a.bytes())
	}
	var refs []uint64
	var want [][]byte
	for i, s := range strs {
		refs, want = append(refs, a.place(s)), append(want, s)
		if i%5 == 0 { // a copy of the same bytes, from elsewhere
			c := bytes.Clone(s)
			refs, want = append(refs, a.place(c)), append(want, c)
		}
	}
	o := other[9:18] // "other-001"
	refs, want = append(refs, a.place(o)), append(want, o)
	for i, s := range want {
		got := a.get(refs[i], uint32(len(s)))
		if !bytes.Equal(got, s) || cap(got) != len(s) {
			t.Fatalf("string %d: got %.20q (cap %d), want %.20q", i, got, cap(got), s)
		}
		inBuf, gotIn := within(s, buf) || within(s, other), within(got, buf) || within(got, other)
		if len(s) > 0 && gotIn != inBuf {
			t.Fatalf("string %d (in a lent buffer: %v): got it from a lent buffer: %v", i, inBuf, !inBuf)
		}
	}
	for i, c := range spare {
		if c != 0xEE {
			t.Fatalf("spare capacity byte %d of the lent buffer changed to %#x", i, c)
		}
	}
	if got, want := a.bytes(), a.own+int64(len(buf)+len(other)); got != want || a.own == 0 {
		t.Fatalf("bytes %d, want %d (own chunks %d)", got, want, a.own)
	}
}

// A string Map lent the buffer its keys lie in numbers them as one that
// copies them does, NULLs and empty strings included, and gives the same
// keys back.
func TestStrMapLent(t *testing.T) {
	buf, strs := lentBuffer(5000)
	assign := func(m Map) ([]int32, []string) {
		var gids []int32
		for lo := 0; lo < len(strs); lo += columnar.MaxBatch {
			hi := min(lo+columnar.MaxBatch, len(strs))
			v := columnar.NewVector(columnar.TVarchar, hi-lo)
			copy(v.Bytes, strs[lo:hi])
			for i := lo; i < hi; i++ {
				if i%11 == 5 {
					v.SetNull(i-lo, hi-lo)
				}
			}
			g := make([]int32, hi-lo)
			m.Assign(&columnar.Batch{Len: hi - lo}, []*columnar.Vector{v}, g)
			gids = append(gids, g...)
		}
		out := make([]*columnar.Vector, 1)
		out[0] = columnar.NewVector(columnar.TVarchar, 0)
		m.Keys(out, 0, m.Len())
		var keys []string
		for r := range m.Len() {
			if out[0].IsNull(r) {
				keys = append(keys, "NULL")
			} else {
				keys = append(keys, string(out[0].Bytes[r]))
			}
		}
		return gids, keys
	}
	copied, lent := New([]columnar.Type{columnar.TVarchar}), New([]columnar.Type{columnar.TVarchar})
	Reserve(lent, Expect{Keys: 100, Lent: [][]byte{buf}})
	g1, k1 := assign(copied)
	g2, k2 := assign(lent)
	if !slices.Equal(g1, g2) || !slices.Equal(k1, k2) {
		t.Fatalf("lent and copying maps differ: %d and %d keys", len(k1), len(k2))
	}
	distinct := map[string]bool{}
	for i, s := range strs {
		if i%11 == 5 {
			distinct["NULL"] = true
		} else {
			distinct[string(s)] = true
		}
	}
	if len(k2) != len(distinct) {
		t.Fatalf("%d keys, want %d", len(k2), len(distinct))
	}
	if m := lent.(*strMap); m.tab.arena.lentUsed != int64(len(buf)) || m.tab.arena.own > 64<<10 {
		t.Fatalf("lent map: %d lent bytes used (want %d), %d bytes copied", m.tab.arena.lentUsed, len(buf), m.tab.arena.own)
	}
}
