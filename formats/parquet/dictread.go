package parquet

import (
	"encoding/binary"
	"sync"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// codeReader hands a dictionary-encoded BYTE_ARRAY column chunk over as
// codes plus the chunk's dictionary (the DictCodes rule), reading pages
// itself: arrow-go's column readers decode indices internally and only
// expose values. Each data page is decoded whole into page-sized scratch
// (its definition levels and its indices, both RLE/bit-packed hybrid), then
// handed out batch by batch.
//
// Numeric and BOOLEAN chunks without a dictionary go through it too
// (PLAIN, DELTA_BINARY_PACKED in delta.go, BOOLEAN in boolread.go).
//
// Writers fall back to PLAIN pages when a dictionary grows too big, and
// may do so in the middle of a chunk. A batch that touches such a page is
// produced as plain strings (coded rows decoded through the dictionary,
// which costs no copy: the values alias the immutable dictionary arena).
type codeReader struct {
	pages  file.PageReader
	c      *column
	maxDef int16
	dict   *dict.Dict
	// Numeric chunks (dictfixed.go): the dictionary converted to the
	// payload type, and the current PLAIN page's values.
	dictI  []int64
	dictF  []float64
	plainI []int64
	plainF []float64
	// A BOOLEAN chunk's current page, expanded (boolread.go).
	plainB []bool

	// The current data page: levels (nil when the column is required or
	// the page has no NULL), codes or plain values of its non-NULL rows.
	defs    []int32
	codes   []int32
	plain   [][]byte
	isPlain bool
	// sparseNulls: the page's NULLs are few enough for fillPlain to copy
	// the runs of values between them.
	sparseNulls bool
	lazy        bool      // numeric indices: read through lc, not codes
	lc          lazyCodes // (codeBuf then holds the current segment's)
	// lazyPlain: a numeric PLAIN page, whose values (plainSrc) are
	// converted as rows are read (plainI/plainF then hold a segment's).
	lazyPlain bool
	plainSrc  []byte
	// lazyBytes: a PLAIN page of a dictionary-less BYTE_ARRAY chunk, its
	// values (plainSrc) copied out as rows are read from byte byteAt on
	// (plainbytes.go).
	lazyBytes bool
	byteAt    int
	rows      int   // rows in the page
	pos       int   // next row
	vpos      int   // next value
	left      int64 // rows the chunk's metadata promises beyond the current page
	total     int64 // rows of the chunk (seek, dictseek.go)
	plainBuf  []byte

	dictLen int  // values in the dictionary page
	hasDict bool // the chunk has a dictionary page (else DELTA or PLAIN numbers)

	// Scratch kept across pages, from codeScratchPool while scratch is set
	// (slices that were never grown are nil).
	scratch   bool
	defBuf    []int32
	codeBuf   []int32
	plainVals [][]byte
}

// codeScratch is a codeReader's page-sized scratch (a numeric dictionary
// alone can be hundreds of kilobytes). A reader keeps it from chunk to
// chunk (close) and returns it to the pool when its worker is done
// (release). Nothing a batch keeps aliases it (codes and numbers are
// copied out, strings alias the Dict or a page copy).
type codeScratch struct {
	defBuf, codeBuf []int32
	dictI, plainI   []int64
	dictF, plainF   []float64
	plainB          []bool
	plainVals       [][]byte
}

var codeScratchPool = sync.Pool{New: func() any { return new(codeScratch) }}

// copiesBytes reports whether r reads a dictionary-less BYTE_ARRAY chunk
// (readCopied), rather than codes or numbers.
func (r *codeReader) copiesBytes() bool {
	return !r.hasDict && r.c.kind == kBytes
}

// reset prepares r for a new column chunk of rows rows; hasDict tells
// whether it starts with a dictionary page, maxDef is the column's maximum
// definition level in the chunk's file (a column may be REQUIRED in one file
// of a table and OPTIONAL in another).
func (r *codeReader) reset(pages file.PageReader, c *column, rows int64, hasDict bool, maxDef int16) {
	if !r.scratch {
		r.scratch = true
		sc := codeScratchPool.Get().(*codeScratch)
		r.defBuf, r.codeBuf, r.dictI, r.plainI, r.dictF, r.plainF, r.plainB, r.plainVals =
			sc.defBuf, sc.codeBuf, sc.dictI, sc.plainI, sc.dictF, sc.plainF, sc.plainB, sc.plainVals
	}
	r.pages, r.c, r.maxDef, r.dict, r.left, r.total = pages, c, maxDef, nil, rows, rows
	r.hasDict = hasDict
	r.dictI, r.dictF = r.dictI[:0], r.dictF[:0]
	r.rows, r.pos, r.vpos = 0, 0, 0
	r.defs, r.codes, r.plain = nil, nil, nil
}

// close releases the page reader; the scratch stays for the next chunk.
func (r *codeReader) close() {
	if r.pages != nil {
		r.pages.Close()
		r.pages = nil
	}
	r.dict = nil
	r.defs, r.codes, r.plain = nil, nil, nil
}

// release closes r and returns its scratch to the pool.
func (r *codeReader) release() {
	r.close()
	if r.scratch {
		r.scratch = false
		codeScratchPool.Put(&codeScratch{r.defBuf, r.codeBuf, r.dictI[:0], r.plainI[:0], r.dictF[:0], r.plainF[:0], r.plainB[:0], r.plainVals[:0]})
	}
	r.defBuf, r.codeBuf, r.dictI, r.plainI, r.dictF, r.plainF, r.plainB, r.plainVals = nil, nil, nil, nil, nil, nil, nil, nil
	r.defs, r.codes, r.plain = nil, nil, nil
}

// nextPage loads the next data page; ok is false at the end of the chunk.
func (r *codeReader) nextPage() (ok bool, err error) {
	for {
		if !r.pages.Next() {
			return false, r.pages.Err()
		}
		if data, err := r.loadPage(r.pages.Page()); data || err != nil {
			return data, err
		}
	}
}

// loadPage takes in one page: the dictionary, or a data page (data true).
func (r *codeReader) loadPage(pg file.Page) (data bool, err error) {
	switch p := pg.(type) {
	case *file.DictionaryPage:
		return false, r.loadDict(p)
	case *file.DataPageV1:
		data := p.Data()
		n, err := r.pageRows(p.NumValues())
		if err != nil {
			return false, err
		}
		var defs []byte
		if r.maxDef > 0 {
			switch p.DefinitionLevelEncoding() {
			case parquet.Encodings.RLE:
				if len(data) < 4 {
					return false, corruptf("data page: definition levels truncated")
				}
				l := int(binary.LittleEndian.Uint32(data))
				if l < 0 || 4+l > len(data) {
					return false, corruptf("data page: definition levels of %d bytes, page has %d", l, len(data)-4)
				}
				defs, data = data[4:4+l], data[4+l:]
				r.defBuf, err = decodeHybrid(defs, levelWidth(r.maxDef), n, r.defBuf)
			case parquet.Encodings.BitPacked:
				bw := levelWidth(r.maxDef)
				l := (n*bw + 7) / 8
				r.defBuf, err = unpackLegacyLevels(data, bw, n, r.defBuf)
				if err == nil {
					data = data[l:]
				}
			default:
				return false, corruptf("data page: definition level encoding %s", p.DefinitionLevelEncoding())
			}
			if err != nil {
				return false, err
			}
		}
		return true, r.loadValues(parquet.Encoding(p.Encoding()), data, n, r.maxDef > 0)
	case *file.DataPageV2:
		data := p.Data()
		rl, dl := int(p.RepetitionLevelByteLen()), int(p.DefinitionLevelByteLen())
		if rl+dl > len(data) {
			return false, corruptf("data page v2: levels of %d bytes, page has %d", rl+dl, len(data))
		}
		n, err := r.pageRows(p.NumValues())
		if err != nil {
			return false, err
		}
		hasDefs := r.maxDef > 0 && p.NumNulls() > 0
		if hasDefs {
			r.defBuf, err = decodeHybrid(data[rl:rl+dl], levelWidth(r.maxDef), n, r.defBuf)
			if err != nil {
				return false, err
			}
		}
		return true, r.loadValues(parquet.Encoding(p.Encoding()), data[rl+dl:], n, hasDefs)
	}
	return false, nil
}

// loadDict takes in the chunk's dictionary page.
func (r *codeReader) loadDict(p *file.DictionaryPage) error {
	if r.dict != nil {
		return corruptf("second dictionary page in a column chunk")
	}
	if fixedWidth(r.c) > 0 {
		var err error
		r.dictI, r.dictF, err = decodeFixed(r.c, p.Data(), int(p.NumValues()), r.dictI[:0], r.dictF[:0])
		if err != nil {
			return err
		}
		r.dict = emptyDict // marks the dictionary as read
		r.dictLen = int(p.NumValues())
		return nil
	}
	d, err := plainDict(p.Data(), int(p.NumValues()))
	if err != nil {
		return err
	}
	r.dict, r.dictLen = d, d.Len()
	return nil
}

// pageRows checks a data page's row count against what the chunk has left,
// which bounds the scratch a hostile page header can make us allocate.
func (r *codeReader) pageRows(n int32) (int, error) {
	if n < 0 || int64(n) > r.left {
		return 0, corruptf("data page of %d rows, column chunk has %d left", n, r.left)
	}
	r.left -= int64(n)
	return int(n), nil
}

// loadValues decodes the values of a data page of n rows whose levels (if
// hasDefs) are in r.defBuf.
func (r *codeReader) loadValues(enc parquet.Encoding, data []byte, n int, hasDefs bool) error {
	r.rows, r.pos, r.vpos = n, 0, 0
	r.defs = nil
	r.lazy, r.lazyPlain, r.lazyBytes = false, false, false
	nv := n
	if hasDefs {
		r.defs = r.defBuf[:n]
		nv = 0
		for _, d := range r.defs {
			if d == int32(r.maxDef) {
				nv++
			}
		}
		r.sparseNulls = (n-nv)*minPlainRun*2 <= n
		if nv == n {
			// Levels that define every row (an OPTIONAL column without
			// NULLs in this page): rows are values one for one.
			r.defs = nil
		}
	}
	if boolPages(r.c) {
		// Expanded whole, then handed out as PLAIN values are (boolread.go).
		r.isPlain = true
		var err error
		r.plainB, r.codeBuf, err = decodeBools(enc, data, nv, r.plainB, r.codeBuf)
		return err
	}
	switch enc {
	case parquet.Encodings.RLEDict, parquet.Encodings.PlainDict:
		if r.dict == nil {
			return corruptf("dictionary-encoded data page without a dictionary page")
		}
		r.isPlain = false
		if nv == 0 {
			r.codes = r.codeBuf[:0]
			return nil
		}
		if len(data) < 1 {
			return corruptf("dictionary indices truncated")
		}
		if fixedWidth(r.c) > 0 {
			// Numbers: indices extracted as rows are read (hybridlazy.go).
			r.lazy, r.codes = true, nil
			return r.lc.reset(data[1:], int(data[0]), nv, uint32(r.dictLen))
		}
		var err error
		r.codeBuf, err = decodeHybrid(data[1:], int(data[0]), nv, r.codeBuf)
		if err != nil {
			return err
		}
		r.codes = r.codeBuf[:nv]
		lim := uint32(r.dictLen)
		for _, c := range r.codes {
			if uint32(c) >= lim {
				return corruptf("dictionary index %d, dictionary has %d values", c, lim)
			}
		}
		return nil
	case parquet.Encodings.Plain:
		r.isPlain = true
		if w := fixedWidth(r.c); w > 0 {
			// Converted as rows are read (readFixed), from the page.
			if nv > len(data)/w {
				return corruptf("%d values of %d bytes in %d bytes", nv, w, len(data))
			}
			r.lazyPlain, r.plainSrc = true, data[:nv*w]
			return nil
		}
		if r.copiesBytes() {
			r.lazyBytes, r.plainSrc, r.byteAt = true, data, 0
			return nil
		}
		// The page buffer is reused by the next page: keep a copy the
		// values can alias for as long as batches reference them.
		r.plainBuf = append([]byte(nil), data...)
		vals, err := plainValues(r.plainBuf, nv, r.plainVals[:0])
		r.plainVals = vals
		r.plain = vals
		return err
	case parquet.Encodings.DeltaBinaryPacked:
		if !deltaInts(r.c) {
			break
		}
		// Decoded whole, then handed out as PLAIN values are (delta.go).
		r.isPlain = true
		var err error
		r.plainI, err = decodeDelta(data, nv, r.c.phys == parquet.Types.Int32, r.plainI[:0])
		convertInts(r.c, r.plainI)
		return err
	}
	return corruptf("data page encoding %s in a dictionary-read chunk", enc)
}

// plainValues splits PLAIN BYTE_ARRAY data (4-byte little-endian length,
// then the bytes) into n values aliasing data.
func plainValues(data []byte, n int, out [][]byte) ([][]byte, error) {
	for range n {
		if len(data) < 4 {
			return out, corruptf("plain byte array truncated")
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return out, corruptf("plain byte array of %d bytes, %d left", l, len(data)-4)
		}
		out = append(out, data[4:4+l:4+l])
		data = data[4+l:]
	}
	return out, nil
}

// plainDict builds a Dict from a PLAIN-encoded dictionary page of n values.
func plainDict(data []byte, n int) (*dict.Dict, error) {
	if n > len(data)/4 {
		return nil, corruptf("dictionary page of %d values in %d bytes", n, len(data))
	}
	b := dict.NewBuilder(n, len(data)-4*n)
	for range n {
		if len(data) < 4 {
			return nil, corruptf("dictionary page truncated")
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return nil, corruptf("dictionary value of %d bytes, %d left", l, len(data)-4)
		}
		b.Add(data[4 : 4+l])
		data = data[4+l:]
	}
	return b.Dict(), nil
}

// read decodes the next n rows into v (reset to n rows by the caller):
// coded over r.dict when every row comes from dictionary pages, plain
// strings otherwise. It returns the rows decoded (fewer than n only at the
// end of the chunk) and the grown validity storage.
func (r *codeReader) read(v *columnar.Vector, n int, validBuf columnar.Bitmap) (int, columnar.Bitmap, error) {
	var codes []int32
	plain := false
	hasNull := false
	got := 0
	for got < n {
		if r.pos == r.rows {
			ok, err := r.nextPage()
			if err != nil {
				return 0, validBuf, err
			}
			if !ok {
				break
			}
			continue
		}
		if r.isPlain && !plain {
			// First plain rows in this batch: decode the coded ones so far.
			plain = true
			for i := range got {
				if codes != nil && (!hasNull || validBuf.Get(i)) {
					v.Bytes[i] = r.dict.Value(codes[i])
				} else {
					v.Bytes[i] = nil
				}
			}
		}
		if !plain && codes == nil {
			codes = dict.Set(v, r.dict, n)
		}
		k := min(n-got, r.rows-r.pos)
		if r.defs == nil && !plain {
			// The common case: no NULL in the page, codes in and out.
			copy(codes[got:got+k], r.codes[r.vpos:r.vpos+k])
			r.vpos += k
			r.pos += k
			got += k
			continue
		}
		for j := range k {
			row := got + j
			if r.defs != nil && r.defs[r.pos+j] != int32(r.maxDef) {
				if !hasNull {
					hasNull = true
					validBuf = validBuf.Resize(n)
				}
				validBuf.Clear(row)
				if plain {
					v.Bytes[row] = nil
				} else {
					codes[row] = 0
				}
				continue
			}
			switch {
			case plain && r.isPlain:
				v.Bytes[row] = r.plain[r.vpos]
			case plain:
				v.Bytes[row] = r.dict.Value(r.codes[r.vpos])
			default:
				codes[row] = r.codes[r.vpos]
			}
			r.vpos++
		}
		r.pos += k
		got += k
	}
	if plain {
		v.Dict, v.Codes = nil, v.Codes[:0]
	} else if codes == nil {
		// No row at all (end of chunk): leave v plain and empty.
		v.Dict = nil
	}
	if hasNull {
		v.Valid = validBuf
	} else {
		v.Valid = nil
	}
	return got, validBuf, nil
}
