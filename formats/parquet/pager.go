package parquet

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// countingPager wraps a column chunk's page reader to count what decoding
// really cost: the data pages it produced and their uncompressed bytes.
// Seeking through the offset index (SeekToRow) jumps over pages without
// reading them, and this is where that shows. The counts feed
// ScanStats.BytesDecompressed and PagesTotal/PagesSkipped.
//
// It also refuses pages arrow-go cannot be trusted with (checkPage): an
// encoding that does not suit the column's physical type (arrow-go's
// decoder factory panics), and a DELTA or BYTE_STREAM_SPLIT page holding
// fewer values than its levels define (arrow-go's reader loops forever
// over it).
type countingPager struct {
	file.PageReader
	phys    parquet.Type
	typeLen int   // of a FIXED_LEN_BYTE_ARRAY column
	maxDef  int16 // of the column: 0 or 1 (flat columns only)
	pages   int64 // data pages read
	bytes   int64 // uncompressed bytes of every page read (dictionary included)
	err     error // a page refused by checkEncoding
	// chunk returns the chunk's bytes and file offset, read only to name
	// the defect of a page header arrow-go's reader failed on (nil: none).
	chunk func() ([]byte, int64, error)
}

func (p *countingPager) Err() error {
	if p.err != nil {
		return p.err
	}
	return p.PageReader.Err()
}

// checkEncoding reports a data page whose encoding the Parquet format does
// not allow for phys (corrupt) or that no version of it defines
// (unsupported).
func checkEncoding(enc parquet.Encoding, phys parquet.Type) error {
	T := parquet.Types
	ok := false
	switch enc {
	case parquet.Encodings.Plain:
		ok = true
	case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
		if phys == T.Boolean { // the format allows it, no writer does, arrow-go lacks it
			return fmt.Errorf("%w: dictionary-encoded BOOLEAN pages", ErrUnsupported)
		}
		ok = true
	case parquet.Encodings.RLE:
		ok = phys == T.Boolean
	case parquet.Encodings.DeltaBinaryPacked:
		ok = phys == T.Int32 || phys == T.Int64
	case parquet.Encodings.DeltaLengthByteArray:
		ok = phys == T.ByteArray
	case parquet.Encodings.DeltaByteArray:
		if phys == T.FixedLenByteArray { // the format allows it, arrow-go lacks it
			return fmt.Errorf("%w: DELTA_BYTE_ARRAY pages of FIXED_LEN_BYTE_ARRAY values", ErrUnsupported)
		}
		ok = phys == T.ByteArray
	case parquet.Encodings.ByteStreamSplit:
		ok = phys == T.Float || phys == T.Double || phys == T.Int32 || phys == T.Int64 || phys == T.FixedLenByteArray
	case parquet.Encodings.BitPacked:
		// levels only
	default:
		return fmt.Errorf("%w: page encoding %d", ErrUnsupported, int(enc))
	}
	if !ok {
		return corruptf("page encoding %s is not defined for %s values", enc, phys)
	}
	return nil
}

// check refuses the current page if its encoding does not suit the column.
func (p *countingPager) check() bool {
	var enc parquet.Encoding
	switch pg := p.PageReader.Page().(type) {
	case *file.DataPageV1:
		enc = parquet.Encoding(pg.Encoding())
	case *file.DataPageV2:
		enc = parquet.Encoding(pg.Encoding())
	case *file.DictionaryPage:
		enc = parquet.Encodings.RLEDict // checked as the pages that use it
	default:
		return true
	}
	if err := checkEncoding(enc, p.phys); err != nil {
		p.err = err
		return false
	}
	if err := p.checkDelta(enc); err != nil {
		p.err = err
		return false
	}
	if err := p.checkSplit(enc); err != nil {
		p.err = err
		return false
	}
	return true
}

// pageValues returns, for the current data page, how many values its
// definition levels define and its bytes after the levels; ok is false
// where that is not cheap to tell (legacy BIT_PACKED levels, not a data
// page).
func (p *countingPager) pageValues() (defined int64, values []byte, ok bool, err error) {
	switch pg := p.PageReader.Page().(type) {
	case *file.DataPageV1:
		data, n := pg.Data(), int64(pg.NumValues())
		if p.maxDef == 0 {
			return n, data, true, nil
		}
		if parquet.Encoding(pg.DefinitionLevelEncoding()) != parquet.Encodings.RLE {
			return 0, nil, false, nil // legacy BIT_PACKED levels: left to the decoder
		}
		if len(data) < 4 {
			return 0, nil, false, corruptf("page of %d bytes ends inside its definition levels", len(data))
		}
		l := int64(binary.LittleEndian.Uint32(data))
		if l > int64(len(data)-4) {
			return 0, nil, false, corruptf("definition levels of %d bytes in a %d-byte page", l, len(data))
		}
		if defined, err = countDefined(data[4:4+l], n); err != nil {
			return 0, nil, false, err
		}
		return defined, data[4+l:], true, nil
	case *file.DataPageV2:
		data := pg.Data()
		lv := int64(pg.DefinitionLevelByteLen()) + int64(pg.RepetitionLevelByteLen())
		if lv > int64(len(data)) {
			return 0, nil, false, corruptf("levels of %d bytes in a %d-byte page", lv, len(data))
		}
		return int64(pg.NumValues()) - int64(pg.NumNulls()), data[lv:], true, nil
	}
	return 0, nil, false, nil
}

// checkSplit checks that a BYTE_STREAM_SPLIT page holds a value's bytes
// for every value its levels define: arrow-go's decoder takes a shorter
// page as holding fewer values, and its reader then waits forever for the
// rest (FuzzPageByteStreamSplit: 300 DOUBLEs in 0 bytes).
func (p *countingPager) checkSplit(enc parquet.Encoding) error {
	if enc != parquet.Encodings.ByteStreamSplit {
		return nil
	}
	defined, values, ok, err := p.pageValues()
	if err != nil || !ok || defined <= 0 {
		return err
	}
	width := int64(p.typeLen)
	switch p.phys {
	case parquet.Types.Float, parquet.Types.Int32:
		width = 4
	case parquet.Types.Double, parquet.Types.Int64:
		width = 8
	}
	if width > 0 && int64(len(values)) < defined*width {
		return corruptf("BYTE_STREAM_SPLIT page of %d bytes, its levels define %d values of %d bytes", len(values), defined, width)
	}
	return nil
}

// checkDelta checks a DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY or
// DELTA_BYTE_ARRAY page: its first block header's total value count (the
// values, lengths or prefix lengths) must cover the rows its definition
// levels define.
func (p *countingPager) checkDelta(enc parquet.Encoding) error {
	switch enc {
	case parquet.Encodings.DeltaBinaryPacked, parquet.Encodings.DeltaLengthByteArray, parquet.Encodings.DeltaByteArray:
	default:
		return nil
	}
	defined, values, ok, err := p.pageValues()
	if err != nil || !ok {
		return err
	}
	if defined <= 0 {
		return nil
	}
	var hdr [3]uint64 // block size, miniblocks per block, total value count
	for i := range hdr {
		v, k := binary.Uvarint(values)
		if k <= 0 {
			return corruptf("%s page header truncated", enc)
		}
		hdr[i], values = v, values[k:]
	}
	if hdr[2] < uint64(defined) {
		return corruptf("%s page holds %d values, its levels define %d", enc, hdr[2], defined)
	}
	blockSize, minis := hdr[0], hdr[1]
	if blockSize == 0 || blockSize%128 != 0 || minis == 0 || blockSize%minis != 0 || (blockSize/minis)%32 != 0 {
		return corruptf("%s page: blocks of %d values in %d miniblocks", enc, blockSize, minis)
	}
	// arrow-go's decoder allocates a miniblock's values whatever the page
	// holds: a 12-byte page claiming 25M-value miniblocks took 200 MB.
	// Writers use 32 (parquet-mr, arrow, parquet-rs) to 512 (DuckDB).
	if per := blockSize / minis; per > max(maxMiniblock, (uint64(defined)+31)/32*32) {
		return fmt.Errorf("%w: %s page of %d-value miniblocks (at most %d, or the page's values)", ErrUnsupported, enc, per, maxMiniblock)
	}
	return nil
}

// maxMiniblock is the largest DELTA miniblock (in values) read from a page
// holding fewer values.
const maxMiniblock = 4096

// countDefined counts the rows of n whose definition level is 1 in the
// RLE/bit-packed hybrid levels src (bit width 1), without materializing
// them.
func countDefined(src []byte, n int64) (int64, error) {
	var seen, defined int64
	for seen < n {
		h, k := binary.Uvarint(src)
		if k <= 0 {
			return 0, corruptf("definition levels end after %d of %d rows", seen, n)
		}
		src = src[k:]
		if h&1 == 0 { // RLE run: a count and a 1-byte value
			if len(src) < 1 {
				return 0, corruptf("definition level run truncated")
			}
			cnt := min(int64(h>>1), n-seen)
			if src[0] == 1 {
				defined += cnt
			}
			src, seen = src[1:], seen+cnt
			if cnt == 0 {
				return 0, corruptf("definition level run of 0 rows")
			}
			continue
		}
		groups := int64(h >> 1) // 8 levels of 1 bit each: one byte per group
		if groups == 0 || groups > int64(len(src)) {
			return 0, corruptf("definition level bit-packed run of %d groups, %d bytes left", groups, len(src))
		}
		for _, b := range src[:groups] {
			cnt := min(8, n-seen)
			defined += int64(bits.OnesCount8(b & byte(1<<cnt-1)))
			seen += cnt
			if seen == n {
				break
			}
		}
		src = src[groups:]
	}
	return defined, nil
}

func (p *countingPager) count() {
	switch pg := p.PageReader.Page().(type) {
	case file.DataPage:
		p.pages++
		p.bytes += int64(pg.UncompressedSize())
	case *file.DictionaryPage:
		p.bytes += int64(len(pg.Data()))
	}
}

func (p *countingPager) Next() bool {
	if p.err != nil || !p.next() || !p.check() {
		return false
	}
	p.count()
	return true
}

// next is arrow-go's Next, its panics on a malformed page header (a
// missing sub-header) turned into p.err.
func (p *countingPager) next() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			p.err, ok = p.explainPanic(r), false
		}
	}()
	return p.PageReader.Next()
}

func (p *countingPager) SeekToPageWithRow(row int64) error {
	if err := p.seek(row); err != nil {
		return err
	}
	if p.PageReader.Page() != nil {
		if !p.check() {
			return p.err
		}
		p.count()
	}
	return nil
}

func (p *countingPager) GetDictionaryPage() (*file.DictionaryPage, error) {
	pg, err := p.PageReader.GetDictionaryPage()
	if err == nil && pg != nil {
		if err := checkEncoding(parquet.Encodings.RLEDict, p.phys); err != nil {
			return nil, err
		}
		p.bytes += int64(len(pg.Data()))
	}
	return pg, err
}

// seek is arrow-go's SeekToPageWithRow, its panics turned into errors as
// in next.
func (p *countingPager) seek(row int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.err = p.explainPanic(r)
			err = p.err
		}
	}()
	return p.PageReader.SeekToPageWithRow(row)
}

// openColumn opens a reader of leaf in a row group through a countingPager.
// arrow-go's NewColumnReader is marked deprecated because its buffer pool
// must hold *memory.Buffer values; the file reader's own pool does.
func openColumn(pf *pqFile, rgr *file.RowGroupReader, leaf int) (file.ColumnChunkReader, *countingPager, error) {
	cp, err := openPages(pf, rgr, leaf)
	if err != nil {
		return nil, nil, err
	}
	descr := pf.meta.Schema.Column(leaf)
	//lint:ignore SA1019 see above
	r := file.NewColumnReader(descr, cp, bufferPool, pf.rdr.BufferPool())
	return r, cp, nil
}

// openPages opens the pages of leaf in a row group through a countingPager:
// every column chunk is read through one.
func openPages(pf *pqFile, rgr *file.RowGroupReader, leaf int) (*countingPager, error) {
	var pr file.PageReader
	var err error
	if pf.legacyV2 {
		pr, err = legacyPages(pf, rgr, leaf)
	} else {
		pr, err = rgr.GetColumnPageReader(leaf)
	}
	if err != nil {
		return nil, err
	}
	descr := rgr.MetaData().Schema.Column(leaf)
	cp := &countingPager{PageReader: pr, phys: descr.PhysicalType(), typeLen: descr.TypeLength(), maxDef: descr.MaxDefinitionLevel()}
	if cc, err := rgr.MetaData().ColumnChunk(leaf); err == nil {
		limitPageHeader(pr, cc.TotalCompressedSize())
		cp.chunk = func() ([]byte, int64, error) { return readChunk(pf, cc) }
	}
	return cp, nil
}

// explainPanic turns a panic of arrow-go's page reader into the chunk's
// true defect when checkPageHeaders finds one, and into a positioned
// corruption error otherwise.
func (p *countingPager) explainPanic(r any) error {
	if p.chunk != nil {
		if data, base, err := p.chunk(); err == nil {
			if err := checkPageHeaders(data, base); err != nil {
				return err
			}
		}
	}
	return corruptf("page header after page %d: unreadable (%s)", p.pages, fmt.Sprint(r))
}
