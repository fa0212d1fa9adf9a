package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// openCached opens object "f" of srv with the on-disk cache in dir.
func openCached(t *testing.T, url, dir string, limit int64) Source {
	t.Helper()
	src, err := Open(context.Background(), url+"/f", &Config{HTTP: fastRetries(), TailPrefetch: 1 << 10, DiskCacheDir: dir, DiskCacheBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// TestDiskCacheServesLaterOpens: ranges one source fetched are read from
// disk by a later source of the same object (a later query, or another
// process: nothing is shared but the directory), a range partly cached
// fetches only the rest, and a replaced object (new ETag) is fetched anew,
// never served from the old version's files.
func TestDiskCacheServesLaterOpens(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(4 << 20)
	srv.put("f", data)
	dir := t.TempDir()

	first := openCached(t, ts.URL, dir, 64<<20)
	readCheck(t, first, data, 1<<20, 256<<10)
	first.Close()

	second := openCached(t, ts.URL, dir, 64<<20)
	reqs, bytes0 := srv.requests.Load(), srv.bytesSent.Load()
	readCheck(t, second, data, 1<<20, 256<<10)
	if got := srv.requests.Load() - reqs; got != 0 {
		t.Fatalf("a cached range made %d requests, want 0", got)
	}
	// Half cached: only the other half is fetched.
	readCheck(t, second, data, 1<<20+128<<10, 256<<10)
	if got := srv.bytesSent.Load() - bytes0; got != 128<<10 {
		t.Fatalf("a half-cached read fetched %d bytes, want %d", got, 128<<10)
	}
	if st := second.Stats(); st.Cached != 256<<10+128<<10 {
		t.Fatalf("Stats.Cached = %d, want %d", st.Cached, 256<<10+128<<10)
	}

	// The object is replaced: its new version shares no file with the old.
	changed := pattern(4 << 20)
	for i := range changed {
		changed[i] ^= 0x5a
	}
	srv.put("f", changed)
	third := openCached(t, ts.URL, dir, 64<<20)
	reqs = srv.requests.Load()
	readCheck(t, third, changed, 1<<20, 256<<10)
	if srv.requests.Load() == reqs {
		t.Fatal("a replaced object was served from the cache of its old version")
	}
}

// TestDiskCacheDamagedFile: a range file whose bytes do not match its
// checksum (a torn write) is not served; the range is fetched again.
func TestDiskCacheDamagedFile(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(1 << 20)
	srv.put("f", data)
	dir := t.TempDir()
	first := openCached(t, ts.URL, dir, 64<<20)
	readCheck(t, first, data, 4096, 8192)
	first.Close()
	files := cacheFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("cache holds %v, want one range file", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(files[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	second := openCached(t, ts.URL, dir, 64<<20)
	reqs := srv.requests.Load()
	readCheck(t, second, data, 4096, 8192)
	if srv.requests.Load() == reqs {
		t.Fatal("a damaged range file was served")
	}
}

// TestDiskCacheBounded: the directory's size stays near its bound, the
// least recently used ranges going first.
func TestDiskCacheBounded(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(8 << 20)
	srv.put("f", data)
	dir := t.TempDir()
	const limit = 1 << 20
	src := openCached(t, ts.URL, dir, limit)
	for off := int64(0); off < 6<<20; off += 200 << 10 {
		readCheck(t, src, data, off, 200<<10)
		time.Sleep(2 * time.Millisecond) // let a sweep run
	}
	deadline := time.Now().Add(5 * time.Second)
	var total int64
	for {
		total = 0
		for _, f := range cacheFiles(t, dir) {
			st, err := os.Stat(f)
			if err == nil {
				total += st.Size()
			}
		}
		if total <= limit+limit/4 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if total > limit+limit/4 {
		t.Fatalf("cache holds %d bytes, bound %d", total, limit)
	}
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".tmp-") {
			out = append(out, path)
		}
		return nil
	})
	return out
}
