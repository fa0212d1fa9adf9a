package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		want       bool
	}{
		{"*.parquet", "a.parquet", true},
		{"*.parquet", "d/a.parquet", false}, // * stays within a directory
		{"d/*/x.csv", "d/k=1/x.csv", true},
		{"d/**/x.csv", "d/x.csv", true}, // ** is zero or more directories
		{"d/**/x.csv", "d/a/b/c/x.csv", true},
		{"d/**", "d/a/b", true},
		{"part-?.csv", "part-1.csv", true},
		{"part-?.csv", "part-10.csv", false},
		{"part-[0-9].csv", "part-7.csv", true},
		{"part-[!0-9].csv", "part-a.csv", true},
		{"part-[^0-9].csv", "part-5.csv", true}, // ^ is a member, as in DuckDB
		{"part-[^a].csv", "part-^.csv", true},
		{"part-[^a].csv", "part-b.csv", false},
		{"x.{csv,tsv}", "x.tsv", true},
		{"x.{csv,tsv}", "x.json", false},
		{"{a,b*}/y", "bcd/y", true},
		{"a+b(1).csv", "a+b(1).csv", true}, // regexp metacharacters are literal
		{"a.csv", "abcsv", false},
	} {
		p, err := CompileGlob(c.glob)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(c.path); got != c.want {
			t.Errorf("%q matches %q = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
	for _, bad := range []string{"x[ab", "x{a,b"} {
		if _, err := CompileGlob(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("CompileGlob(%q) = %v, want an error naming it", bad, err)
		}
	}
}

func TestGlobLocal(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"r=1/a.parquet", "r=1/b.csv", "r=2/c.parquet", "r=2/deep/d.parquet", "top.parquet"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	d := filepath.ToSlash(dir)
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{d + "/*/*.parquet", []string{d + "/r=1/a.parquet", d + "/r=2/c.parquet"}},
		{d + "/**/*.parquet", []string{d + "/r=1/a.parquet", d + "/r=2/c.parquet", d + "/r=2/deep/d.parquet", d + "/top.parquet"}},
		{d + "/r=[12]/*.{csv,parquet}", []string{d + "/r=1/a.parquet", d + "/r=1/b.csv", d + "/r=2/c.parquet"}},
		{d + "/none/*.parquet", nil},
		// a prefix WalkDir would clean is kept as written (it matched nothing)
		{d + "/./r=1/*.parquet", []string{d + "/./r=1/a.parquet"}},
		{d + "/r=2/../r=1/*.csv", []string{d + "/r=2/../r=1/b.csv"}},
	} {
		got, err := Glob(context.Background(), c.pattern, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("Glob(%s) = %v, want %v", c.pattern, got, c.want)
		}
	}
	if _, err := Glob(context.Background(), "https://h/*.parquet", nil); err == nil {
		t.Error("a glob over HTTP must be refused")
	}
}

func TestPlanRequests(t *testing.T) {
	got := planRequests([]Range{{100, 10}, {0, 10}, {15, 5}, {1000, 50}, {990, 5}, {5000, 30}}, 5010, 20, 40)
	want := []Range{{0, 20}, {100, 10}, {990, 40}, {1030, 20}, {5000, 10}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestRangeCacheBoundAndSplitReads(t *testing.T) {
	c := newRangeCache(100)
	c.put(0, []byte(strings.Repeat("a", 40)))
	c.put(40, []byte(strings.Repeat("b", 40)))
	p := make([]byte, 20)
	if !c.read(p, 30) || string(p) != strings.Repeat("a", 10)+strings.Repeat("b", 10) {
		t.Fatalf("read across two segments: %q", p)
	}
	c.read(make([]byte, 1), 0)                 // segment 0 used last
	c.put(80, []byte(strings.Repeat("c", 40))) // over 100: evicts segment 40
	if c.used > 100 || c.covers(40, 1) || !c.covers(0, 40) || !c.covers(80, 40) {
		t.Fatalf("LRU eviction wrong: used %d", c.used)
	}
	c.put(0, make([]byte, 101)) // larger than the cache: not kept
	if c.used > 100 {
		t.Fatalf("used %d over capacity", c.used)
	}
}

// TestRangeCacheKeepsUnreadSegments: bytes fetched ahead and not read yet
// outlive bytes already read, even read more recently: a scan's other
// column, fetched ahead, is not pushed out by a stream it runs beside.
func TestRangeCacheKeepsUnreadSegments(t *testing.T) {
	c := newRangeCache(100)
	c.put(0, []byte(strings.Repeat("a", 40)))  // fetched ahead, unread
	c.put(40, []byte(strings.Repeat("b", 40))) // then read
	c.read(make([]byte, 40), 40)
	c.put(80, []byte(strings.Repeat("c", 40))) // over 100: evicts the read one
	if !c.covers(0, 40) || c.covers(40, 1) || !c.covers(80, 40) {
		t.Fatal("a read segment stayed while an unread one went")
	}
	c.put(120, []byte(strings.Repeat("d", 40))) // nothing read: the least recent goes
	if c.covers(0, 1) || !c.covers(80, 40) || !c.covers(120, 40) {
		t.Fatal("with no read segment left, the least recently used unread one should go")
	}
}
