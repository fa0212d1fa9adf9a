package storage

import (
	"sort"
	"sync"
)

// rangeCache keeps fetched byte ranges of one object, bounded in bytes;
// the least recently used segment goes first. Segments may overlap (a
// read-ahead and a prefetch of the same bytes); a read is served when the
// segments together cover it.
type rangeCache struct {
	mu       sync.Mutex
	capacity int64
	used     int64
	tick     int64
	segs     []*segment // sorted by off
}

type segment struct {
	off  int64
	data []byte
	used int64 // tick of the last read
}

func newRangeCache(capacity int64) *rangeCache { return &rangeCache{capacity: capacity} }

// segmentAt returns a segment holding byte off, preferring the one that
// reaches furthest, or nil. Caller holds mu.
func (c *rangeCache) segmentAt(off int64) *segment {
	// Segments starting at or before off; with overlaps allowed, look back
	// over all of them.
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

// walk calls fn for consecutive segment pieces covering [off, off+n) and
// reports whether they cover it all (a range split over two requests is
// served from both). Caller holds mu.
func (c *rangeCache) walk(off, n int64, fn func(s *segment, from, to int64)) bool {
	for end := off + n; off < end; {
		s := c.segmentAt(off)
		if s == nil {
			return false
		}
		to := min(end, s.off+int64(len(s.data)))
		if fn != nil {
			fn(s, off, to)
		}
		off = to
	}
	return true
}

// nextStart returns the smallest segment start at or after off, or the
// largest int64 when none.
func (c *rangeCache) nextStart(off int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := sort.Search(len(c.segs), func(i int) bool { return c.segs[i].off >= off })
	if i < len(c.segs) {
		return c.segs[i].off
	}
	return 1<<63 - 1
}

func (c *rangeCache) covers(off, n int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.walk(off, n, nil)
}

// read copies [off, off+len(p)) into p if the cache holds all of it.
func (c *rangeCache) read(p []byte, off int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.walk(off, int64(len(p)), nil) {
		return false
	}
	c.tick++
	base := off
	c.walk(off, int64(len(p)), func(s *segment, from, to int64) {
		s.used = c.tick
		copy(p[from-base:to-base], s.data[from-s.off:])
	})
	return true
}

// put adds data at off, evicting the least recently used segments to stay
// within capacity. A segment larger than the capacity is not kept.
func (c *rangeCache) put(off int64, data []byte) {
	n := int64(len(data))
	if n == 0 || n > c.capacity {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.walk(off, n, nil) {
		return
	}
	for c.used+n > c.capacity && len(c.segs) > 0 {
		lru := 0
		for i, s := range c.segs {
			if s.used < c.segs[lru].used {
				lru = i
			}
		}
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

func (c *rangeCache) clear() {
	c.mu.Lock()
	c.segs, c.used = nil, 0
	c.mu.Unlock()
}
