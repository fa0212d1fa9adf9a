package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// httpObject fetches ranges of one URL. The validators (ETag,
// Last-Modified) are those of the open request; every later reply must
// carry the same ones.
type httpObject struct {
	url    string
	client *http.Client
	bearer string

	mu           sync.Mutex
	etag         string
	lastModified string
	whole        []byte // the body, when the server ignored Range
}

func openHTTP(ctx context.Context, location string, cfg *Config) (Source, error) {
	o := &httpObject{url: location, client: cfg.HTTP.Client}
	if o.client == nil {
		o.client = sharedHTTPClient()
	}
	if s := cfg.SecretFor(location, "http"); s != nil && s.BearerToken != "" {
		o.bearer = s.BearerToken
		o.client = scopedClient(o.client, cfg, s)
	}
	return newRemote(ctx, location, o, cfg)
}

func (o *httpObject) validator() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.etag != "" && !strings.HasPrefix(o.etag, "W/"):
		return "etag:" + o.etag
	case o.lastModified != "":
		return "modified:" + o.lastModified
	}
	return ""
}

func (o *httpObject) request(ctx context.Context, rangeHeader string, conditional bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Range", rangeHeader)
	// Ranges must come back as sent: a transparently gunzipped body would
	// not be the object's bytes.
	req.Header.Set("Accept-Encoding", "identity")
	if o.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+o.bearer)
	}
	if conditional {
		o.mu.Lock()
		etag, lm := o.etag, o.lastModified
		o.mu.Unlock()
		// If-Match compares strongly: a weak ETag would always fail it.
		if etag != "" && !strings.HasPrefix(etag, "W/") {
			req.Header.Set("If-Match", etag)
		} else if lm != "" {
			req.Header.Set("If-Unmodified-Since", lm)
		}
	}
	resp, err := o.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		var ne net.Error
		if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, retryable{err}
		}
		return nil, retryable{err} // connection refused/reset: worth another try
	}
	return resp, nil
}

// statusError turns a failed reply into an error, marking the retryable.
func statusError(resp *http.Response) error {
	msg := fmt.Sprintf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%s: %w", msg, fs.ErrNotExist)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%s: %w", msg, ErrAccessDenied)
	case resp.StatusCode == http.StatusPreconditionFailed:
		return ErrChanged
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return retryable{errors.New(msg)}
	}
	return errors.New(msg)
}

func (o *httpObject) openTail(ctx context.Context, n int64) ([]byte, int64, error) {
	resp, err := o.request(ctx, "bytes=-"+strconv.FormatInt(n, 10), false)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	o.mu.Lock()
	o.etag, o.lastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	o.mu.Unlock()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, _, total, err := parseContentRange(resp.Header.Get("Content-Range"))
		if err != nil {
			return nil, 0, err
		}
		body, err := readBody(resp, total-start)
		if err != nil {
			return nil, 0, err
		}
		return body, total, nil
	case http.StatusOK:
		// No range support: the whole object came back. Keep it; every
		// later read is served from it.
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, 0, retryable{err}
		}
		o.mu.Lock()
		o.whole = body
		o.mu.Unlock()
		return body, int64(len(body)), nil
	case http.StatusRequestedRangeNotSatisfiable:
		// An empty object has no suffix to send.
		if _, _, total, err := parseContentRange(resp.Header.Get("Content-Range")); err == nil && total == 0 {
			return nil, 0, nil
		}
	}
	return nil, 0, statusError(resp)
}

func (o *httpObject) fetch(ctx context.Context, off, length int64) ([]byte, error) {
	o.mu.Lock()
	whole := o.whole
	o.mu.Unlock()
	if whole != nil {
		return whole[off : off+length], nil
	}
	resp, err := o.request(ctx, fmt.Sprintf("bytes=%d-%d", off, off+length-1), true)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		if resp.StatusCode == http.StatusOK {
			return nil, fmt.Errorf("server stopped honouring range requests")
		}
		return nil, statusError(resp)
	}
	if err := o.checkValidators(resp); err != nil {
		return nil, err
	}
	start, end, _, err := parseContentRange(resp.Header.Get("Content-Range"))
	if err != nil {
		return nil, err
	}
	if start != off || end != off+length-1 {
		return nil, fmt.Errorf("asked for bytes %d-%d, got %d-%d", off, off+length-1, start, end)
	}
	return readBody(resp, length)
}

// checkValidators compares a reply's ETag and Last-Modified with those of
// the open request (servers may ignore If-Match; this does not depend on it).
func (o *httpObject) checkValidators(resp *http.Response) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e := resp.Header.Get("ETag"); o.etag != "" && e != "" && e != o.etag {
		return ErrChanged
	}
	if lm := resp.Header.Get("Last-Modified"); o.lastModified != "" && lm != "" && lm != o.lastModified {
		return ErrChanged
	}
	return nil
}

// readBody reads exactly n bytes of body; a shorter body is retryable (the
// connection dropped), a longer one an error.
func readBody(resp *http.Response, n int64) ([]byte, error) {
	if n < 0 {
		return nil, fmt.Errorf("bad content range")
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return nil, retryable{fmt.Errorf("short body: %w", err)}
	}
	return buf, nil
}

// parseContentRange reads "bytes START-END/TOTAL" (or "bytes */TOTAL").
func parseContentRange(v string) (start, end, total int64, err error) {
	bad := fmt.Errorf("bad Content-Range %q", v)
	rest, ok := strings.CutPrefix(v, "bytes ")
	if !ok {
		return 0, 0, 0, bad
	}
	rng, tot, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, 0, bad
	}
	if total, err = strconv.ParseInt(tot, 10, 64); err != nil || total < 0 {
		return 0, 0, 0, bad
	}
	if rng == "*" || total == 0 {
		// Nothing to send (an empty object: some servers write "0--1").
		return 0, -1, total, nil
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return 0, 0, 0, bad
	}
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || end < start || end >= total {
		return 0, 0, 0, bad
	}
	return start, end, total, nil
}

// scopedClient is base with a redirect policy that keeps the bearer token
// of secret s inside the secret's scope: a redirect to a location another
// secret (or none) covers goes without it. net/http drops Authorization
// only when the host name changes, not on another port or scheme.
func scopedClient(base *http.Client, cfg *Config, s *Secret) *http.Client {
	c := *base
	prev := base.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if cfg.SecretFor(req.URL.String(), "http") != s {
			req.Header.Del("Authorization")
		}
		if prev != nil {
			return prev(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}
