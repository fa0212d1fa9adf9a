package hashtab

import (
	"bytes"
	"fmt"
	"testing"
)

// Strings added across chunk boundaries, and one longer than a chunk,
// come back byte for byte, and appending to one cannot touch the next.
func TestTextArena(t *testing.T) {
	var a textArena
	var want [][]byte
	var refs []uint64
	for i := 0; i < 20000; i++ {
		s := []byte(fmt.Sprintf("value-%d-%s", i, bytes.Repeat([]byte{'x'}, i%97)))
		if i == 7000 {
			s = bytes.Repeat([]byte{'L'}, maxTextChunk+3)
		}
		want = append(want, s)
		refs = append(refs, a.add(s))
	}
	if len(a.chunks) < 3 {
		t.Fatalf("%d chunks: the test should cross chunk boundaries", len(a.chunks))
	}
	for i, s := range want {
		got := a.get(refs[i], uint32(len(s)))
		if !bytes.Equal(got, s) {
			t.Fatalf("string %d: got %.20q…, want %.20q…", i, got, s)
		}
		if cap(got) != len(s) {
			t.Fatalf("string %d: capacity %d past its length %d", i, cap(got), len(s))
		}
	}
}

// A value table hands back every key by insertion order, short (held in
// the slot) and long (held in the arena) alike.
func TestValueStrTable(t *testing.T) {
	tab := newValueStrTable()
	keys := []string{"a", "", "sixteen-bytes-ok", "seventeen-bytes-x", "a", "seventeen-bytes-x", "zz"}
	next := int32(0)
	var ids []int32
	for _, k := range keys {
		ids = append(ids, tab.find([]byte(k), func() int32 { next++; return next - 1 }))
	}
	if want := []int32{0, 1, 2, 3, 0, 3, 4}; fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	for i, k := range []string{"a", "", "sixteen-bytes-ok", "seventeen-bytes-x", "zz"} {
		if got := string(tab.value(i)); got != k {
			t.Errorf("value(%d) = %q, want %q", i, got, k)
		}
	}
}

// Length-prefixed strings (the lead keys' store) come back through
// leadKeys.str across chunk boundaries, the empty string included.
func TestTextArenaPrefixed(t *testing.T) {
	l := &leadKeys{}
	var want [][]byte
	var refs []uint64
	for i := 0; i < 20000; i++ {
		s := bytes.Repeat([]byte{byte('a' + i%26)}, i%300)
		if i == 9000 {
			s = bytes.Repeat([]byte{'L'}, maxTextChunk+5)
		}
		want = append(want, s)
		refs = append(refs, l.text.addPrefixed(s))
	}
	if len(l.text.chunks) < 3 {
		t.Fatalf("%d chunks: the test should cross chunk boundaries", len(l.text.chunks))
	}
	for i, s := range want {
		if got := l.str(refs[i]); !bytes.Equal(got, s) || cap(got) != len(s) {
			t.Fatalf("string %d: got %d bytes (cap %d), want %d", i, len(got), cap(got), len(s))
		}
	}
}
