package storage

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// retryable marks a failure worth repeating: a 5xx or 429 answer, a
// timeout, a dropped connection, a short body.
type retryable struct{ err error }

func (r retryable) Error() string { return r.err.Error() }
func (r retryable) Unwrap() error { return r.err }

func isRetryable(err error) bool {
	var r retryable
	return errors.As(err, &r)
}

// retry runs req up to 1+Retries times while it fails with a retryable
// error, sleeping RetryWait, then ×RetryBackoff each time (with jitter), and
// each attempt bounded by the request timeout. Every attempt is counted.
func retry(ctx context.Context, h *HTTPSettings, n *counters, req func(context.Context) error) error {
	wait := h.retryWait()
	for attempt := 0; ; attempt++ {
		n.requests.Add(1)
		actx, cancel := context.WithTimeout(ctx, h.timeout())
		err := req(actx)
		timedOut := actx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if timedOut {
			err = retryable{err}
		}
		if !isRetryable(err) || attempt >= h.retries() {
			return unwrapRetryable(err)
		}
		n.retries.Add(1)
		jitter := time.Duration(rand.Int64N(int64(wait)/4 + 1))
		select {
		case <-time.After(wait + jitter):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait = time.Duration(float64(wait) * h.backoff())
	}
}

func unwrapRetryable(err error) error {
	var r retryable
	if errors.As(err, &r) {
		return r.err
	}
	return err
}
