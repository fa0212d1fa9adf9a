package parquet

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// Page decoders, fuzzed one encoding at a time: a fuzz input is a
// dictionary page (possibly empty: none) and one data page, with the
// physical type, encoding, value count and nullability as parameters;
// fakePager hands them to the same decoders a scan uses (arrow-go's typed
// readers and this package's codeReader for dictionaries and
// DELTA_BINARY_PACKED integers). Seeds are the decompressed pages of the
// corpus's files (../shared/parquet-testing), taken at test time.

// fakePager is a file.PageReader over pages held in memory.
type fakePager struct {
	pages []file.Page
	i     int
	cur   file.Page
}

func (p *fakePager) SetMaxPageHeaderSize(int) {}
func (p *fakePager) Page() file.Page          { return p.cur }
func (p *fakePager) Err() error               { return nil }
func (p *fakePager) Close() error             { return nil }
func (p *fakePager) Reset(parquet.BufferedReader, int64, compress.Compression, *file.CryptoContext) {
}
func (p *fakePager) Next() bool {
	if p.i >= len(p.pages) {
		p.cur = nil
		return false
	}
	p.cur, p.i = p.pages[p.i], p.i+1
	return true
}
func (p *fakePager) GetDictionaryPage() (*file.DictionaryPage, error) {
	if len(p.pages) > 0 {
		if d, ok := p.pages[0].(*file.DictionaryPage); ok {
			return d, nil
		}
	}
	return nil, nil
}
func (p *fakePager) SeekToPageWithRow(int64) error { return errors.New("fakePager: no seek") }

// pageInput is one fuzz input of the page decoders.
type pageInput struct {
	phys     parquet.Type
	typeLen  int
	enc      parquet.Encoding
	nvals    int
	optional bool
	dict     []byte // dictionary page (PLAIN); nil: none
	data     []byte // data page (v1: levels then values)
}

// fuzzPhys maps a fuzz byte to a physical type (and FLBA length).
func fuzzPhys(b uint8) (parquet.Type, int) {
	switch b % 8 {
	case 0:
		return parquet.Types.Boolean, 0
	case 1:
		return parquet.Types.Int32, 0
	case 2:
		return parquet.Types.Int64, 0
	case 3:
		return parquet.Types.Int96, 0
	case 4:
		return parquet.Types.Float, 0
	case 5:
		return parquet.Types.Double, 0
	case 6:
		return parquet.Types.ByteArray, 0
	}
	return parquet.Types.FixedLenByteArray, 1 + int(b/8)%16
}

// maxFuzzValues bounds a page's value count, so that one input's output
// (the decoded vectors) stays small whatever the header says.
const maxFuzzValues = 4096

// decodePageInput decodes in through arrow-go's reader (coded false) or
// codeReader (coded true), every row, and returns the first error.
func decodePageInput(in pageInput, coded bool) (err error) {
	fake := &fakePager{}
	if in.dict != nil {
		fake.pages = append(fake.pages, file.NewDictionaryPage(memory.NewBufferBytes(in.dict), int32(in.nvals), parquet.Encodings.Plain))
	}
	fake.pages = append(fake.pages, file.NewDataPageV1(memory.NewBufferBytes(in.data), int32(in.nvals), in.enc,
		parquet.Encodings.RLE, parquet.Encodings.RLE, int32(len(in.data))))
	return decodeFuzzChunk(in.phys, in.typeLen, in.optional, int64(in.nvals), in.dict != nil, coded, fake, nil)
}

// decodeFuzzChunk decodes rows rows of a column of type phys from pages,
// read through a countingPager as every scan reads them.
func decodeFuzzChunk(phys parquet.Type, typeLen int, optional bool, rows int64, hasDict, coded bool, pages file.PageReader, chunk func() ([]byte, int64, error)) (err error) {
	defer recoverCorrupt(&err)
	rep := parquet.Repetitions.Required
	maxDef := int16(0)
	if optional {
		rep, maxDef = parquet.Repetitions.Optional, 1
	}
	node, err := schema.NewPrimitiveNode("x", rep, phys, -1, int32(typeLen))
	if err != nil {
		return err
	}
	descr := schema.NewColumn(node, maxDef, 0)
	c, err := mapColumn(descr)
	if err != nil {
		return err
	}
	c.maxDef = maxDef
	pager := &countingPager{PageReader: pages, phys: phys, typeLen: descr.TypeLength(), maxDef: maxDef, chunk: chunk}
	d := &decoder{c: &c}
	// codeReader only where decoder.useCodeReader sends a chunk: string or
	// fixed-width dictionary chunks, numbers and booleans without one.
	if hasDict {
		coded = coded && (c.kind == kBytes && c.phys == parquet.Types.ByteArray || fixedWidth(&c) > 0)
	} else {
		coded = coded && fixedPages(&c)
	}
	if coded {
		d.cr.reset(pager, &c, rows, hasDict, maxDef)
		d.coded = true
	} else {
		//lint:ignore SA1019 see openColumn
		d.rdr = file.NewColumnReader(descr, pager, bufferPool, nil)
	}
	defer d.close()
	v := columnar.NewVector(c.field.Type, 1024)
	var valid columnar.Bitmap
	var arena []byte
	for done := int64(0); done < rows; {
		n := int(min(1024, rows-done))
		v.Reset(n)
		got, vb, ab, err := d.read(v, n, valid, arena[:0])
		valid, arena = vb, ab
		if err != nil {
			return err
		}
		if got != n {
			return d.shortChunk(done+int64(got), rows)
		}
		for i := 0; i < n; i++ {
			_ = v.Value(i)
		}
		done += int64(n)
	}
	return nil
}

// checkPageInput runs in through both decoders under the fuzz bounds
// (fuzzguard's per-byte allocation budget plus pageAllocBase, and its CPU
// time per input): no panic.
func checkPageInput(t *testing.T, in pageInput) {
	if in.nvals < 0 || in.nvals > maxFuzzValues {
		return
	}
	g := fuzzguard.Start(t, len(in.data)+len(in.dict))
	defer g.Done()
	g.Allow(pageAllocBase)
	for _, coded := range []bool{false, true} {
		if err := decodePageInput(in, coded); err != nil {
			if containsPanic(err) {
				t.Fatalf("coded=%v: recovered panic: %v", coded, err)
			}
		}
	}
}

// pageAllocBase is what decoding a page may cost beyond the per-byte
// budget: the output of up to maxFuzzValues values and the readers'
// buffers.
const pageAllocBase = 8 << 20

func containsPanic(err error) bool { return strings.Contains(err.Error(), "panic") }

// corpusPages returns the decompressed pages of the small corpus files
// whose encoding is enc, as fuzz inputs (nothing when the corpus is
// absent).
func corpusPages(f *testing.F, enc parquet.Encoding) []pageInput {
	dir := findCorpus()
	if dir == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "files", "*.parquet"))
	var out []pageInput
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.Size() > 128<<10 {
			continue
		}
		out = append(out, filePages(path, enc)...)
	}
	return out
}

// filePages collects the first pages of each flat column chunk of path
// encoded as enc (a dictionary-encoded chunk gives its dictionary page).
func filePages(path string, enc parquet.Encoding) (out []pageInput) {
	defer func() { _ = recover() }()
	tb, err := Open(path)
	if err != nil {
		return nil
	}
	defer tb.Close()
	pf := tb.files[0]
	for rg := 0; rg < pf.rdr.NumRowGroups() && rg < 2; rg++ {
		rgr := pf.rdr.RowGroup(rg)
		for _, c := range tb.cols {
			pr, err := rgr.GetColumnPageReader(c.leaf)
			if err != nil {
				continue
			}
			var dict []byte
			for k := 0; k < 3 && pr.Next(); k++ {
				switch pg := pr.Page().(type) {
				case *file.DictionaryPage:
					dict = append([]byte(nil), pg.Data()...)
				case *file.DataPageV1:
					if pe := parquet.Encoding(pg.Encoding()); pe == enc || (enc == parquet.Encodings.RLEDict && pe == parquet.Encodings.PlainDict) {
						in := pageInput{phys: c.phys, enc: pe, nvals: int(pg.NumValues()), optional: c.maxDef > 0,
							data: append([]byte(nil), pg.Data()...)}
						if c.phys == parquet.Types.FixedLenByteArray {
							in.typeLen = pf.meta.Schema.Column(c.leaf).TypeLength()
						}
						if in.enc == parquet.Encodings.RLEDict || in.enc == parquet.Encodings.PlainDict {
							in.dict = dict
						}
						out = append(out, in)
					}
				}
			}
			pr.Close()
		}
	}
	return out
}

// fuzzPages is the body of every page-encoding fuzz target.
func fuzzPages(f *testing.F, enc parquet.Encoding, dict bool) {
	for _, in := range corpusPages(f, enc) {
		f.Add(physByte(in.phys, in.typeLen), uint16(in.nvals), in.optional, in.dict, in.data)
	}
	f.Add(uint8(1), uint16(3), true, []byte{1, 0, 0, 0, 2, 0, 0, 0}, []byte{2, 0, 0, 0, 3, 5, 1, 1})
	f.Fuzz(func(t *testing.T, phys uint8, nvals uint16, optional bool, dictPage, data []byte) {
		p, tl := fuzzPhys(phys)
		in := pageInput{phys: p, typeLen: tl, enc: enc, nvals: int(nvals), optional: optional, data: data}
		if dict {
			in.dict = dictPage
			if in.dict == nil {
				in.dict = []byte{}
			}
		}
		checkPageInput(t, in)
	})
}

// physByte is the fuzz byte fuzzPhys maps to phys.
func physByte(phys parquet.Type, typeLen int) uint8 {
	switch phys {
	case parquet.Types.Boolean:
		return 0
	case parquet.Types.Int32:
		return 1
	case parquet.Types.Int64:
		return 2
	case parquet.Types.Int96:
		return 3
	case parquet.Types.Float:
		return 4
	case parquet.Types.Double:
		return 5
	case parquet.Types.ByteArray:
		return 6
	}
	return uint8(7 + 8*((typeLen-1)%16))
}

func FuzzPagePlain(f *testing.F)     { fuzzPages(f, parquet.Encodings.Plain, false) }
func FuzzPageRLE(f *testing.F)       { fuzzPages(f, parquet.Encodings.RLE, false) }
func FuzzPageDict(f *testing.F)      { fuzzPages(f, parquet.Encodings.RLEDict, true) }
func FuzzPageDeltaInts(f *testing.F) { fuzzPages(f, parquet.Encodings.DeltaBinaryPacked, false) }
func FuzzPageDeltaLength(f *testing.F) {
	fuzzPages(f, parquet.Encodings.DeltaLengthByteArray, false)
}
func FuzzPageDeltaByteArray(f *testing.F) { fuzzPages(f, parquet.Encodings.DeltaByteArray, false) }
func FuzzPageByteStreamSplit(f *testing.F) {
	fuzzPages(f, parquet.Encodings.ByteStreamSplit, false)
}

// FuzzPageHeaders reads arbitrary bytes as a column chunk: page headers
// (Thrift), any codec (LZ4 in both its variants included), the legacy V2
// flag rewrite (legacy.go) and the decoders behind, through arrow-go's page
// reader as a scan does. Seeds are the column chunks of the corpus's
// small files.
func FuzzPageHeaders(f *testing.F) {
	for _, s := range corpusChunks() {
		f.Add(s.codec, physByte(s.phys, s.typeLen), s.rows, s.optional, false, s.data)
	}
	f.Fuzz(func(t *testing.T, codec, phys uint8, rows uint16, optional, legacy bool, data []byte) {
		if rows > maxFuzzValues {
			return
		}
		p, tl := fuzzPhys(phys)
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		g.Allow(pageAllocBase)
		for _, coded := range []bool{false, true} {
			chunk := append([]byte(nil), data...)
			if legacy {
				markV2Compressed(chunk)
			}
			stream, err := readProps().GetStream(bytes.NewReader(chunk), 0, int64(len(chunk)))
			if err != nil {
				t.Fatal(err)
			}
			pr, err := file.NewPageReader(stream, int64(rows), compress.Compression(codec%8), bufferPool, nil)
			if err != nil {
				continue // a codec arrow-go does not have (LZO)
			}
			limitPageHeader(pr, int64(len(chunk))) // as openPages does
			whole := func() ([]byte, int64, error) { return chunk, 0, nil }
			if err := decodeFuzzChunk(p, tl, optional, int64(rows), true, coded, pr, whole); err != nil && containsPanic(err) {
				t.Fatalf("coded=%v: recovered panic: %v", coded, err)
			}
		}
	})
}

// chunkSeed is one column chunk of a corpus file, as FuzzPageHeaders takes it.
type chunkSeed struct {
	codec    uint8
	phys     parquet.Type
	typeLen  int
	rows     uint16
	optional bool
	data     []byte
}

// corpusChunks returns the first row group's column chunks of the corpus's
// files under 64 KiB (none when the corpus is absent).
func corpusChunks() (out []chunkSeed) {
	dir := findCorpus()
	if dir == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "files", "*.parquet"))
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.Size() > 64<<10 {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		tb, err := Open(path)
		if err != nil {
			continue
		}
		pf := tb.files[0]
		if pf.rdr.NumRowGroups() > 0 {
			rg := pf.meta.RowGroup(0)
			for _, c := range tb.cols {
				cc, err := rg.ColumnChunk(c.leaf)
				if err != nil || cc.NumValues() > maxFuzzValues {
					continue
				}
				start := cc.DataPageOffset()
				if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
					start = cc.DictionaryPageOffset()
				}
				end := start + cc.TotalCompressedSize()
				if start < 0 || end > int64(len(data)) {
					continue
				}
				s := chunkSeed{codec: uint8(cc.Compression()), phys: c.phys, rows: uint16(cc.NumValues()),
					optional: c.maxDef > 0, data: data[start:end]}
				if c.phys == parquet.Types.FixedLenByteArray {
					s.typeLen = pf.meta.Schema.Column(c.leaf).TypeLength()
				}
				out = append(out, s)
			}
		}
		tb.Close()
	}
	return out
}
