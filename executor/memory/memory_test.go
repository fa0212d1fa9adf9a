package memory

import (
	"errors"
	"testing"
)

func TestGrowSpillFail(t *testing.T) {
	m := NewManager(1000, "/tmp/somewhere", 0)
	sort := m.Reserve("sort", Spillable)
	join := m.Reserve("nested loop join", false)
	if err := sort.Grow(600); err != nil {
		t.Fatal(err)
	}
	if err := join.Grow(300); err != nil {
		t.Fatal(err)
	}
	// 600 + 300 + 200 > 1000: the spillable operator is told to spill …
	if err := sort.Grow(200); !errors.Is(err, ErrSpill) {
		t.Fatalf("got %v, want ErrSpill", err)
	}
	// … the other fails, with the figures.
	err := join.Grow(200)
	var oom *OutOfMemory
	if !errors.As(err, &oom) || oom.Need != 500 || oom.Limit != 1000 {
		t.Fatalf("got %v", err)
	}
	want := "out of memory: nested loop join needs 500 bytes, memory_limit is 1000 bytes; set memory_limit or temp_directory"
	if err.Error() != want {
		t.Fatalf("got %q", err.Error())
	}
	if m.Used() != 900 || m.Peak() != 900 {
		t.Fatalf("used %d peak %d", m.Used(), m.Peak())
	}
	sort.Shrink(600) // spilled
	if err := sort.Grow(200); err != nil {
		t.Fatal(err)
	}
	if sort.Peak() != 600 || sort.Size() != 200 || m.Used() != 500 {
		t.Fatalf("sort peak %d size %d, used %d", sort.Peak(), sort.Size(), m.Used())
	}
	m.Close()
	if m.Used() != 0 || sort.Size() != 0 || join.Size() != 0 {
		t.Fatalf("after Close used %d", m.Used())
	}
}

// An operator that can spill is told to at 3/4 of the limit (spillShare);
// one that cannot may reserve the rest. Without a temp directory nothing
// can spill, and a sort may reserve the whole limit.
func TestSpillShare(t *testing.T) {
	m := NewManager(1000, "/tmp/somewhere", 0)
	sort := m.Reserve("sort", Spillable)
	join := m.Reserve("nested loop join", false)
	if err := sort.Grow(750); err != nil {
		t.Fatal(err)
	}
	if err := sort.Grow(1); !errors.Is(err, ErrSpill) {
		t.Fatalf("sort past 3/4 of the limit: got %v, want ErrSpill", err)
	}
	if err := join.Grow(250); err != nil {
		t.Fatalf("join up to the limit: %v", err)
	}
	var oom *OutOfMemory
	if err := join.Grow(1); !errors.As(err, &oom) || oom.Need != 251 {
		t.Fatalf("join past the limit: got %v", err)
	}
	m.Close()
	n := NewManager(1000, "", 0)
	if err := n.Reserve("sort", Spillable).Grow(1000); err != nil {
		t.Fatalf("no temp directory: %v", err)
	}
	n.Close()
}

// With no temp directory, even a spillable operator fails; with nothing
// held there is nothing to spill, so it fails too.
func TestNoSpillWithoutTempDir(t *testing.T) {
	m := NewManager(100, "", 0)
	r := m.Reserve("sort", Spillable)
	r.Grow(50)
	var oom *OutOfMemory
	if err := r.Grow(60); !errors.As(err, &oom) || oom.Need != 110 {
		t.Fatalf("got %v", err)
	}
	m2 := NewManager(100, "/tmp", 0)
	r2 := m2.Reserve("sort", Spillable)
	if err := r2.Grow(101); !errors.As(err, &oom) {
		t.Fatalf("got %v", err)
	}
}

func TestNilAllowsEverything(t *testing.T) {
	var m *Manager
	r := m.Reserve("x", false)
	if err := r.Grow(1 << 60); err != nil {
		t.Fatal(err)
	}
	r.Shrink(5)
	r.Free()
	m.Close()
	um := NewManager(0, "", 0)
	if err := um.Reserve("x", false).Grow(1 << 60); err != nil {
		t.Fatal(err)
	}
	um.Close()
}

func TestParseFormatSize(t *testing.T) {
	// Expected values from DuckDB 1.5.6's SET memory_limit / current_setting.
	for _, c := range []struct {
		in   string
		n    int64
		text string
	}{
		{"4GB", 4_000_000_000, "3.7 GiB"},
		{"1000MiB", 1000 << 20, "1000.0 MiB"},
		{"2.5GB", 2_500_000_000, "2.3 GiB"},
		{" 1 gib ", 1 << 30, "1.0 GiB"},
		{"512KB", 512_000, "500.0 KiB"},
		{"100B", 100, "100 bytes"},
	} {
		n, err := ParseSize(c.in)
		if err != nil || n != c.n {
			t.Fatalf("%q: %d %v", c.in, n, err)
		}
		if s := FormatSize(n); s != c.text {
			t.Fatalf("%q: %q, want %q", c.in, s, c.text)
		}
	}
	if n, err := ParseSize("-1"); err != nil || n != -1 {
		t.Fatalf("-1: %d %v", n, err)
	}
	for _, bad := range []string{"abc", "123456", "4 parsecs", ""} {
		if _, err := ParseSize(bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]int64{"max\n": 0, "1073741824\n": 1 << 30, "9223372036854771712\n": 0, "": 0} {
		if got := parseLimit(in); got != want {
			t.Fatalf("%q: %d, want %d", in, got, want)
		}
	}
	if d := DefaultLimit(); d <= 0 || d > physicalMemory() {
		t.Fatalf("default limit %d, physical %d", d, physicalMemory())
	}
}

// Queries each within their own limit cannot together pass the process
// limit: the second is told to spill, or fails naming the process.
func TestProcessLimit(t *testing.T) {
	base := ProcessUsed()
	old := SetProcessLimit(base + 1000)
	defer SetProcessLimit(old)
	a, b := NewManager(2000, "/tmp/x", 0), NewManager(800, "", 0)
	ra, rb := a.Reserve("sort", Spillable), b.Reserve("hash join build", false)
	if err := ra.Grow(700); err != nil {
		t.Fatal(err)
	}
	if err := rb.Grow(200); err != nil {
		t.Fatal(err)
	}
	// 960 is within a's limit and the process's, but past the 750 of the
	// process limit a sort may hold (spillShare).
	if err := ra.Grow(60); !errors.Is(err, ErrSpill) {
		t.Fatalf("got %v, want ErrSpill", err)
	}
	err := rb.Grow(200)
	var oom *OutOfMemory
	if !errors.As(err, &oom) || oom.Process != base+1000 || oom.Held != base+900 || oom.Need != 400 {
		t.Fatalf("got %v", err)
	}
	if base == 0 {
		want := "out of memory: hash join build needs 400 bytes, and the queries running in this process hold 900 bytes of its 1000 bytes; retry when they are done, or set temp_directory"
		if err.Error() != want {
			t.Fatalf("got %q", err.Error())
		}
	}
	if a.Used() != 700 || b.Used() != 200 {
		t.Fatalf("a %d, b %d: a refusal reserved something", a.Used(), b.Used())
	}
	a.Close()
	if err := rb.Grow(200); err != nil {
		t.Fatalf("after the first query ended: %v", err)
	}
	b.Close()
	if got := ProcessUsed(); got != base {
		t.Fatalf("process holds %d after both ended, want %d", got, base)
	}
}
