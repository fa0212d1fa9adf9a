package parquet

import (
	"errors"
	"fmt"
)

// ErrCorrupt is wrapped by every error caused by a malformed or truncated
// file. Test with errors.Is(err, parquet.ErrCorrupt).
var ErrCorrupt = errors.New("corrupt data")

// ErrSchemaMismatch is wrapped when the files of a glob disagree on schema.
var ErrSchemaMismatch = errors.New("schema mismatch")

// ErrUnsupported is wrapped for well-formed files using a feature this
// package does not read (encryption, for example).
var ErrUnsupported = errors.New("unsupported feature")

// fileError adds "where" to an error following the house style
// `parquet: file: row group 3: column "x": what`.
func fileError(path string, err error) error {
	return fmt.Errorf("parquet: %s: %w", path, err)
}

// corruptf builds an error wrapping ErrCorrupt.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// asCorrupt wraps err in ErrCorrupt unless it already wraps a sentinel of
// this package or is a context error. arrow-go reports malformed input with
// plain errors, so everything it returns while decoding is treated as
// corruption.
func asCorrupt(err error) error {
	if err == nil || errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported) ||
		errors.Is(err, ErrSchemaMismatch) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

// recoverCorrupt converts a panic raised by arrow-go on hostile input into
// an ErrCorrupt error stored in *err. Use as `defer recoverCorrupt(&err)`.
// A bad file is an input problem, not a broken invariant of ours, so it
// must not take the process down.
func recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: decoder panic: %v", ErrCorrupt, r)
	}
}
