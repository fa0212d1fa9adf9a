package storage

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
)

// objectFetcher is what a remote protocol provides: ranged GETs of one
// object, checked against the validators seen at open.
type objectFetcher interface {
	// openTail fetches the last n bytes (fewer when the object is shorter)
	// and records the object's validators. It returns the bytes and the
	// object's size.
	openTail(ctx context.Context, n int64) (tail []byte, size int64, err error)
	// fetch returns exactly length bytes at off, or an error; an object
	// changed since openTail is ErrChanged. One call is one request.
	fetch(ctx context.Context, off, length int64) ([]byte, error)
	// validator names the version openTail saw (a strong ETag, else the
	// Last-Modified time), "" when the server gave neither: the key of
	// the on-disk cache, which does not keep an object without one.
	validator() string
}

// remote is a Source over an objectFetcher: the tail from open, a bounded
// range cache that also knows the ranges in flight, read-ahead for small
// reads, Prefetch with coalescing, and retries.
type remote struct {
	name  string
	size  int64
	f     objectFetcher
	cfg   *Config
	n     counters
	cache *rangeCache
	// disk is the on-disk cache of this object version (nil: none).
	disk *diskObject
	// slots bounds the requests Prefetch and PrefetchAhead have in flight
	// together (MaxInFlight); ReadAt does not wait for one.
	slots chan struct{}
	// bg is the context of reads ahead, which no query waits for; Close
	// cancels it.
	bg     context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	closed bool
}

// minGap is the gap planRequests always bridges: below it a second request
// costs more than the bytes.
const minGap = 64 << 10

// readAhead is the smallest request a cache miss makes: format readers
// read a page header, then its page, then the next header; one request
// should serve several of those.
const readAhead = 64 << 10

// newRemote opens a remote Source; on error the Source is a nil interface
// (never a typed nil a caller's "!= nil" would take for an open source).
func newRemote(ctx context.Context, name string, f objectFetcher, cfg *Config) (Source, error) {
	r := &remote{name: name, f: f, cfg: cfg, cache: newRangeCache(cfg.cacheBytes()),
		slots: make(chan struct{}, cfg.maxInFlight())}
	var tail []byte
	err := retry(ctx, &cfg.HTTP, &r.n, func(ctx context.Context) error {
		var err error
		tail, r.size, err = f.openTail(ctx, cfg.tailPrefetch())
		return err
	})
	if err != nil {
		return nil, locationError(name, err)
	}
	r.n.bytes.Add(int64(len(tail)))
	r.cache.put(r.size-int64(len(tail)), tail)
	if cfg.DiskCacheDir != "" {
		r.disk = openDiskCache(cfg.DiskCacheDir, cfg.diskCacheBytes()).object(name, f.validator(), r.size)
	}
	r.bg, r.cancel = context.WithCancel(context.Background())
	return r, nil
}

func (r *remote) Size() int64  { return r.size }
func (r *remote) Name() string { return r.name }
func (r *remote) Stats() Stats { return r.n.stats() }

func (r *remote) Close() error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	r.cache.clear()
	return nil
}

func (r *remote) ReadAt(p []byte, off int64) (int, error) {
	return r.ReadAtContext(context.Background(), p, off)
}

func (r *remote) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return 0, fmt.Errorf("%s: read after close", r.name)
	}
	if off < 0 {
		return 0, fmt.Errorf("%s: negative offset %d", r.name, off)
	}
	if off >= r.size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	want := int64(len(p))
	short := false
	if off+want > r.size {
		want, short = r.size-off, true
	}
	if r.cache.read(p[:want], off) {
		return r.finish(int(want), short)
	}
	// Claim what is neither cached nor on its way, reading ahead from the
	// last such gap; wait for the rest.
	reach := min(off+max(want, readAhead), r.size)
	pieces := r.cache.plan(off, off+want, reach, true, -1, true)
	var own []*flight
	for _, q := range pieces {
		if q.own {
			own = append(own, q.f)
		}
	}
	// A small read (a footer, a page index, a page header) is kept, as is
	// a read-ahead: readers come back to both. A large direct read is not
	// (it was wanted once, and would only push out what Prefetch placed),
	// though readers waiting for it still get its bytes.
	r.fetchFlights(ctx, own, func(f *flight) bool { return want <= readAhead || f.off+f.n > off+want }, nil)
	for _, q := range pieces {
		data := q.seg
		if q.f != nil {
			select {
			case <-q.f.done:
			case <-ctx.Done():
				return 0, locationError(r.name, ctx.Err())
			}
			if q.f.err != nil {
				if q.own {
					return 0, locationError(r.name, q.f.err)
				}
				// Another reader's request failed (its query may have
				// been cancelled): fetch these bytes here.
				d, err := r.fetchRetrying(ctx, q.off, q.end-q.off)
				if err != nil {
					return 0, locationError(r.name, err)
				}
				copy(p[q.off-off:], d)
				continue
			}
			data = q.f.data[q.off-q.f.off : q.end-q.f.off]
		}
		copy(p[q.off-off:], data)
	}
	return r.finish(int(want), short)
}

func (r *remote) finish(n int, short bool) (int, error) {
	if short {
		return n, io.EOF
	}
	return n, nil
}

// fetchRetrying returns the length bytes at off: from the on-disk cache
// where it holds them, else fetched (and then kept there).
func (r *remote) fetchRetrying(ctx context.Context, off, length int64) ([]byte, error) {
	if r.disk == nil {
		return r.fetchNet(ctx, off, length)
	}
	data := make([]byte, length)
	gaps := r.disk.read(data, off)
	cached := length
	for _, g := range gaps {
		d, err := r.fetchNet(ctx, g.Off, g.Len)
		if err != nil {
			return nil, err
		}
		copy(data[g.Off-off:], d)
		r.disk.write(g.Off, d)
		cached -= g.Len
	}
	r.n.cached.Add(cached)
	return data, nil
}

// fetchNet is one ranged request, retried.
func (r *remote) fetchNet(ctx context.Context, off, length int64) ([]byte, error) {
	var data []byte
	err := retry(ctx, &r.cfg.HTTP, &r.n, func(ctx context.Context) error {
		var err error
		data, err = r.f.fetch(ctx, off, length)
		return err
	})
	if err == nil {
		r.n.bytes.Add(int64(len(data)))
	}
	return data, err
}

// fetchFlights fetches the flights fs, in parallel when there are several
// (slots, when not nil, bounds the requests in flight), and lands every
// one of them, also those not started when ctx ends or a request fails
// (their waiters then fetch for themselves). keep tells which to cache.
// It returns the first error.
func (r *remote) fetchFlights(ctx context.Context, fs []*flight, keep func(*flight) bool, slots chan struct{}) error {
	if len(fs) == 1 && slots == nil {
		f := fs[0]
		data, err := r.fetchRetrying(ctx, f.off, f.n)
		r.cache.land(f, data, err, keep(f))
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i, f := range fs {
		if slots != nil {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			for _, g := range fs[i:] {
				r.cache.land(g, nil, ctx.Err(), false)
			}
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if slots != nil {
				defer func() { <-slots }()
			}
			data, err := r.fetchRetrying(ctx, f.off, f.n)
			r.cache.land(f, data, err, err == nil && keep(f))
			if err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

// Range is a byte range [Off, Off+Len) of an object.
type Range struct{ Off, Len int64 }

// Prefetcher is a Source that can fetch many ranges ahead of the reads
// that need them. Remote sources implement it; callers type-assert.
type Prefetcher interface {
	// Prefetch fetches the ranges, coalescing nearby ones and running up to
	// MaxInFlight requests at once, and keeps them for ReadAt. Bytes
	// already cached or being fetched are not requested again, and ranges
	// beyond the cache's bound are left to ReadAt.
	Prefetch(ctx context.Context, ranges []Range) error
	// PrefetchAhead starts fetching ranges a reader will want soon (the
	// next row groups of a scan) and returns at once; it claims at most
	// half the cache, so that it never pushes out what was fetched and
	// not read yet. A failed read ahead is left to the reader.
	PrefetchAhead(ranges []Range)
}

func (r *remote) Prefetch(ctx context.Context, ranges []Range) error {
	todo := r.claim(ranges, r.cache.capacity)
	if len(todo) == 0 {
		return nil
	}
	if err := r.fetchFlights(ctx, todo, func(*flight) bool { return true }, r.slots); err != nil {
		return locationError(r.name, err)
	}
	return nil
}

func (r *remote) PrefetchAhead(ranges []Range) {
	todo := r.claim(ranges, r.cache.room())
	if len(todo) == 0 {
		return
	}
	go r.fetchFlights(r.bg, todo, func(*flight) bool { return true }, r.slots)
}

// claim plans ranges as requests (coalesced and split) and claims, within
// budget bytes, the parts of them neither cached nor in flight.
func (r *remote) claim(ranges []Range, budget int64) []*flight {
	var todo []*flight
	for _, q := range planRequests(ranges, r.size, r.cfg.coalesceGap(), r.cfg.maxRequest()) {
		end := q.Off
		for _, p := range r.cache.plan(q.Off, q.Off+q.Len, 0, true, budget, false) {
			if p.own {
				todo = append(todo, p.f)
				budget -= p.f.n
			}
			end = p.end
		}
		if end < q.Off+q.Len {
			break // out of budget: what does not fit is left to ReadAt
		}
	}
	return todo
}

// planRequests turns wanted ranges into requests: clipped to the object,
// sorted, joined when the gap between them is at most gap (and at most
// the smaller of the two, or minGap), and split into pieces of at most
// maxReq bytes.
func planRequests(ranges []Range, size, gap, maxReq int64) []Range {
	var rs []Range
	for _, q := range ranges {
		if q.Off < 0 {
			q.Len += q.Off
			q.Off = 0
		}
		if q.Off+q.Len > size {
			q.Len = size - q.Off
		}
		if q.Len > 0 {
			rs = append(rs, q)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Off < rs[j].Off })
	var merged []Range
	for _, q := range rs {
		if n := len(merged); n > 0 {
			last := &merged[n-1]
			// A gap is worth fetching to save a request only up to the
			// size of the smaller range (or minGap): small ranges spread
			// over a file (one bloom filter per row group) are not joined
			// into one run of mostly other bytes.
			g := min(gap, max(minGap, min(last.Len, q.Len)))
			if q.Off <= last.Off+last.Len+g {
				last.Len = max(last.Len, q.Off+q.Len-last.Off)
				continue
			}
		}
		merged = append(merged, q)
	}
	var out []Range
	for _, q := range merged {
		for q.Len > maxReq {
			out = append(out, Range{q.Off, maxReq})
			q.Off, q.Len = q.Off+maxReq, q.Len-maxReq
		}
		out = append(out, q)
	}
	return out
}
