package b2

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeHeaderTable regenerates section 4 of the fixtures README
// ("Expected chunk headers") from the files and compares it line by line.
func TestReadmeHeaderTable(t *testing.T) {
	readme, err := os.ReadFile("testdata/README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "## 4. Expected chunk headers")
	if i < 0 {
		t.Fatal("section 4 not found")
	}
	s = s[i:]
	s = s[strings.Index(s, "```\n")+4:]
	s = s[:strings.Index(s, "```")]
	want := map[string]string{}
	var cur string
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if !strings.HasPrefix(line, " ") {
			cur = line[:strings.Index(line, ":")]
		}
		want[cur] += line + "\n"
	}
	if len(want) < 38 {
		t.Fatalf("parsed only %d files", len(want))
	}
	for name, w := range want {
		f, err := Open(filepath.Join("testdata", name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := headerTable(f, name); got != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got, w)
		}
		f.Close()
	}
}

func headerTable(f *Frame, name string) string {
	h := &f.Header
	ints := func(a [6]uint8) string {
		s := make([]string, 6)
		for i, v := range a {
			s[i] = fmt.Sprint(v)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: gflags=%#02x codec=%d clevel=%d split=%d ts=%d chunksize=%d frame_blocksize=%d filters=%s fmeta=%s udcodec=%d of2=%d\n",
		name, h.GeneralFlags, h.Codec, h.CLevel, h.OtherFlags&3, h.Typesize, h.Chunksize, h.Blocksize,
		ints(h.Filters), ints(h.FiltersMeta), h.UDCodec, h.OtherFlags2)
	for i := 0; i < f.NChunks(); i++ {
		if sp := f.ChunkSpecial(i); sp != SpecialNone {
			fmt.Fprintf(&b, "    chunk%d: S%d\n", i, sp)
			continue
		}
		src, err := f.ChunkData(i)
		if err != nil {
			fmt.Fprintf(&b, "    chunk%d: error %v\n", i, err)
			continue
		}
		c, _ := ParseChunkHeader(src)
		fmt.Fprintf(&b, "    chunk%d: v%d fl=%02x bs=%d cb=%d", i, c.Version, c.Flags, c.Blocksize, c.Cbytes)
		if c.Memcpyed() {
			b.WriteString(" memcpy")
		}
		if c.Split() {
			b.WriteString(" split")
		} else {
			b.WriteString(" nosplit")
		}
		if c.HasDict() {
			b.WriteString(" dict")
		}
		if sp := c.Special(); sp != SpecialNone {
			fmt.Fprintf(&b, " special=%d", sp)
		}
		b.WriteString("\n")
	}
	return b.String()
}
