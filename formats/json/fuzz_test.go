package json

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// FuzzRead infers and reads arbitrary input in tiny parallel ranges and as
// one stream: no panic, and the same rows (or both fail).
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"{\"a\":1}\n{\"a\":2}\n", "[{\"a\":1},{\"a\":\"x\"}]", "1\n2\n", "{\"a\":{\"b\":[1,2]}}\n",
		"{\"a\":1}{\"a\":2}", "{\"s\":\"a\\\"b\\n\"}\n", "[", "{\"a\":\n",
	} {
		f.Add([]byte(s), uint8(3))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		if len(data) > 8<<10 {
			return
		}
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		g.Allow(readerAllowance)
		p := filepath.Join(dir, "f.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		read := func(par bool) (string, bool) {
			tb, err := Open([]string{p}, Options{Parallel: &par, Compression: "none"})
			if err != nil {
				return "", false
			}
			tb.chunkSize = int64(chunk%64) + 1
			rows, err := readAll(t, tb)
			if err != nil {
				return "", false
			}
			return strings.Join(rows, "\n"), true
		}
		seq, ok1 := read(false)
		par, ok2 := read(true)
		if ok1 != ok2 || seq != par {
			t.Fatalf("stream (ok %v):\n%q\nranges of %d (ok %v):\n%q", ok1, seq, chunk%64+1, ok2, par)
		}
	})
}

// readerAllowance is what two opens and reads of a small file may cost
// beyond the per-byte budget: read buffers and batches sized by the
// reader's defaults, not by the input.
const readerAllowance = 16 << 20
