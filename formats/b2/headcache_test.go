package b2

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// framedChunks writes chunks into a frame file and returns its bytes.
func framedChunks(t *testing.T, typesize int, chunks ...[]byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.b2frame")
	fw, err := CreateFrame(path, &FrameOptions{Typesize: typesize})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if err := fw.AppendChunk(c); err != nil {
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
	return raw
}

// TestPrefixReadOncePerChunk reads every block of two frames' chunks one
// at a time, the frames in turn (as a scan reads two columns): the bytes
// must be the formula's, and each chunk's prefix must be read once, not
// once per block: 1 + 16 reads per chunk of 16 blocks (it was 2 per block).
func TestPrefixReadOncePerChunk(t *testing.T) {
	chunk, payload := reversedChunk(t)
	raw := framedChunks(t, 4, chunk, chunk, chunk)
	ra, rb := &countingReader{r: bytes.NewReader(raw)}, &countingReader{r: bytes.NewReader(raw)}
	fa, err := NewFileFrame(raw, "a", ra, 0)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := NewFileFrame(raw, "b", rb, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder()
	got := make([]byte, 4096)
	for i := 0; i < 3; i++ {
		// The blocks out of order, as units reach a worker.
		for _, b := range []int{0, 5, 1, 15, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14} {
			for _, f := range []*Frame{fa, fb} {
				clear(got)
				if err := f.DecompressChunkRange(d, got, i, 4096*b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, payload[4096*b:4096*(b+1)]) {
					t.Fatalf("%s chunk %d block %d differs", f.Name(), i, b)
				}
			}
		}
	}
	for _, r := range []*countingReader{ra, rb} {
		if n := r.reads.Load(); n != 3*17 {
			t.Errorf("%d reads for 3 chunks of 16 blocks, want 3*(1+16)", n)
		}
	}
}

// TestSmallChunkReadOnce: a chunk that fits in the first read of its
// prefix is read once; its blocks then come from memory.
func TestSmallChunkReadOnce(t *testing.T) {
	payload := le32s(1024, func(i int) int32 { return int32(i % 7) })
	p := DefaultCParams(4)
	p.Blocksize = 1024
	chunk, err := Compress(nil, payload, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(chunk) > headGuess {
		t.Fatalf("chunk of %d bytes does not fit one %d-byte read", len(chunk), headGuess)
	}
	raw := framedChunks(t, 4, chunk, chunk)
	r := &countingReader{r: bytes.NewReader(raw)}
	f, err := NewFileFrame(raw, "small", r, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder()
	got := make([]byte, 1024)
	for i := 0; i < 2; i++ {
		for b := 0; b < 4; b++ {
			if err := f.DecompressChunkRange(d, got, i, 1024*b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, payload[1024*b:1024*(b+1)]) {
				t.Fatalf("chunk %d block %d differs", i, b)
			}
		}
	}
	if n := r.reads.Load(); n != 2 {
		t.Errorf("%d reads for two small chunks, want 2", n)
	}
}

// failingReader fails the reads that start at byte failAt while fails > 0.
type failingReader struct {
	r      *bytes.Reader
	failAt int64
	fails  int
}

var errInjected = errors.New("injected read error")

func (f *failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off == f.failAt && f.fails > 0 {
		f.fails--
		return 0, errInjected
	}
	return f.r.ReadAt(p, off)
}

// TestPrefixAfterFailedRead: a read that fails does not leave its chunk's
// prefix behind for the next read to trust; the next reads of the chunk
// read it again and give the formula's bytes. The chunk has 256 blocks, so
// that its block starts run past the first read of the prefix and a
// second read, the one that fails, has to complete them.
func TestPrefixAfterFailedRead(t *testing.T) {
	payload := le32s(16384, func(i int) int32 { return int32(i * i % 1000) })
	p := DefaultCParams(4)
	p.Blocksize = 256
	chunk, err := Compress(nil, payload, p)
	if err != nil {
		t.Fatal(err)
	}
	raw := framedChunks(t, 4, chunk, chunk)
	f0, err := NewFrame(raw, "probe")
	if err != nil {
		t.Fatal(err)
	}
	pc, err := parseChunk(chunk)
	if err != nil {
		t.Fatal(err)
	}
	start := int64(f0.Header.HeaderLen) + f0.ChunkOffset(1)
	if pc.HeaderLen+4*pc.nblocks <= headGuess {
		t.Fatalf("%d blocks: the prefix fits the first read", pc.nblocks)
	}
	// The prefix's first read, its second, block 3's window.
	for _, failAt := range []int64{start, start + headGuess, start + int64(pc.bstart(3))} {
		fr := &failingReader{r: bytes.NewReader(raw), failAt: failAt, fails: 1}
		f, err := NewFileFrame(raw, "fail", fr, 0)
		if err != nil {
			t.Fatal(err)
		}
		d := NewDecoder()
		got := make([]byte, 256)
		if failAt > start+headGuess {
			// Block 0 first: the prefix is kept when block 3's read fails.
			if err := f.DecompressChunkRange(d, got, 1, 0); err != nil {
				t.Fatal(err)
			}
		}
		err = f.DecompressChunkRange(d, got, 1, 256*3)
		if !errors.Is(err, errInjected) {
			t.Fatalf("read failing at %d: got %v, want the injected error", failAt, err)
		}
		for _, b := range []int{3, 2, 0, 255} {
			clear(got)
			if err := f.DecompressChunkRange(d, got, 1, 256*b); err != nil {
				t.Fatalf("block %d after the failure: %v", b, err)
			}
			if !bytes.Equal(got, payload[256*b:256*(b+1)]) {
				t.Fatalf("block %d after the failure differs", b)
			}
		}
	}
}
