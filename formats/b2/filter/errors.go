package filter

import (
	"errors"
	"fmt"
)

// ErrInvalidParam is wrapped by every error a filter returns: a typesize,
// precision or buffer length the filter cannot work with. When the value
// came from a file, the chunk reader reports it as corrupt data.
var ErrInvalidParam = errors.New("filter: invalid parameter")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidParam}, args...)...)
}
