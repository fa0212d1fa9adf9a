package storage

import (
	"context"
	"sync"
	"testing"
	"time"
)

// openPattern serves n pattern bytes as "f" and opens them with a tail of
// 1 KiB, so that almost nothing is cached at the start.
func openPattern(t *testing.T, n int, cfg *Config) (*objectServer, Source, []byte) {
	t.Helper()
	srv, ts := newObjectServer(t)
	data := pattern(n)
	srv.put("f", data)
	cfg.HTTP = fastRetries()
	cfg.TailPrefetch = 1 << 10
	src, err := Open(context.Background(), ts.URL+"/f", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return srv, src, data
}

func readCheck(t *testing.T, src Source, data []byte, off, n int64) {
	t.Helper()
	buf := make([]byte, n)
	if _, err := src.ReadAt(buf, off); err != nil || string(buf) != string(data[off:off+n]) {
		t.Fatalf("ReadAt(%d, %d): %v or wrong bytes", off, n, err)
	}
}

// TestPrefetchFetchesOnlyGaps: a prefetch whose coalesced request is
// partly cached requests only the missing bytes (issue #22: a filtered
// scan fetched 165% of the file when every batch's page prefetch was
// merged across columns and fetched again in full).
func TestPrefetchFetchesOnlyGaps(t *testing.T) {
	srv, src, data := openPattern(t, 4<<20, &Config{CoalesceGap: 1 << 20})
	p := src.(Prefetcher)
	ctx := context.Background()
	for _, q := range []Range{{0, 100 << 10}, {300 << 10, 100 << 10}} {
		if err := p.Prefetch(ctx, []Range{q}); err != nil {
			t.Fatal(err)
		}
	}
	bytes0 := srv.bytesSent.Load()
	// Both ranges again, joined with a new one between and beyond them:
	// one coalesced run of 0..600 KiB, of which 400 KiB are new
	// (in two gaps).
	if err := p.Prefetch(ctx, []Range{{0, 100 << 10}, {200 << 10, 100 << 10}, {300 << 10, 300 << 10}}); err != nil {
		t.Fatal(err)
	}
	if got, want := srv.bytesSent.Load()-bytes0, int64(400<<10); got != want {
		t.Fatalf("second prefetch fetched %d bytes, want %d (only the gaps)", got, want)
	}
	reqs := srv.requests.Load()
	readCheck(t, src, data, 0, 600<<10)
	if srv.requests.Load() != reqs {
		t.Fatal("a read of prefetched bytes made a request")
	}
}

// TestConcurrentReadsShareOneRequest: readers of the same bytes at once
// (two scan workers, a read ahead and the read it serves) wait for the
// request in flight instead of sending their own.
func TestConcurrentReadsShareOneRequest(t *testing.T) {
	srv, src, data := openPattern(t, 4<<20, &Config{})
	srv.latency = 100 * time.Millisecond
	reqs, bytes0 := srv.requests.Load(), srv.bytesSent.Load()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				src.(Prefetcher).PrefetchAhead([]Range{{1 << 20, 1 << 20}})
			}
			time.Sleep(time.Duration(i) * 10 * time.Millisecond)
			readCheck(t, src, data, 1<<20+int64(i)<<10, 512<<10)
		}()
	}
	wg.Wait()
	if got := srv.requests.Load() - reqs; got != 1 {
		t.Fatalf("%d requests, want 1", got)
	}
	if got := srv.bytesSent.Load() - bytes0; got != 1<<20 {
		t.Fatalf("fetched %d bytes, want %d", got, 1<<20)
	}
}

// TestPrefetchAheadIsBoundedAndSurvivesFailure: a read ahead claims at
// most half the cache, and one whose request fails leaves the bytes to
// the reader, who fetches them itself.
func TestPrefetchAheadIsBoundedAndSurvivesFailure(t *testing.T) {
	srv, src, data := openPattern(t, 4<<20, &Config{CacheBytes: 1 << 20, MaxRequest: 256 << 10})
	bytes0 := srv.bytesSent.Load()
	src.(Prefetcher).PrefetchAhead([]Range{{0, 2 << 20}})
	deadline := time.Now().Add(5 * time.Second)
	for src.(*remote).cache.room() < 512<<10 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := srv.bytesSent.Load() - bytes0; got > 512<<10 {
		t.Fatalf("read ahead fetched %d bytes with a 1 MiB cache, want at most half", got)
	}
	srv.fail5xx.Store(100) // every retry fails
	src.(Prefetcher).PrefetchAhead([]Range{{3 << 20, 64 << 10}})
	time.Sleep(50 * time.Millisecond)
	srv.fail5xx.Store(0)
	readCheck(t, src, data, 3<<20, 64<<10)
}

// TestPlanRequestsGapRelativeToRanges: small ranges spread over a file
// (bloom filters, one per row group) stay separate requests; large ones
// bridge the same gap.
func TestPlanRequestsGapRelativeToRanges(t *testing.T) {
	const gap = 1 << 20
	small := planRequests([]Range{{0, 32 << 10}, {360 << 10, 32 << 10}}, 10<<20, gap, 8<<20)
	if len(small) != 2 {
		t.Fatalf("small ranges 328 KiB apart: %v, want two requests", small)
	}
	large := planRequests([]Range{{0, 1 << 20}, {(1 << 20) + 500<<10, 1 << 20}}, 10<<20, gap, 8<<20)
	if len(large) != 1 || large[0] != (Range{0, 2<<20 + 500<<10}) {
		t.Fatalf("1 MiB ranges 500 KiB apart: %v, want one request", large)
	}
	near := planRequests([]Range{{0, 10}, {60 << 10, 10}}, 10<<20, gap, 8<<20)
	if len(near) != 1 {
		t.Fatalf("ranges 60 KiB apart: %v, want one request (below minGap)", near)
	}
}

// TestSmallReadBeforeCachedBytesIsKept: a small read that ends where
// cached bytes begin (a Parquet footer just before the tail fetched at
// open, a page index before a prefetched run) is kept, so reading it again
// costs no request (issue #22: the footer and a column index were fetched
// four times in one filtered scan).
func TestSmallReadBeforeCachedBytesIsKept(t *testing.T) {
	srv, src, data := openPattern(t, 4<<20, &Config{})
	size := int64(len(data))
	readCheck(t, src, data, size-(1<<10)-300, 300) // ends where the 1 KiB tail begins
	reqs := srv.requests.Load()
	readCheck(t, src, data, size-(1<<10)-300, 300)
	readCheck(t, src, data, size-(1<<10)-200, 1<<10+200)
	if got := srv.requests.Load() - reqs; got != 0 {
		t.Fatalf("reading the same small range again made %d requests, want 0", got)
	}
}
