package ctable

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/b2sql/b2sql/formats/b2"
)

// ErrUnsupported is wrapped by errors for well-formed tables that use a
// feature this package does not read (a column kind it does not know, a
// big-endian dtype, a compressed zip member).
var ErrUnsupported = b2.ErrUnsupported

// corruptf builds an error wrapping b2.ErrCorrupt, so that callers test one
// sentinel whether the damage was found by package b2 or by this one.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", b2.ErrCorrupt, fmt.Sprintf(format, args...))
}

// unsupportedf builds an error wrapping ErrUnsupported.
func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// tableError adds "where" following the house style
// `ctable: T.b2d: _cols/x.b2nd: what`. member may be empty.
func tableError(table, member string, err error) error {
	if member == "" {
		return fmt.Errorf("ctable: %s: %w", table, err)
	}
	return fmt.Errorf("ctable: %s: %s: %w", table, member, err)
}

// isCorrupt reports whether err is (or wraps) b2.ErrCorrupt.
func isCorrupt(err error) bool { return errors.Is(err, b2.ErrCorrupt) }

// memberErr turns a missing member into corruption: a table without one of
// its parts is damaged, not merely absent.
func memberErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("missing member: %w", b2.ErrCorrupt)
	}
	return err
}
