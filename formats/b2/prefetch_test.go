package b2

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/storage"
)

// prefetchLog is a local file posing as a remote object: it records the
// rounds of ranges it is asked to prefetch and, once reading is set, the
// ranges read from it.
type prefetchLog struct {
	f       *os.File
	mu      sync.Mutex
	rounds  [][]storage.Range
	reading bool
	reads   []storage.Range
}

func (l *prefetchLog) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	if l.reading {
		l.reads = append(l.reads, storage.Range{Off: off, Len: int64(len(p))})
	}
	l.mu.Unlock()
	return l.f.ReadAt(p, off)
}

func (l *prefetchLog) Prefetch(ctx context.Context, rs []storage.Range) error {
	l.mu.Lock()
	l.rounds = append(l.rounds, append([]storage.Range(nil), rs...))
	l.mu.Unlock()
	return nil
}

func (l *prefetchLog) PrefetchAhead([]storage.Range) {}

// covered reports whether r lies inside one of the prefetched ranges.
func (l *prefetchLog) covered(r storage.Range) bool {
	return l.coveredBy(r, len(l.rounds))
}

// coveredBy reports whether r lies inside a range of the first n rounds.
func (l *prefetchLog) coveredBy(r storage.Range, n int) bool {
	for _, round := range l.rounds[:n] {
		for _, q := range round {
			if q.Off <= r.Off && r.Off+r.Len <= q.Off+q.Len {
				return true
			}
		}
	}
	return false
}

// TestPrefetchItems1D: after PrefetchItems1D of some scattered spans, the
// reads of those spans read nothing that was not prefetched, in at most
// three rounds: with a chunk's block starts inside its first read, and
// with more blocks than that read holds (a second round for the rest);
// chunks stored small are fetched whole, in one round. Blocks of random
// values compress evenly, so the first round's guess of where they lie
// holds: the later rounds ask only for bytes the first one fetched (and
// the storage layer makes no request for them).
func TestPrefetchItems1D(t *testing.T) {
	const n = 200_000
	random := func(i int64) uint64 { // 48 random bits (splitmix64): chunks of ~300 KB stored, compressed
		z := uint64(i) * 0x9E3779B97F4A7C15
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return (z ^ z>>31) & (1<<48 - 1)
	}
	small := func(i int64) uint64 { return uint64(i % 1000) } // chunks of a few KB
	for _, tc := range []struct {
		name   string
		block  int
		item   func(int64) uint64
		rounds int
	}{
		{"few blocks", 1000, random, 2}, // 50 block starts fit in the first read
		{"many blocks", 200, random, 3}, // 250 do not
		{"small chunks", 200, small, 1}, // fetched whole (wholeChunk)
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := make([]byte, 8*n)
			for i := range int64(n) {
				binary.LittleEndian.PutUint64(data[8*i:], tc.item(i))
			}
			path := filepath.Join(t.TempDir(), "a.b2nd")
			if err := WriteArray(path, "<i8", []int64{n}, data, &ArrayOptions{ChunkShape: []int{50_000}, BlockShape: []int{tc.block}}); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			log := &prefetchLog{f: f}
			fr, err := OpenReaderAt(log, 0, st.Size(), path)
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewArray(fr)
			if err != nil {
				t.Fatal(err)
			}
			spans := [][2]int64{{1234, 1240}, {123_456, 123_460}, {199_990, 200_000}}
			a.PrefetchItems1D(context.Background(), spans)
			if len(log.rounds) != tc.rounds {
				t.Fatalf("%d rounds of prefetch, want %d", len(log.rounds), tc.rounds)
			}
			log.reading = true
			d := NewDecoder()
			defer d.Release()
			for _, s := range spans {
				dst := make([]byte, 8*(s[1]-s[0]))
				if err := a.ReadItems1D(d, dst, s[0], int(s[1]-s[0])); err != nil {
					t.Fatal(err)
				}
				for i := s[0]; i < s[1]; i++ {
					if got, want := binary.LittleEndian.Uint64(dst[8*(i-s[0]):]), tc.item(i); got != want {
						t.Fatalf("item %d = %d, want %d", i, got, want)
					}
				}
			}
			if len(log.reads) == 0 {
				t.Fatal("no reads recorded")
			}
			for _, r := range log.reads {
				if !log.covered(r) {
					t.Errorf("read %+v was not prefetched (rounds %+v)", r, log.rounds)
				} else if !log.coveredBy(r, 1) {
					t.Errorf("read %+v was not fetched in the first round (rounds %+v)", r, log.rounds)
				}
			}
		})
	}
}
