package storage

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// objectServer serves named byte slices over HTTP with range support
// (http.ServeContent), strong ETags, and knobs for the failure tests:
// injected 5xx answers, added latency, and replacing an object.
type objectServer struct {
	mu      sync.Mutex
	objects map[string][]byte
	etags   map[string]string
	version int

	requests  atomic.Int64
	bytesSent atomic.Int64
	fail5xx   atomic.Int64 // answer this many range requests with 503 first
	inFlight  atomic.Int64
	peak      atomic.Int64 // most requests served at once
	latency   time.Duration
	noRanges  bool
}

func newObjectServer(t *testing.T) (*objectServer, *httptest.Server) {
	s := &objectServer{objects: map[string][]byte{}, etags: map[string]string{}}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func (s *objectServer) put(name string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	s.objects[name] = data
	s.etags[name] = `"v` + strings.Repeat("x", s.version) + `"`
}

func (s *objectServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	if s.latency > 0 {
		time.Sleep(s.latency)
	}
	if r.Header.Get("Range") != "" && s.fail5xx.Load() > 0 && !strings.HasPrefix(r.Header.Get("Range"), "bytes=-") {
		s.fail5xx.Add(-1)
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	s.mu.Lock()
	data, ok := s.objects[strings.TrimPrefix(r.URL.Path, "/")]
	etag := s.etags[strings.TrimPrefix(r.URL.Path, "/")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.noRanges {
		r.Header.Del("Range")
	}
	w.Header().Set("ETag", etag)
	cw := &countingWriter{ResponseWriter: w, n: &s.bytesSent}
	http.ServeContent(cw, r, "", time.Unix(1700000000, 0), bytes.NewReader(data))
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return c.ResponseWriter.Write(p)
}

// pattern returns n bytes whose value at offset i is a function of i, so
// any misplaced byte shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}
