package b2

// Faster alternatives to zstd chunks.
//
// DefaultCParams and TextCParams write zstd, which is small but decodes at
// about 1 GB/s. Where another standard blosc2 encoding decodes several
// times faster, a chunk's first block is written both ways, and the chunk
// takes the faster encoding when that block is at most MinRatio times the
// size of the zstd one: the same price in bytes that MinRatio pays for raw
// planes. Both are standard blosc2 chunks (every chunk names its own
// codec and filters), which python-blosc2 reads.

// Items of one or two bytes: BITSHUFFLE + LZ4 instead of zstd.
//
// DefaultCParams shuffles bytes and lets zstd code the planes it can at
// least halve (MinRatio). With items of one or two bytes, shuffling has
// little to separate: a bool or a small code is one plane of small byte
// values, which zstd codes as Huffman literals (about 1 GB/s to decode)
// or as dense short matches (8 ns a match in klauspost's decoder, plus
// about 5 µs of table set-up per stream). BITSHUFFLE instead puts each
// bit of the items in a plane of its own, so that the bits no value uses
// become zero planes that LZ4 stores as a few long matches, and the rest
// decode at memory speed. Over the 10M-row events table (one chunk of
// 8 blocks of 8192 rows at a time, decoded by one thread):
//
//	column          SHUFFLE + zstd      BITSHUFFLE + LZ4
//	flag (bool)     2.09 MB, 15.6 ms    1.33 MB, 1.0 ms
//	region (int16)  4.50 MB, 10.9 ms    5.67 MB, 3.5 ms
//	price.notnull   0.28 MB,  6.7 ms    0.46 MB, 1.8 ms
//
// (Best of 5-20 runs on a loaded machine.) For wider items BITSHUFFLE +
// LZ4 was often smaller but slower: 1.2-7× for the int32 qty, user_id and
// category, whose SHUFFLE planes are raw or zero runs; a sorted int64 id
// came out 4.8× larger. So only one- and two-byte items try it.

// Text: LZ4HC at clevel 2 instead of zstd.
//
// The bytes of a utf8() column are text, made of matches: zstd's default
// level codes them about 3.9× smaller, but its Huffman-coded literals and
// short sequences decode at about 1 GB/s, where an LZ4 block decodes at
// 3-4 GB/s. Plain LZ4 finds a match for each word but rarely one spanning
// two; LZ4HC's two-hash search (lz4mid) finds those too. The demo table's
// titles (527 MB of words from a list of 64): zstd 135.8 MB, LZ4HC 160.6
// MB (plain LZ4 about 230 MB, the Parquet copy's Snappy 190.8 MB), and
// `count(*), sum(qty) … WHERE title LIKE 'Am%'` over the .b2z took 277
// instead of 647 ms of CPU (2 threads, loaded machine). Writing the table
// took 1.1-1.5 s more CPU (7.3-7.8 s before).

// TextCParams returns the parameters of text bytes (utf8() columns): zstd
// clevel 3 (zstd level 5, whose longer matches suit text) over
// one-byte items, raw streams where zstd does not halve them, and
// fasterAlternative's LZ4HC chunks where they are at most twice the size.
func TextCParams() CParams {
	p := DefaultCParams(1)
	p.CLevel = 3
	return p
}

// fasterAlternative returns the encoding a chunk written with p also tries
// (see above): BITSHUFFLE + LZ4 for items of one or two bytes written with
// DefaultCParams, LZ4HC clevel 2 without filters for TextCParams' bytes.
// Other parameters (a caller's own, msgpack batches at clevel 5) have none.
func fasterAlternative(p *CParams) (CParams, bool) {
	if p.MinRatio <= 1 || p.Codec != Zstd || p.Filters != [6]uint8{5: FilterShuffle} || p.FiltersMeta != [6]uint8{} {
		return CParams{}, false
	}
	q := *p
	switch {
	case p.CLevel == 1 && p.effTypesize() <= 2:
		q.Codec, q.Filters = LZ4, [6]uint8{5: FilterBitShuffle}
	case p.CLevel == 3 && p.effTypesize() == 1:
		q.Codec, q.CLevel, q.Filters = LZ4HC, 2, [6]uint8{}
	default:
		return CParams{}, false
	}
	return q, true
}

// compressFaster compresses src with p or with alt, as the chunk's first
// block favours: that block is compressed both ways (a one-block chunk is
// its own sample), and alt wins when p coded something and alt's block is
// at most p.MinRatio times as large. Deciding from one block keeps the
// cost of writing text close to one compression instead of two.
func (e *Encoder) compressFaster(dst, src []byte, p, alt *CParams, blocksize int) ([]byte, error) {
	first := src[:min(blocksize, len(src))]
	zs, coded, err := e.compressBlocks(dst, first, p, blocksize)
	if err != nil {
		return nil, err
	}
	c, _, err := e.compressBlocks(e.alt[:0], first, alt, blocksize)
	if err != nil {
		return nil, err
	}
	e.alt = c[:0]
	useAlt := coded && len(c) <= p.MinRatio*len(zs)
	if len(first) == len(src) {
		if useAlt {
			return append(zs[:0], c...), nil // the caller's buffer
		}
		return zs, nil
	}
	if useAlt {
		p = alt
	}
	out, _, err := e.compressBlocks(zs, src, p, blocksize)
	return out, err
}
