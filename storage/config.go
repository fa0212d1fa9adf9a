package storage

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config is what a session knows about reaching remote data: secrets,
// DuckDB's s3_* and http_* settings, and the embedding program's limits.
// The zero value allows remote access with the SDK's default credentials.
// A Config must not be changed while sources opened with it are in use.
type Config struct {
	Secrets []Secret
	S3      S3Settings
	HTTP    HTTPSettings

	// DisableRemote refuses every http(s)/s3 location (ErrRemoteDisabled).
	DisableRemote bool
	// AllowHosts, when not empty, lists the only hosts remote locations may
	// name: "example.com" exactly, "*.example.com" any subdomain. For s3://
	// the host checked is the endpoint's (the AWS one when none is set).
	AllowHosts []string

	// TailPrefetch is how many bytes Open fetches from the end of a remote
	// object with its first request (default 256 KiB): footers, zip
	// directories and blosc2 frame trailers live there. A Parquet file of
	// a hundred row groups has a footer of about 100 KiB; a second round
	// trip for its start costs more than the bytes. Formats whose readers
	// need more of the end at once ask for more (parquet.TailBytes).
	TailPrefetch int64
	// CacheBytes bounds the range cache of one remote source (default 128
	// MiB; reads ahead claim at most half of it). A scan reads ahead 64
	// MiB (parquet's readAheadBytes): at 20 ms a request, two threads
	// decode TPC-H's lineitem columns faster than 32 MiB a round trip
	// arrive, and the scan waited for its window to slide. The cache is
	// the source's, so a registered remote table keeps up to this many of
	// its bytes between queries, until it is closed.
	CacheBytes int64
	// CoalesceGap joins two wanted ranges into one request when at most this
	// many bytes separate them (default 1 MiB); MaxRequest splits a longer
	// range (default 8 MiB); MaxInFlight bounds the parallel requests of
	// one source (default 256: a filtered scan's plan reads a bloom filter
	// or page index per row group, small requests whose cost is the round
	// trip, and a query warms all its scans at once: at 16, TPC-H q06 over
	// S3 at 20 ms a request took 14 round trips over twice its local time,
	// at 48 about 7; a remote CTable top-k reads a 512-byte chunk header
	// per block it visits, in each column: ORDER BY price DESC, id LIMIT
	// 10 OFFSET 100 on the 10M-row events .b2z asks for about 300 at once,
	// and at 48 they went out in seven rounds; a scan of two columns over
	// the 82 row groups of the 10M-row events Parquet file asks for 164
	// chunks at once, and at 128 the last 36 waited a round). The bytes in flight are
	// bounded apart from this, by the range cache's read-ahead share.
	CoalesceGap int64
	MaxRequest  int64
	MaxInFlight int
	// DiskCacheDir, when set, keeps fetched ranges in files under this
	// directory across queries and processes (diskcache.go), at most
	// DiskCacheBytes of them (default 1 GiB).
	DiskCacheDir   string
	DiskCacheBytes int64
	// PartSize is the part size of multipart uploads (Upload; default 16
	// MiB, at least 5 MiB as S3 requires).
	PartSize int64
}

// S3Settings are DuckDB's s3_* settings: the fallback when no secret's
// scope covers a location.
type S3Settings struct {
	Region          string // s3_region
	Endpoint        string // s3_endpoint: host[:port] or a URL
	URLStyle        string // s3_url_style: "vhost" (default) or "path"
	UseSSL          *bool  // s3_use_ssl (default true)
	AccessKeyID     string // s3_access_key_id
	SecretAccessKey string // s3_secret_access_key
	SessionToken    string // s3_session_token
}

// HTTPSettings are DuckDB's http_* settings.
type HTTPSettings struct {
	Timeout      time.Duration // http_timeout per request (default 30 s)
	Retries      int           // http_retries (0: the default, 3; < 0: none)
	RetryWait    time.Duration // http_retry_wait_ms, the first backoff (default 100 ms)
	RetryBackoff float64       // http_retry_backoff, the backoff factor (default 4)
	// Client, when set, replaces the default client (tests point it at
	// httptest servers; embedders add proxies or TLS roots).
	Client *http.Client
}

func (c *Config) tailPrefetch() int64   { return orDefault(c.TailPrefetch, 256<<10) }
func (c *Config) cacheBytes() int64     { return orDefault(c.CacheBytes, 128<<20) }
func (c *Config) coalesceGap() int64    { return orDefault(c.CoalesceGap, 1<<20) }
func (c *Config) maxRequest() int64     { return orDefault(c.MaxRequest, 8<<20) }
func (c *Config) diskCacheBytes() int64 { return orDefault(c.DiskCacheBytes, DefaultDiskCacheBytes) }
func (c *Config) maxInFlight() int      { return int(orDefault(int64(c.MaxInFlight), 256)) }

func (h *HTTPSettings) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return 30 * time.Second
}

func (h *HTTPSettings) retries() int {
	switch {
	case h.Retries > 0:
		return h.Retries
	case h.Retries < 0:
		return 0
	}
	return 3
}

func (h *HTTPSettings) retryWait() time.Duration {
	if h.RetryWait > 0 {
		return h.RetryWait
	}
	return 100 * time.Millisecond
}

func (h *HTTPSettings) backoff() float64 {
	if h.RetryBackoff >= 1 {
		return h.RetryBackoff
	}
	return 4
}

func orDefault(v, d int64) int64 {
	if v > 0 {
		return v
	}
	return d
}

// allowed applies DisableRemote and AllowHosts to a remote location.
func (c *Config) allowed(location string) error {
	if c.DisableRemote {
		return fmt.Errorf("%s: %w", location, ErrRemoteDisabled)
	}
	if len(c.AllowHosts) == 0 {
		return nil
	}
	host := ""
	if KindOf(location) == HTTP {
		u, err := url.Parse(location)
		if err != nil {
			return fmt.Errorf("%s: %w", location, err)
		}
		host = u.Hostname()
	} else {
		host = c.s3Host(location)
	}
	for _, h := range c.AllowHosts {
		if hostMatches(h, host) {
			return nil
		}
	}
	return fmt.Errorf("%s: host %q is not allowed: %w", location, host, ErrRemoteDisabled)
}

// hostMatches reports whether host is pattern, or a subdomain of it when
// pattern starts with "*.".
func hostMatches(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(host)
	if rest, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+rest)
	}
	return pattern == host
}

// The effective values of the settings, defaults applied (what
// current_setting shows).
func (h *HTTPSettings) EffectiveTimeout() time.Duration   { return h.timeout() }
func (h *HTTPSettings) EffectiveRetries() int             { return h.retries() }
func (h *HTTPSettings) EffectiveRetryWait() time.Duration { return h.retryWait() }
func (h *HTTPSettings) EffectiveBackoff() float64         { return h.backoff() }

// WithTail returns c (the defaults when nil) with TailPrefetch raised to at
// least n, for a reader that knows how much of an object's end it reads
// first; c itself is not changed.
func (c *Config) WithTail(n int64) *Config {
	var out Config
	if c != nil {
		out = *c
	}
	if out.TailPrefetch < n {
		out.TailPrefetch = n
	}
	return &out
}
