// Package storagetest starts object servers inside a test, on 127.0.0.1:
// an S3 server (github.com/johannesboyne/gofakes3, ranges and multipart
// uploads included) and an HTTP file server with range support, each
// counting the requests and bytes it serves and able to add latency or
// fail requests, so that tests and benchmarks measure what a remote
// reader costs without a network.
package storagetest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/b2sql/b2sql/storage"
)

// Test credentials: every request to an S3 server must be signed with
// KeyID, or it is refused as AWS refuses an unknown key.
const (
	KeyID     = "AKIDSTORAGETEST"
	SecretKey = "storagetest-secret-never-printed"
)

// Counters are what a server served, and the knobs of its failures.
type Counters struct {
	Requests atomic.Int64 // every request, HEAD and LIST included
	Gets     atomic.Int64 // GET requests with a Range header
	Bytes    atomic.Int64 // response body bytes
	// Fail5xx answers this many ranged GETs (not suffix ones) with a 5xx
	// before serving again.
	Fail5xx atomic.Int64
	// FailPuts answers this many PUT requests (objects, upload parts)
	// with a 5xx before serving again.
	FailPuts atomic.Int64
	latency  atomic.Int64 // nanoseconds added to every request
	trace    atomic.Pointer[func(Request)]
}

// Request is one request a server served, as SetTrace reports it.
type Request struct {
	Method, Range string
	Path          string        // the object's path (bucket/key)
	Start         time.Time     // when it arrived
	Took          time.Duration // until its reply was written, latency included
	Bytes         int64         // body bytes written
}

// SetTrace has fn called after every request (concurrently, from the
// server's goroutines); nil stops it. Benchmarks use it to see where a
// query's round trips go.
func (c *Counters) SetTrace(fn func(Request)) {
	if fn == nil {
		c.trace.Store(nil)
		return
	}
	c.trace.Store(&fn)
}

// SetLatency adds d to every request from now on.
func (c *Counters) SetLatency(d time.Duration) { c.latency.Store(int64(d)) }

// Reset zeroes the request and byte counts.
func (c *Counters) Reset() {
	c.Requests.Store(0)
	c.Gets.Store(0)
	c.Bytes.Store(0)
}

// wrap counts, delays and fails requests before next serves them.
func (c *Counters) wrap(next http.Handler, fail func(http.ResponseWriter)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.Requests.Add(1)
		start := time.Now()
		cw := &countingWriter{ResponseWriter: w, n: &c.Bytes}
		if fn := c.trace.Load(); fn != nil {
			defer func() {
				(*fn)(Request{Method: r.Method, Path: r.URL.Path, Range: r.Header.Get("Range"), Start: start, Took: time.Since(start), Bytes: cw.own})
			}()
		}
		if d := time.Duration(c.latency.Load()); d > 0 {
			time.Sleep(d)
		}
		if r.Method == http.MethodPut && c.FailPuts.Load() > 0 {
			c.FailPuts.Add(-1)
			fail(w)
			return
		}
		rg := r.Header.Get("Range")
		if r.Method == http.MethodGet && rg != "" {
			c.Gets.Add(1)
			if !strings.HasPrefix(rg, "bytes=-") && c.Fail5xx.Load() > 0 {
				c.Fail5xx.Add(-1)
				fail(w)
				return
			}
		}
		next.ServeHTTP(cw, r)
	})
}

type countingWriter struct {
	http.ResponseWriter
	n   *atomic.Int64
	own int64 // this request's bytes
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	c.own += int64(len(p))
	return c.ResponseWriter.Write(p)
}

// S3 is an in-process S3 server holding one bucket.
type S3 struct {
	Counters
	URL     string
	Bucket  string
	backend *s3mem.Backend
	close   func()
	// WholeOnLongSuffix answers a suffix range longer than the object
	// (bytes=-N, N >= size) with the whole object as a 206, as AWS S3
	// does, instead of gofakes3's InvalidRange (which readers meet on
	// other stores and answer with a second request). Benchmarks set it
	// so that opening a small object costs what it costs on S3.
	WholeOnLongSuffix atomic.Bool
}

// clampSuffix rewrites a GET's suffix range longer than its object into
// the object's whole range, when WholeOnLongSuffix is set. Only
// path-style requests (/bucket/key) are looked at: the servers here are
// addressed that way.
func (s *S3) clampSuffix(r *http.Request) {
	rg := r.Header.Get("Range")
	if !s.WholeOnLongSuffix.Load() || r.Method != http.MethodGet || !strings.HasPrefix(rg, "bytes=-") {
		return
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(rg, "bytes=-"), 10, 64)
	key, ok := strings.CutPrefix(r.URL.Path, "/"+s.Bucket+"/")
	if err != nil || !ok {
		return
	}
	obj, err := s.backend.HeadObject(s.Bucket, key)
	if err != nil || obj.Size == 0 || n < obj.Size {
		return
	}
	r.Header.Set("Range", fmt.Sprintf("bytes=0-%d", obj.Size-1))
}

// NewS3 starts an S3 server with an empty bucket; it stops with the test.
// It sets AWS_EC2_METADATA_DISABLED so that no SDK client in the test looks
// for instance credentials.
func NewS3(t testing.TB, bucket string) *S3 {
	t.Helper()
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	s, err := StartS3(bucket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// StartS3 is NewS3 outside a test (benchmark programs): the caller
// stops the server with Close.
func StartS3(bucket string) (*S3, error) {
	s := &S3{Bucket: bucket, backend: s3mem.New()}
	if err := s.backend.CreateBucket(bucket); err != nil {
		return nil, err
	}
	inner := gofakes3.New(s.backend).Server()
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Authorization"), "Credential="+KeyID+"/") {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>`))
			return
		}
		s.clampSuffix(r)
		inner.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(s.wrap(auth, func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`<Error><Code>InternalError</Code><Message>try again</Message></Error>`))
	}))
	s.URL, s.close = ts.URL, ts.Close
	return s, nil
}

// Close stops the server.
func (s *S3) Close() { s.close() }

// PutBytes stores an object.
func (s *S3) PutBytes(key string, data []byte) error {
	_, err := s.backend.PutObject(s.Bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil)
	return err
}

// Put stores an object.
func (s *S3) Put(t testing.TB, key string, data []byte) {
	t.Helper()
	if err := s.PutBytes(key, data); err != nil {
		t.Fatal(err)
	}
}

// PutFile stores the file at path as an object.
func (s *S3) PutFile(t testing.TB, key, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Put(t, key, data)
}

// Get returns an object's bytes, or ok false when there is none.
func (s *S3) Get(key string) ([]byte, bool) {
	obj, err := s.backend.GetObject(s.Bucket, key, nil)
	if err != nil {
		return nil, false
	}
	defer obj.Contents.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(obj.Contents); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// Keys lists the bucket's object keys under prefix.
func (s *S3) Keys(prefix string) []string {
	res, err := s.backend.ListBucket(s.Bucket, &gofakes3.Prefix{Prefix: prefix, HasPrefix: true}, gofakes3.ListBucketPage{})
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range res.Contents {
		out = append(out, c.Key)
	}
	return out
}

// Secret is a secret scoped to the server's bucket with its credentials,
// endpoint and path-style addressing.
func (s *S3) Secret() storage.Secret {
	return storage.Secret{
		Name: "storagetest", Type: "s3", Scope: []string{"s3://" + s.Bucket + "/"},
		KeyID: KeyID, Secret: SecretKey, Region: "us-east-1", Endpoint: s.URL, URLStyle: "path",
	}
}

// CreateSecret is the SQL that creates Secret.
func (s *S3) CreateSecret() string {
	return "CREATE SECRET storagetest (TYPE s3, KEY_ID '" + KeyID + "', SECRET '" + SecretKey +
		"', REGION 'us-east-1', ENDPOINT '" + s.URL + "', URL_STYLE 'path', SCOPE 's3://" + s.Bucket + "/')"
}

// Config is a storage configuration holding Secret, with fast retries.
func (s *S3) Config() *storage.Config {
	return &storage.Config{Secrets: []storage.Secret{s.Secret()}, HTTP: FastRetries()}
}

// FastRetries are HTTP settings whose backoff does not slow a test down.
func FastRetries() storage.HTTPSettings {
	return storage.HTTPSettings{Retries: 3, RetryWait: time.Millisecond, RetryBackoff: 2}
}

// HTTP is an HTTP server of the files under a directory, with Range
// support and Last-Modified validators (http.FileServer).
type HTTP struct {
	Counters
	URL string
}

// NewHTTP serves dir; it stops with the test.
func NewHTTP(t testing.TB, dir string) *HTTP {
	t.Helper()
	h := &HTTP{}
	fs := http.FileServer(http.Dir(dir))
	ts := httptest.NewServer(h.wrap(fs, func(w http.ResponseWriter) {
		http.Error(w, "try again", http.StatusServiceUnavailable)
	}))
	t.Cleanup(ts.Close)
	h.URL = ts.URL
	return h
}

// Location is the URL of a file under the served directory.
func (h *HTTP) Location(rel string) string { return h.URL + "/" + path.Clean(rel) }
