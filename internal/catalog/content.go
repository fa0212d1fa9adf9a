package catalog

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
)

// contentKind classifies a file whose extension says nothing by its first
// bytes: "parquet" (PAR1), "array" (a blosc2 frame: msgpack, then
// "b2frame\0" at offset 2), "ctable" (a zip holding _meta.b2f, or a
// directory holding it) or "".
func contentKind(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "_meta.b2f")); err == nil {
			return "ctable"
		}
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return "parquet"
	case len(head) >= 10 && string(head[2:10]) == "b2frame\x00":
		return "array"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) && zipHolds(f, st.Size(), "_meta.b2f"):
		return "ctable"
	}
	return ""
}

// zipHolds reports whether a zip's central directory (searched in its
// last 64 KiB) names an entry ending in name.
func zipHolds(f *os.File, size int64, name string) bool {
	n := min(size, 64<<10)
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, size-n); err != nil {
		return false
	}
	return bytes.Contains(tail, []byte(name))
}

// openKind opens path as kind, whatever its name.
func openKind(kind, path string) (planner.Table, error) {
	switch kind {
	case "parquet":
		return parquet.Open(path)
	case "ctable":
		return OpenCTable(strings.TrimRight(path, `/\`))
	default:
		return ctable.OpenArray(path)
	}
}
