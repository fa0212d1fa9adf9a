package storage

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
)

// Source is a read-only, random-access view of one file or object. ReadAt
// follows io.ReaderAt (a short read is an error; io.EOF only at the end) and
// is safe for concurrent use. Close releases the source; reads after it fail.
type Source interface {
	io.ReaderAt
	// ReadAtContext is ReadAt bounded by ctx: a cancelled query stops
	// waiting for the network at once.
	ReadAtContext(ctx context.Context, p []byte, off int64) (int, error)
	// Size is the object's length in bytes, fixed at Open.
	Size() int64
	// Name is the location as the user wrote it (no credentials in it).
	Name() string
	// Stats counts the requests made and bytes fetched so far.
	Stats() Stats
	Close() error
}

// Stats counts the I/O of one Source. Local files count their reads and the
// bytes read, so EXPLAIN ANALYZE reads the same for every kind.
type Stats struct {
	Requests int64 // reads issued to the file or server (retries included)
	Bytes    int64 // bytes received
	Retries  int64 // requests repeated after a retryable failure
	Cached   int64 // bytes read from the on-disk cache instead of the server
}

// counters is the concurrency-safe accumulator behind Stats.
type counters struct {
	requests, bytes, retries, cached atomic.Int64
}

func (c *counters) stats() Stats {
	return Stats{Requests: c.requests.Load(), Bytes: c.bytes.Load(), Retries: c.retries.Load(), Cached: c.cached.Load()}
}

// Errors a caller can test with errors.Is.
var (
	// ErrChanged: the object was replaced or modified after it was opened.
	ErrChanged = errors.New("file changed while it was being read")
	// ErrRemoteDisabled: the Config forbids remote locations (WithRoot,
	// --read-only) or the host is not on its allow-list.
	ErrRemoteDisabled = errors.New("remote access is disabled")
	// ErrAccessDenied: the server refused the credentials (or their absence).
	ErrAccessDenied = errors.New("access denied")
)

// Kind is the family of a location.
type Kind int

const (
	Local Kind = iota
	HTTP
	S3
)

// KindOf tells which Source implementation serves location.
func KindOf(location string) Kind {
	scheme, _, ok := strings.Cut(location, "://")
	if !ok {
		return Local
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
		return HTTP
	case "s3", "s3a", "s3n", "gs", "gcs", "r2":
		return S3
	}
	return Local
}

// IsRemote reports whether location names an object on a server.
func IsRemote(location string) bool { return KindOf(location) != Local }
