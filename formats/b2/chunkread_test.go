package b2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPreadMatchesMemory decodes every reference fixture twice, through
// Open (chunk bytes read with pread, only the blocks a range needs) and
// through NewFrame on the file's bytes (the chunk aliases memory), and
// requires the same bytes for whole chunks, random byte ranges and random
// b2nd slices.
func TestPreadMatchesMemory(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.b2nd")
	more, _ := filepath.Glob("testdata/sc_*.b2frame")
	paths = append(paths, more...)
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, p := range paths {
		if strings.Contains(p, "sparse") {
			continue // a directory: chunk files are read whole either way
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			ff, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer ff.Close()
			if ff.file == nil {
				t.Fatal("Open kept no file to pread from")
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			mf, err := NewFrame(raw, p)
			if err != nil {
				t.Fatal(err)
			}
			d := NewDecoder()
			for i := 0; i < ff.NChunks(); i++ {
				nb, err := mf.ChunkNbytes(i)
				if err != nil {
					t.Fatal(err)
				}
				want, got := make([]byte, nb), make([]byte, nb)
				if _, err := mf.DecompressChunk(nil, want, i); err != nil {
					t.Fatal(err)
				}
				if _, err := ff.DecompressChunk(d, got, i); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("chunk %d differs", i)
				}
				for range 20 {
					off := rng.IntN(nb + 1)
					n := rng.IntN(nb - off + 1)
					part := make([]byte, n)
					if err := ff.DecompressChunkRange(d, part, i, off); err != nil {
						t.Fatalf("chunk %d range [%d, +%d): %v", i, off, n, err)
					}
					if !bytes.Equal(part, want[off:off+n]) {
						t.Fatalf("chunk %d range [%d, +%d) differs", i, off, n)
					}
				}
				checked++
			}
			if _, ok := ff.MetaContent("b2nd"); ok {
				compareSlices(t, rng, ff, mf)
			}
		})
	}
	if checked < 20 {
		t.Fatalf("only %d chunks checked", checked)
	}
}

// compareSlices reads random hyper-slabs of a b2nd array through both frames.
func compareSlices(t *testing.T, rng *rand.Rand, ff, mf *Frame) {
	t.Helper()
	fa, err := NewArray(ff)
	if err != nil {
		t.Fatal(err)
	}
	ma, err := NewArray(mf)
	if err != nil {
		t.Fatal(err)
	}
	nd := fa.NDim()
	for range 30 {
		start, stop := make([]int64, nd), make([]int64, nd)
		items := int64(1)
		for k := 0; k < nd; k++ {
			n := fa.Meta.Shape[k]
			start[k] = rng.Int64N(n + 1)
			stop[k] = start[k] + rng.Int64N(n-start[k]+1)
			items *= stop[k] - start[k]
		}
		want := make([]byte, items*int64(fa.ItemSize()))
		got := make([]byte, len(want))
		if err := ma.ReadSlice(want, start, stop); err != nil {
			t.Fatal(err)
		}
		if err := fa.ReadSlice(got, start, stop); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("slice %v-%v differs", start, stop)
		}
		if nd == 1 {
			if err := fa.ReadItems1D(nil, got, start[0], int(stop[0]-start[0])); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("items %v-%v differ", start, stop)
			}
		}
	}
}

// countingReader counts the reads and bytes read through it.
type countingReader struct {
	r     *bytes.Reader
	bytes atomic.Int64
	reads atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.bytes.Add(int64(len(p)))
	c.reads.Add(1)
	return c.r.ReadAt(p, off)
}

// reversedChunk compresses 64 KiB of int32 items i*i%1000 (independent of
// the codec: a formula) into 16 blocks, then rewrites the chunk with its
// blocks stored in reverse order, as a multi-threaded c-blosc2 may store
// them.
func reversedChunk(t *testing.T) (chunk, payload []byte) {
	t.Helper()
	payload = le32s(16384, func(i int) int32 { return int32(i * i % 1000) })
	p := DefaultCParams(4)
	p.Blocksize = 4096
	c, err := Compress(nil, payload, p)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := parseChunk(c)
	if err != nil {
		t.Fatal(err)
	}
	if pc.nblocks != 16 {
		t.Fatalf("%d blocks, want 16", pc.nblocks)
	}
	// Blocks are stored in order: block b spans [bstart(b), bstart(b+1)).
	pre := pc.bstart(0)
	out := append([]byte(nil), c[:pre]...)
	for b := pc.nblocks - 1; b >= 0; b-- {
		end := pc.Cbytes
		if b+1 < pc.nblocks {
			end = pc.bstart(b + 1)
		}
		binary.LittleEndian.PutUint32(out[pc.HeaderLen+4*b:], uint32(len(out)))
		out = append(out, c[pc.bstart(b):end]...)
	}
	if len(out) != len(c) {
		t.Fatalf("rewritten chunk has %d bytes, want %d", len(out), len(c))
	}
	return out, payload
}

// TestPreadReadsOnlyNeededBlocks reads single blocks and short ranges of a
// chunk whose blocks are stored in reverse order from a file-backed frame:
// the bytes must match the formula, and a one-block read must fetch far
// less than the chunk.
func TestPreadReadsOnlyNeededBlocks(t *testing.T) {
	chunk, payload := reversedChunk(t)
	path := filepath.Join(t.TempDir(), "rev.b2frame")
	fw, err := CreateFrame(path, &FrameOptions{Typesize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := fw.AppendChunk(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cr := &countingReader{r: bytes.NewReader(raw)}
	f, err := NewFileFrame(raw, path, cr, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A one-block read keeps the prefix and that block, not a buffer the
	// size of the chunk that a scan would fault in page by page.
	d := NewDecoder()
	got := make([]byte, 4096)
	if err := f.DecompressChunkRange(d, got, 1, 4096*15); err != nil {
		t.Fatal(err)
	}
	if held := cap(d.cbuf) + cap(d.win); held > len(chunk)/4 {
		t.Errorf("a one-block read holds %d bytes of buffers for a %d-byte chunk", held, len(chunk))
	}
	for i := 0; i < 3; i++ {
		for _, r := range [][2]int{{0, 4096}, {4096 * 15, 4096}, {4096*7 + 100, 5000}, {12, 8}, {0, len(payload)}} {
			before := cr.bytes.Load()
			got := make([]byte, r[1])
			if err := f.DecompressChunkRange(d, got, i, r[0]); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, payload[r[0]:r[0]+r[1]]) {
				t.Fatalf("chunk %d range %v differs", i, r)
			}
			read := cr.bytes.Load() - before
			if r[1] <= 4096 && read > int64(len(chunk))/4 {
				t.Errorf("chunk %d range %v read %d bytes of a %d-byte chunk", i, r, read, len(chunk))
			}
		}
	}
}

// TestPreadTruncatedFile: a frame file cut short after it was opened gives
// an ErrCorrupt error naming the file and chunk, never a fault.
func TestPreadTruncatedFile(t *testing.T) {
	chunk, _ := reversedChunk(t)
	path := filepath.Join(t.TempDir(), "cut.b2frame")
	fw, err := CreateFrame(path, &FrameOptions{Typesize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := fw.AppendChunk(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(path, int64(f.Header.HeaderLen)+f.ChunkOffset(2)+100); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 65536)
	_, err = f.DecompressChunk(nil, buf, 3)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "cut.b2frame: chunk 3") {
		t.Fatalf("got %v, want a corrupt-data error naming cut.b2frame chunk 3", err)
	}
	if _, err := f.DecompressChunk(nil, buf, 0); err != nil {
		t.Fatalf("chunk 0, before the cut: %v", err)
	}
}
