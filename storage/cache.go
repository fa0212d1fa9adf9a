package storage

import (
	"sort"
	"sync"
)

// rangeCache keeps the fetched byte ranges of one object, bounded in bytes
// (the least recently used segment goes first), and the ranges being
// fetched right now (flights). Every fetch of a remote source first claims
// its bytes here: bytes held by a segment are copied, bytes in flight are
// waited for, and only the rest is claimed as new flights and requested,
// so that no byte is requested twice while it is cached or on its way
// (two scan workers, a read-ahead and a prefetch of the same pages).
type rangeCache struct {
	mu       sync.Mutex
	capacity int64
	used     int64
	tick     int64
	segs     []*segment // sorted by off
	flights  []*flight  // sorted by off; never overlap each other
	inflight int64      // bytes claimed by flights
}

type segment struct {
	off  int64
	data []byte
	used int64 // tick of the last read
	// read: a reader has read some of it. A segment a read-ahead fetched
	// and no one read yet is evicted only when no read one is left: a scan
	// streaming a 150 MB string column through the cache pushed out the
	// offsets column's segment fetched ahead of it, and its reads then went
	// to the server one block at a time.
	read bool
}

// flight is a range being fetched by one caller. data is set (or err)
// before done is closed; waiters read data after done without the lock.
type flight struct {
	off, n int64
	done   chan struct{}
	data   []byte
	err    error
}

// piece is part of a planned read: bytes a segment holds (seg), bytes
// another caller is fetching (f, own false), or bytes this caller claimed
// and must fetch (f, own true).
type piece struct {
	off, end int64
	seg      []byte
	f        *flight
	own      bool
}

func newRangeCache(capacity int64) *rangeCache { return &rangeCache{capacity: capacity} }

// segmentAt returns a segment holding byte off, preferring the one that
// reaches furthest, or nil. Caller holds mu.
func (c *rangeCache) segmentAt(off int64) *segment {
	// Segments starting at or before off; overlaps (a tail put twice) are
	// allowed, so look back over all of them.
	i := sort.Search(len(c.segs), func(i int) bool { return c.segs[i].off > off })
	var best *segment
	for j := i - 1; j >= 0; j-- {
		s := c.segs[j]
		if end := s.off + int64(len(s.data)); end > off && (best == nil || end > best.off+int64(len(best.data))) {
			best = s
		}
	}
	return best
}

// flightAt returns the flight holding byte off, or nil. Caller holds mu.
func (c *rangeCache) flightAt(off int64) *flight {
	i := sort.Search(len(c.flights), func(i int) bool { return c.flights[i].off > off })
	if i > 0 {
		if f := c.flights[i-1]; f.off+f.n > off {
			return f
		}
	}
	return nil
}

// nextCovered returns the smallest start of a segment or flight above off,
// or limit when none is below it. Caller holds mu.
func (c *rangeCache) nextCovered(off, limit int64) int64 {
	i := sort.Search(len(c.segs), func(i int) bool { return c.segs[i].off > off })
	if i < len(c.segs) && c.segs[i].off < limit {
		limit = c.segs[i].off
	}
	j := sort.Search(len(c.flights), func(i int) bool { return c.flights[i].off > off })
	if j < len(c.flights) && c.flights[j].off < limit {
		limit = c.flights[j].off
	}
	return limit
}

// plan splits [off, end) into pieces. With claim, the bytes neither cached
// nor in flight become new flights the caller owns (and must finish); the
// last of them may reach on to reach (a read-ahead), stopping where covered
// bytes begin. budget, when >= 0, bounds the bytes claimed: plan stops
// before a gap that does not fit and returns the pieces so far.
func (c *rangeCache) plan(off, end, reach int64, claim bool, budget int64, reading bool) []piece {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []piece
	c.tick++
	for pos := off; pos < end; {
		if s := c.segmentAt(pos); s != nil {
			to := min(end, s.off+int64(len(s.data)))
			s.used = c.tick
			s.read = s.read || reading
			out = append(out, piece{off: pos, end: to, seg: s.data[pos-s.off : to-s.off]})
			pos = to
			continue
		}
		if f := c.flightAt(pos); f != nil {
			to := min(end, f.off+f.n)
			out = append(out, piece{off: pos, end: to, f: f})
			pos = to
			continue
		}
		to := c.nextCovered(pos, end)
		if !claim {
			out = append(out, piece{off: pos, end: to})
			pos = to
			continue
		}
		stop := to
		if to == end && reach > end {
			stop = c.nextCovered(pos, reach)
		}
		if budget >= 0 {
			if stop-pos > budget {
				return out
			}
			budget -= stop - pos
		}
		f := &flight{off: pos, n: stop - pos, done: make(chan struct{})}
		c.addFlight(f)
		out = append(out, piece{off: pos, end: to, f: f, own: true})
		pos = to
	}
	return out
}

// addFlight inserts f in order. Caller holds mu.
func (c *rangeCache) addFlight(f *flight) {
	i := sort.Search(len(c.flights), func(i int) bool { return c.flights[i].off > f.off })
	c.flights = append(c.flights, nil)
	copy(c.flights[i+1:], c.flights[i:])
	c.flights[i] = f
	c.inflight += f.n
}

// land ends flight f with its data (or err): keep puts the data in the
// cache (within its bound) before waiters are released.
func (c *rangeCache) land(f *flight, data []byte, err error, keep bool) {
	c.mu.Lock()
	for i, g := range c.flights {
		if g == f {
			c.flights = append(c.flights[:i], c.flights[i+1:]...)
			c.inflight -= f.n
			break
		}
	}
	if err == nil && keep {
		c.putLocked(f.off, data)
	}
	c.mu.Unlock()
	f.data, f.err = data, err
	close(f.done)
}

// room is how many more bytes may be claimed by reads ahead of need
// without pushing out what was fetched and not read yet: half the cache,
// less what is in flight.
func (c *rangeCache) room() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(0, c.capacity/2-c.inflight)
}

func (c *rangeCache) covers(off, n int64) bool {
	for _, p := range c.plan(off, off+n, 0, false, -1, false) {
		if p.seg == nil {
			return false
		}
	}
	return true
}

// read copies [off, off+len(p)) into p if the cache holds all of it.
func (c *rangeCache) read(p []byte, off int64) bool {
	ps := c.plan(off, off+int64(len(p)), 0, false, -1, true)
	for _, q := range ps {
		if q.seg == nil {
			return false
		}
	}
	for _, q := range ps {
		copy(p[q.off-off:], q.seg)
	}
	return true
}

// put adds data at off, evicting the least recently used segments to stay
// within capacity (read ones first: evictable). A segment larger than the capacity is not kept.
func (c *rangeCache) put(off int64, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(off, data)
}

func (c *rangeCache) putLocked(off int64, data []byte) {
	n := int64(len(data))
	if n == 0 || n > c.capacity {
		return
	}
	covered := true
	for pos := off; pos < off+n; {
		s := c.segmentAt(pos)
		if s == nil {
			covered = false
			break
		}
		pos = s.off + int64(len(s.data))
	}
	if covered {
		return
	}
	for c.used+n > c.capacity && len(c.segs) > 0 {
		lru := c.evictable()
		c.used -= int64(len(c.segs[lru].data))
		c.segs = append(c.segs[:lru], c.segs[lru+1:]...)
	}
	c.tick++
	s := &segment{off: off, data: data, used: c.tick}
	i := sort.Search(len(c.segs), func(i int) bool { return c.segs[i].off > off })
	c.segs = append(c.segs, nil)
	copy(c.segs[i+1:], c.segs[i:])
	c.segs[i] = s
	c.used += n
}

// evictable returns the index of the least recently used segment that was
// read, or of the least recently used one when none was. Caller holds mu.
func (c *rangeCache) evictable() int {
	lru := -1
	for _, readOnly := range []bool{true, false} {
		for i, s := range c.segs {
			if (s.read || !readOnly) && (lru < 0 || s.used < c.segs[lru].used) {
				lru = i
			}
		}
		if lru >= 0 {
			return lru
		}
	}
	return 0
}

func (c *rangeCache) clear() {
	c.mu.Lock()
	c.segs, c.used = nil, 0
	c.mu.Unlock()
}
