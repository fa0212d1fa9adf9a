package csv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// FuzzRead sniffs and reads arbitrary input twice, in tiny parallel chunks
// and as one stream: neither may panic, and both must give the same rows
// (or both fail), which checks that chunk boundaries follow quotes
// exactly.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n", "a;b\n\"x;\ny\";2\n", "\xef\xbb\xbfa\tb\r\n1\t\n", "# c\na,b\n1,\"\"\"\"\n",
		"a,b\n'x,y',1\n", "x\n\"a\\\"b\"\n", "1,2,3\n4\n5,6,7,8\n", "d\n01/06/2024\n", "\"",
		"a,b\r1,2\r", "a\n\n\n", "\"a\"\"b\",c\n\"\n\",d\n",
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
		p := filepath.Join(dir, "f.csv")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		read := func(par bool) (string, bool) {
			tb, err := Open([]string{p}, Options{Parallel: Some(par), Compression: "none"})
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
			t.Fatalf("stream (ok %v):\n%q\nchunks of %d (ok %v):\n%q", ok1, seq, chunk%64+1, ok2, par)
		}
	})
}

// readerAllowance is what two opens and reads of a small file may cost
// beyond the per-byte budget: read buffers and batches sized by the
// reader's defaults, not by the input.
const readerAllowance = 16 << 20
