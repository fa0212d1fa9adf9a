package ctable

import (
	"fmt"
	"math"
	"sort"

	"github.com/b2sql/b2sql/formats/b2"
)

// batchArray reads a python-blosc2 BatchArray (.b2b, spec §5.2): chunk k is
// one batch of rows stored as VL blocks, each block a msgpack array of
// consecutive items. Row i of a varlen column is item i of the
// concatenated batches.
type batchArray struct {
	f      *b2.Frame
	starts []int64 // starts[k] = first row of batch k; starts[len] = total rows
}

// maxBatchBytes bounds one decoded batch: a header claiming more is
// treated as corrupt rather than allocated.
const maxBatchBytes = 1 << 31

func openBatchArray(f *b2.Frame) (*batchArray, error) {
	raw, ok := f.MetaContent("batcharray")
	if !ok {
		return nil, corruptf("no batcharray metalayer")
	}
	meta, err := mpDecode(raw)
	if err != nil {
		return nil, fmt.Errorf("batcharray metalayer: %w", err)
	}
	mm, ok := meta.(mpMap)
	if !ok {
		return nil, corruptf("batcharray metalayer is not a map")
	}
	if s, ok := mm.get("serializer"); ok && s != "msgpack" {
		return nil, unsupportedf("BatchArray serializer %s", render(s))
	}
	ba := &batchArray{f: f, starts: []int64{0}}
	n := f.NChunks()
	var lengths []any
	if raw, ok, err := f.VLMeta("_batch_array_metadata"); err == nil && ok {
		if v, err := mpDecode(raw); err == nil {
			if m, ok := v.(mpMap); ok {
				bl, _ := m.get("batch_lengths")
				lengths, _ = untuple(bl)
			}
		}
	}
	if lengths != nil && len(lengths) != n {
		return nil, corruptf("batch_lengths lists %d batches, frame has %d chunks", len(lengths), n)
	}
	for k := 0; k < n; k++ {
		var l int64
		if lengths != nil {
			var ok bool
			if l, ok = asInt(lengths[k]); !ok || l < 0 {
				return nil, corruptf("batch_lengths[%d] is %s", k, render(lengths[k]))
			}
		} else {
			// No recorded lengths: count the items by decoding the batch.
			items, err := ba.decode(nil, k, -1)
			if err != nil {
				return nil, err
			}
			l = int64(len(items))
		}
		if ba.starts[k] > math.MaxInt64-l {
			return nil, corruptf("batch lengths overflow")
		}
		ba.starts = append(ba.starts, ba.starts[k]+l)
	}
	return ba, nil
}

// rows returns the number of items.
func (ba *batchArray) rows() int64 { return ba.starts[len(ba.starts)-1] }

// batchOf returns the batch holding row r.
func (ba *batchArray) batchOf(r int64) int {
	return sort.Search(len(ba.starts)-1, func(k int) bool { return ba.starts[k+1] > r })
}

// batchBytes decompresses batch k, checking its size against want items
// (want >= 0; every item takes at least one msgpack byte).
func (ba *batchArray) batchBytes(d *b2.Decoder, k int, want int64) ([]byte, error) {
	nb, err := ba.f.ChunkNbytes(k)
	if err != nil {
		return nil, err
	}
	if nb < 0 || nb > maxBatchBytes {
		return nil, corruptf("batch %d claims %d bytes", k, nb)
	}
	if want > int64(nb) {
		return nil, corruptf("batch %d: %d items in %d bytes", k, want, nb)
	}
	buf := make([]byte, nb)
	if _, err := ba.f.DecompressChunk(d, buf, k); err != nil {
		return nil, fmt.Errorf("batch %d: %w", k, err)
	}
	return buf, nil
}

// eachItem calls item once per item of batch k with r at the item, which
// item must consume; want (>= 0) is the number of items the batch must
// hold at least, checked before allocating.
func (ba *batchArray) eachItem(d *b2.Decoder, k int, want int64, item func(r *mpReader)) error {
	buf, err := ba.batchBytes(d, k, want)
	if err != nil {
		return err
	}
	r := &mpReader{b: buf}
	for !r.done() && r.err == nil {
		n := r.arrayLen()
		if n > len(buf)-r.off {
			r.fail("block array longer than its input")
		}
		for i := 0; i < n && r.err == nil; i++ {
			item(r)
		}
	}
	if r.err != nil {
		return fmt.Errorf("batch %d: %w", k, r.err)
	}
	return nil
}

// decode returns the items of batch k: str/bin payloads aliasing a fresh
// buffer (so they stay valid while any batch refers to them), nil for
// msgpack nil. want >= 0 is the number of items the batch must hold.
func (ba *batchArray) decode(d *b2.Decoder, k int, want int64) ([][]byte, error) {
	want = max(want, 0)
	items := make([][]byte, 0, want)
	err := ba.eachItem(d, k, want, func(r *mpReader) { items = append(items, r.rawItem()) })
	return items, err
}

// decodeRaw returns the items of batch k as their msgpack encodings
// (struct and list columns, copied whole when a table is extended).
func (ba *batchArray) decodeRaw(d *b2.Decoder, k int, want int64) ([][]byte, error) {
	want = max(want, 0)
	items := make([][]byte, 0, want)
	err := ba.eachItem(d, k, want, func(r *mpReader) {
		start := r.off
		r.value(1)
		items = append(items, r.b[start:r.off:r.off])
	})
	return items, err
}

// decodeValues returns the items of batch k decoded (nested.go's struct
// and list columns).
func (ba *batchArray) decodeValues(d *b2.Decoder, k int, want int64) ([]any, error) {
	want = max(want, 0)
	vals := make([]any, 0, want)
	err := ba.eachItem(d, k, want, func(r *mpReader) { vals = append(vals, r.value(1)) })
	return vals, err
}
