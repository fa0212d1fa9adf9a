//go:build linux || darwin || freebsd || netbsd || openbsd

package repl

import "testing"

func TestNextKeySplitsPastedInput(t *testing.T) {
	in := []byte("SELECT 1;\r\x1b[A\x1bOP\x03é\x1bx\x7f")
	var keys []string
	for len(in) > 0 {
		k := nextKey(in)
		keys = append(keys, string(in[:k]))
		in = in[k:]
	}
	want := []string{"SELECT 1;", "\r", "\x1b[A", "\x1bOP", "\x03", "é", "\x1bx", "\x7f"}
	if len(keys) != len(want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Fatalf("keys %q, want %q", keys, want)
		}
	}
	// A rune cut by the read boundary waits for its other bytes.
	if k := nextKey([]byte("ab\xc3")); k != 2 {
		t.Fatalf("cut rune: key length %d, want 2", k)
	}
}
