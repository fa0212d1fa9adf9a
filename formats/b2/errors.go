package b2

import (
	"errors"
	"fmt"
)

// ErrCorrupt is wrapped by every error caused by malformed, truncated or
// hostile input. Test with errors.Is(err, b2.ErrCorrupt).
var ErrCorrupt = errors.New("corrupt data")

// ErrUnsupported is wrapped by errors for well-formed input that uses a
// feature this package does not implement (plugin codecs and filters,
// instrumented chunks, big-endian dtypes for typed access).
var ErrUnsupported = errors.New("unsupported feature")

// formatError is a decoder error: its text says only what is wrong (the
// house style `b2: file: chunk 12 at offset 40960: bad typesize 0`), while
// errors.Is still matches its kind (ErrCorrupt or ErrUnsupported).
type formatError struct {
	kind error
	msg  string
}

func (e *formatError) Error() string { return e.msg }
func (e *formatError) Unwrap() error { return e.kind }

// corruptf builds an error wrapping ErrCorrupt. Decoders say what is wrong;
// callers that know the file, chunk and offset add that context with
// chunkError / fileError.
func corruptf(format string, args ...any) error {
	return &formatError{ErrCorrupt, fmt.Sprintf(format, args...)}
}

func unsupportedf(format string, args ...any) error {
	return &formatError{ErrUnsupported, "unsupported " + fmt.Sprintf(format, args...)}
}

// chunkError adds "where" (file, chunk number, byte offset) to a decoder
// error, following the house style `b2: file: chunk 12 at offset 40960: what`.
func chunkError(name string, nchunk int, offset int64, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("b2: %s: chunk %d at offset %d: %w", name, nchunk, offset, err)
}

// fileError adds the file name to a frame-level error.
func fileError(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("b2: %s: %w", name, err)
}
