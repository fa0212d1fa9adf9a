package storage

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"testing"
	"time"
)

func fastRetries() HTTPSettings {
	return HTTPSettings{RetryWait: time.Millisecond, Retries: 3, Timeout: 5 * time.Second}
}

func TestHTTPOpenIsOneSuffixRequest(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(1 << 20)
	srv.put("x.parquet", data)
	cfg := &Config{HTTP: fastRetries()}
	src, err := Open(context.Background(), ts.URL+"/x.parquet", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Size() != 1<<20 {
		t.Fatalf("size %d, want %d", src.Size(), 1<<20)
	}
	if got := srv.requests.Load(); got != 1 {
		t.Fatalf("open made %d requests, want 1", got)
	}
	// A footer read (last 8 bytes, then the 40 KiB before) is served by
	// the tail fetched at open.
	buf := make([]byte, 8)
	if _, err := src.ReadAt(buf, src.Size()-8); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 40<<10)
	if _, err := src.ReadAt(big, src.Size()-8-int64(len(big))); err != nil {
		t.Fatal(err)
	}
	if string(big) != string(data[len(data)-8-len(big):len(data)-8]) || string(buf) != string(data[len(data)-8:]) {
		t.Fatal("tail bytes differ")
	}
	if got := srv.requests.Load(); got != 1 {
		t.Fatalf("footer reads made %d requests in all, want 1", got)
	}
	st := src.Stats()
	if st.Requests != 1 || st.Bytes != 256<<10 {
		t.Fatalf("stats %+v, want 1 request of 256 KiB (the default tail)", st)
	}
}

func TestHTTPReadsExactBytes(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(3<<20 + 17)
	srv.put("f", data)
	src, err := Open(context.Background(), ts.URL+"/f", &Config{HTTP: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ off, n int64 }{{0, 1}, {5, 100}, {1 << 20, 300 << 10}, {int64(len(data)) - 70<<10, 10}, {123457, 2 << 20}} {
		buf := make([]byte, c.n)
		n, err := src.ReadAt(buf, c.off)
		if err != nil || int64(n) != c.n {
			t.Fatalf("ReadAt(%d, %d) = %d, %v", c.off, c.n, n, err)
		}
		if string(buf) != string(data[c.off:c.off+c.n]) {
			t.Fatalf("ReadAt(%d, %d): wrong bytes", c.off, c.n)
		}
	}
	// Past the end: io.EOF with the bytes that exist.
	buf := make([]byte, 100)
	n, err := src.ReadAt(buf, int64(len(data))-10)
	if n != 10 || err != io.EOF || string(buf[:10]) != string(data[len(data)-10:]) {
		t.Fatalf("read over the end: n=%d err=%v", n, err)
	}
}

func TestHTTPRetries5xx(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(2 << 20)
	srv.put("f", data)
	src, err := Open(context.Background(), ts.URL+"/f", &Config{HTTP: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	srv.fail5xx.Store(2)
	buf := make([]byte, 1000)
	if _, err := src.ReadAt(buf, 4096); err != nil {
		t.Fatalf("read with two 503s before success: %v", err)
	}
	if string(buf) != string(data[4096:5096]) {
		t.Fatal("wrong bytes after retries")
	}
	if st := src.Stats(); st.Retries != 2 || st.Requests != 4 {
		t.Fatalf("stats %+v: want 2 retries, 4 requests (open + 3 attempts)", st)
	}
	// More failures than retries: the 503 is the error.
	srv.fail5xx.Store(10)
	_, err = src.ReadAt(buf, 1<<20)
	if err == nil || !contains(err.Error(), "503") || !contains(err.Error(), ts.URL+"/f") {
		t.Fatalf("want a 503 error naming the URL, got %v", err)
	}
}

func TestHTTPFileReplacedMidQuery(t *testing.T) {
	srv, ts := newObjectServer(t)
	srv.put("f", pattern(2<<20))
	src, err := Open(context.Background(), ts.URL+"/f", &Config{HTTP: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	srv.put("f", pattern(2<<20+1)) // a new version: new ETag
	_, err = src.ReadAt(make([]byte, 10), 0)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("want ErrChanged, got %v", err)
	}
}

func TestHTTPNotFoundAndNoRanges(t *testing.T) {
	srv, ts := newObjectServer(t)
	_, err := Open(context.Background(), ts.URL+"/missing.parquet", &Config{HTTP: fastRetries()})
	if !errors.Is(err, fs.ErrNotExist) || !contains(err.Error(), "missing.parquet") {
		t.Fatalf("want not-exist naming the file, got %v", err)
	}
	data := pattern(100000)
	srv.put("f", data)
	srv.noRanges = true
	src, err := Open(context.Background(), ts.URL+"/f", &Config{HTTP: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5000)
	if _, err := src.ReadAt(buf, 777); err != nil || string(buf) != string(data[777:5777]) {
		t.Fatalf("server without ranges: %v", err)
	}
	if got := srv.requests.Load(); got != 2 { // the 404, then one whole GET
		t.Fatalf("%d requests, want 2", got)
	}
}

func TestHTTPEmptyObject(t *testing.T) {
	srv, ts := newObjectServer(t)
	srv.put("empty", nil)
	src, err := Open(context.Background(), ts.URL+"/empty", &Config{HTTP: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	if src.Size() != 0 {
		t.Fatalf("size %d", src.Size())
	}
	if _, err := src.ReadAt(make([]byte, 1), 0); err != io.EOF {
		t.Fatalf("want io.EOF, got %v", err)
	}
}

func TestHTTPCancelStopsWaiting(t *testing.T) {
	srv, ts := newObjectServer(t)
	srv.put("f", pattern(1<<20))
	src, err := Open(context.Background(), ts.URL+"/f", &Config{HTTP: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	srv.latency = 2 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = src.ReadAtContext(ctx, make([]byte, 10), 0)
	if err == nil || time.Since(start) > time.Second {
		t.Fatalf("cancelled read returned %v after %v", err, time.Since(start))
	}
}

func TestPrefetchCoalescesAndRunsInParallel(t *testing.T) {
	srv, ts := newObjectServer(t)
	data := pattern(32 << 20)
	srv.put("f", data)
	cfg := &Config{HTTP: fastRetries(), CoalesceGap: 64 << 10, MaxRequest: 4 << 20, MaxInFlight: 4}
	src, err := Open(context.Background(), ts.URL+"/f", cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 64 column chunks of 100 KiB with 10 KiB between them: one run of
	// ~6.9 MiB, split into two requests of at most 4 MiB.
	var want []Range
	for i := int64(0); i < 64; i++ {
		want = append(want, Range{Off: i * 110 << 10, Len: 100 << 10})
	}
	// The latency keeps both requests at the server at once, so the
	// peak shows whether they were sent in parallel.
	srv.latency = 200 * time.Millisecond
	srv.peak.Store(0)
	before := srv.requests.Load()
	if err := src.(Prefetcher).Prefetch(context.Background(), want); err != nil {
		t.Fatal(err)
	}
	if got := srv.requests.Load() - before; got != 2 {
		t.Fatalf("prefetch made %d requests, want 2", got)
	}
	if got := srv.peak.Load(); got != 2 {
		t.Fatalf("at most %d requests in flight, want 2 (in parallel)", got)
	}
	before = srv.requests.Load()
	for _, r := range want {
		buf := make([]byte, r.Len)
		if _, err := src.ReadAt(buf, r.Off); err != nil || string(buf) != string(data[r.Off:r.Off+r.Len]) {
			t.Fatalf("read after prefetch at %d: %v", r.Off, err)
		}
	}
	if got := srv.requests.Load() - before; got != 0 {
		t.Fatalf("reads after prefetch made %d requests", got)
	}
}

func TestRemoteDisabledAndAllowHosts(t *testing.T) {
	_, err := Open(context.Background(), "https://example.com/x.parquet", &Config{DisableRemote: true})
	if !errors.Is(err, ErrRemoteDisabled) {
		t.Fatalf("want ErrRemoteDisabled, got %v", err)
	}
	_, err = Open(context.Background(), "https://evil.example.org/x.parquet", &Config{AllowHosts: []string{"*.example.com"}})
	if !errors.Is(err, ErrRemoteDisabled) || !contains(err.Error(), "evil.example.org") {
		t.Fatalf("want a refused host, got %v", err)
	}
	cfg := &Config{AllowHosts: []string{"*.example.com", "127.0.0.1"}}
	if err := cfg.allowed("https://data.example.com/x"); err != nil {
		t.Fatal(err)
	}
	if err := cfg.allowed("s3://bucket/key"); !errors.Is(err, ErrRemoteDisabled) {
		t.Fatalf("s3 to AWS with only example.com allowed: %v", err)
	}
}

func contains(s, sub string) bool { return len(sub) == 0 || indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// WithTail raises the first request of a reader that needs more of an
// object's end, never lowers a larger setting, and leaves the session's
// Config as it was.
func TestWithTail(t *testing.T) {
	var nilCfg *Config
	if got := nilCfg.WithTail(512 << 10).tailPrefetch(); got != 512<<10 {
		t.Errorf("nil.WithTail(512 KiB) tail = %d", got)
	}
	c := &Config{TailPrefetch: 1 << 20, CacheBytes: 7}
	w := c.WithTail(512 << 10)
	if w.tailPrefetch() != 1<<20 || w.CacheBytes != 7 {
		t.Errorf("WithTail lowered or lost settings: %+v", w)
	}
	d := &Config{}
	if d.WithTail(512<<10).tailPrefetch() != 512<<10 || d.TailPrefetch != 0 {
		t.Errorf("WithTail changed its receiver: %+v", d)
	}
}
