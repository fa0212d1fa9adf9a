package dict

import (
	"bytes"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestDict(t *testing.T) {
	d := New("lyon", "", "paris", "lyon")
	if d.Len() != 4 {
		t.Fatalf("Len = %d", d.Len())
	}
	for c, want := range []string{"lyon", "", "paris", "lyon"} {
		if got := string(d.Value(int32(c))); got != want {
			t.Errorf("Value(%d) = %q, want %q", c, got, want)
		}
	}
	cases := []struct {
		lit  string
		want int32
	}{{"lyon", 0}, {"", 1}, {"paris", 2}, {"rome", -1}, {"lyo", -1}}
	for _, tc := range cases {
		if got := d.Find([]byte(tc.lit)); got != tc.want {
			t.Errorf("Find(%q) = %d, want %d", tc.lit, got, tc.want)
		}
	}
	// Appending to a returned value must not clobber the next one.
	v := d.Value(0)
	_ = append(v, 'X')
	if string(d.Value(1)) != "" || string(d.Value(2)) != "paris" {
		t.Fatal("Value aliases beyond its end")
	}
}

func TestMatch(t *testing.T) {
	d := New("b", "a", "c", "a")
	lt := d.Match(func(v []byte) bool { return bytes.Compare(v, []byte("b")) < 0 }, nil)
	if want := []bool{false, true, false, true}; !slices.Equal(lt, want) {
		t.Fatalf("< 'b': %v, want %v", lt, want)
	}
	// The table is reused when large enough, resized otherwise.
	none := New().Match(func([]byte) bool { return true }, lt)
	if len(none) != 0 {
		t.Fatalf("empty dictionary: %v", none)
	}
}

func TestRemap(t *testing.T) {
	var r Remap
	d1, d2 := New("x", "y"), New("y", "z", "x")
	t1 := r.Table(d1)
	if !slices.Equal(t1, []int32{-1, -1}) {
		t.Fatalf("fresh table %v", t1)
	}
	t1[1] = 7
	if got := r.Table(d1); got[1] != 7 {
		t.Fatal("same dictionary must keep its table")
	}
	if got := r.Table(d2); !slices.Equal(got, []int32{-1, -1, -1}) {
		t.Fatalf("new dictionary: %v", got)
	}
}

func TestOfSet(t *testing.T) {
	v := columnar.NewVector(columnar.TVarchar, 3)
	if _, _, ok := Of(v); ok {
		t.Fatal("plain vector reported coded")
	}
	d := New("p", "q")
	copy(Set(v, d, 3), []int32{1, 1, 0})
	got, codes, ok := Of(v)
	if !ok || got != d || !slices.Equal(codes, []int32{1, 1, 0}) {
		t.Fatalf("Of = %v %v %v", got, codes, ok)
	}
	// columnar decodes coded rows through the dictionary.
	if v.Value(0).S != "q" || v.Value(2).S != "p" {
		t.Fatalf("Value: %v %v", v.Value(0), v.Value(2))
	}
	// Reset makes the vector plain again but keeps the code storage.
	v.Reset(3)
	if _, _, ok := Of(v); ok || cap(v.Codes) < 3 {
		t.Fatalf("after Reset: coded=%v cap=%d", ok, cap(v.Codes))
	}
}

func TestBuilder(t *testing.T) {
	b := NewBuilder(2, 0)
	src := []byte("abc")
	b.Add(src)
	src[0] = 'X' // Add copies
	b.Add(nil)
	d := b.Dict()
	if d.Len() != 2 || string(d.Value(0)) != "abc" || len(d.Value(1)) != 0 {
		t.Fatalf("built %q %q", d.Value(0), d.Value(1))
	}
}
