package b2

import "fmt"

// Views of decoded blocks.
//
// A scan that reduces a column (sum, min, max, a filter count) needs the
// column's values once, in order, and nothing else. Copying them out of the
// decoded block into the caller's buffer, and from there into a vector,
// cost two passes over memory per value for nothing: ViewItems1D hands out
// the decoded block itself, kept in the Decoder's block cache
// (blockcache.go) where the following reads of the block find it.

// BlockCacheSlots is how many arrays' blocks a Decoder keeps at once: a
// view stays valid while its Decoder decodes blocks of at most
// BlockCacheSlots-1 other arrays (and none of its own array).
const BlockCacheSlots = blockCacheSlots

// ViewItems1D returns items [start, start+n) of a 1-D array as bytes of
// the decoded block that holds them, without copying: the block is decoded
// into d's block cache unless it is there already. ok is false, with no
// error, when the items are not inside one block of one regular chunk
// (they straddle blocks or chunks, or the chunk is special or stored
// uncompressed): read them with ReadItems1D then. The view is valid until
// d decodes another block of this array, or blocks of BlockCacheSlots
// other arrays; the caller must not write to it.
func (a *Array) ViewItems1D(d *Decoder, start int64, n int) (view []byte, ok bool, err error) {
	if a.NDim() != 1 || n <= 0 || d == nil {
		return nil, false, nil
	}
	stop := start + int64(n)
	if start < 0 || stop > a.Meta.Shape[0] {
		return nil, false, fmt.Errorf("b2: %s: items [%d, %d) outside shape %v", a.Frame.name, start, stop, a.Meta.Shape)
	}
	cs := int64(a.Meta.ChunkShape[0])
	bs := int64(a.Meta.BlockShape[0])
	ci := start / cs
	first, last := start-ci*cs, stop-1-ci*cs // items inside the chunk
	if last >= cs || first/bs != last/bs {
		return nil, false, nil
	}
	isz := a.itemsize
	off, nb := int(first)*isz, n*isz
	k := cacheKey{a.Frame, int(ci)}
	if v := d.cache.view(k, off, nb); v != nil {
		return v, true, nil
	}
	nchunk := int(ci)
	c, err := a.Frame.loadChunk(d, nchunk, off, nb)
	if err == nil && c.Nbytes != a.chunkItems*isz {
		err = corruptf("nbytes %d, b2nd geometry needs %d", c.Nbytes, a.chunkItems*isz)
	}
	if err != nil {
		return nil, false, chunkError(a.Frame.name, nchunk, a.Frame.chunkPos(nchunk), err)
	}
	if c.Special() != SpecialNone || c.Memcpyed() || c.VLBlocks() || c.nblocks == 0 {
		return nil, false, nil
	}
	b := off / c.Blocksize
	if (off+nb-1)/c.Blocksize != b || b >= c.nblocks {
		return nil, false, nil // a writer's blocksize other than the b2nd blockshape
	}
	bo, bsize := b*c.Blocksize, c.blockSize(b)
	if off+nb > bo+bsize {
		return nil, false, nil
	}
	d.key = k
	ref, err := d.deltaRef(&c, b)
	if err == nil {
		buf := d.cache.slot(k, bo, bsize)
		if err = d.decodeBlock(&c, b, buf, ref); err != nil {
			d.cache.drop(k)
		} else {
			view = buf[off-bo : off-bo+nb : off-bo+nb]
		}
	}
	d.key = cacheKey{}
	if err != nil {
		return nil, false, chunkError(a.Frame.name, nchunk, a.Frame.chunkPos(nchunk), err)
	}
	return view, true, nil
}
