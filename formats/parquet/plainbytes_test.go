package parquet

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
)

// textWords is the vocabulary of textTitle.
var textWords = strings.Fields("alpha amber arrow autumn beacon berry bold bridge cedar cloud copper delta eagle echo ember falcon fern field garden golden harbor horizon island lantern north ocean orchid pearl quartz silver willow")

// textTitle is a title of 5 to 12 words, about 50 bytes, as the events
// table's title column has.
func textTitle(i int) string {
	x := uint32(i)*2654435761 + 1
	n := 5 + int(x%8)
	w := make([]string, n)
	for k := range w {
		x = x*1103515245 + 12345
		w[k] = textWords[(x>>16)%uint32(len(textWords))]
	}
	return strings.Join(w, " ")
}

// BenchmarkScanText scans dictionary-less VARCHAR columns of titles
// (title: no NULL; ntitle: 1 in 7 NULL) in 122,880-row row groups of 1 MiB
// Snappy pages, through codeReader (plainbytes.go) and through arrow-go's
// reader (cpu-ns/row is the figure to compare).
func BenchmarkScanText(b *testing.B) {
	const n = 1 << 20
	app := func(bd array.Builder, i int) { bd.(*array.StringBuilder).Append(textTitle(i)) }
	cols := []tcol{{name: "title", typ: arrow.BinaryTypes.String, app: app},
		{name: "ntitle", typ: arrow.BinaryTypes.String, nullable: true, app: app}}
	path := filepath.Join(b.TempDir(), "text.parquet")
	writeArrow(b, path, cols, 0, n, 122_880, false, parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(1<<20))
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	benchOwnVsArrow(b, tb, cols, n)
}
