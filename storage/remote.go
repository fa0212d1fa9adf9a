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
}

// remote is a Source over an objectFetcher: the tail from open, a bounded
// range cache, read-ahead for small reads, Prefetch with coalescing, and
// retries.
type remote struct {
	name  string
	size  int64
	f     objectFetcher
	cfg   *Config
	n     counters
	cache *rangeCache

	mu     sync.Mutex
	closed bool
}

// readAhead is the smallest request a cache miss makes: format readers
// read a page header, then its page, then the next header; one request
// should serve several of those.
const readAhead = 64 << 10

// newRemote opens a remote Source; on error the Source is a nil interface
// (never a typed nil a caller's "!= nil" would take for an open source).
func newRemote(ctx context.Context, name string, f objectFetcher, cfg *Config) (Source, error) {
	r := &remote{name: name, f: f, cfg: cfg, cache: newRangeCache(cfg.cacheBytes())}
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
	return r, nil
}

func (r *remote) Size() int64  { return r.size }
func (r *remote) Name() string { return r.name }
func (r *remote) Stats() Stats { return r.n.stats() }

func (r *remote) Close() error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
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
	length := max(want, readAhead)
	if off+length > r.size {
		length = r.size - off
	}
	if next := r.cache.nextStart(off + want); next < off+length {
		// The read-ahead stops where cached bytes begin.
		length = next - off
	}
	data, err := r.fetchRetrying(ctx, off, length)
	if err != nil {
		return 0, locationError(r.name, err)
	}
	copy(p, data[:want])
	if length > want {
		// Keep the read-ahead; a large direct read is not cached (it was
		// wanted once, and would only push out what Prefetch placed).
		r.cache.put(off, data)
	}
	return r.finish(int(want), short)
}

func (r *remote) finish(n int, short bool) (int, error) {
	if short {
		return n, io.EOF
	}
	return n, nil
}

func (r *remote) fetchRetrying(ctx context.Context, off, length int64) ([]byte, error) {
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

// Range is a byte range [Off, Off+Len) of an object.
type Range struct{ Off, Len int64 }

// Prefetcher is a Source that can fetch many ranges ahead of the reads
// that need them. Remote sources implement it; callers type-assert.
type Prefetcher interface {
	// Prefetch fetches the ranges not already cached, coalescing nearby
	// ones and running up to MaxInFlight requests at once, and keeps them
	// for ReadAt. Ranges beyond the cache's bound are left to ReadAt.
	Prefetch(ctx context.Context, ranges []Range) error
}

func (r *remote) Prefetch(ctx context.Context, ranges []Range) error {
	plan := planRequests(ranges, r.size, r.cfg.coalesceGap(), r.cfg.maxRequest())
	// Drop what the cache holds, and stop at its capacity: prefetching more
	// than fits would evict the first ranges before they are read.
	var todo []Range
	budget := r.cache.capacity
	for _, q := range plan {
		if r.cache.covers(q.Off, q.Len) {
			continue
		}
		if budget < q.Len {
			break
		}
		budget -= q.Len
		todo = append(todo, q)
	}
	if len(todo) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, r.cfg.maxInFlight())
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for _, q := range todo {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(q Range) {
			defer wg.Done()
			defer func() { <-sem }()
			data, err := r.fetchRetrying(ctx, q.Off, q.Len)
			if err != nil {
				once.Do(func() { first = locationError(r.name, err); cancel() })
				return
			}
			r.cache.put(q.Off, data)
		}(q)
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

// planRequests turns wanted ranges into requests: clipped to the object,
// sorted, joined when the gap between them is at most gap, and split into
// pieces of at most maxReq bytes.
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
			if q.Off <= last.Off+last.Len+gap {
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
