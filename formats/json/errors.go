package json

import (
	"errors"
	"fmt"
)

var (
	// ErrMalformed: input that is no JSON, or not of the expected shape.
	ErrMalformed = errors.New("malformed JSON")
	// ErrConvert: a value that is not of its column's type.
	ErrConvert = errors.New("could not convert")
	// ErrOption: an option value that cannot be used.
	ErrOption = errors.New("invalid option")
	// ErrTooLarge: a value larger than maximum_object_size.
	ErrTooLarge = errors.New("value too large")
	// ErrUnsupported: an option or value DuckDB takes that this reader
	// does not implement (it is never wrapped for bad input).
	ErrUnsupported = errors.New("not supported")
)

// ValueError is an error in one value: the file, the line its value
// starts on (1-based) and, for a conversion, the column.
type ValueError struct {
	File   string
	Line   int64
	Column string
	Err    error
	Msg    string
}

func (e *ValueError) Error() string {
	s := fmt.Sprintf("json: %s: line %d", e.File, e.Line)
	if e.Column != "" {
		s += fmt.Sprintf(", column %q", e.Column)
	}
	return s + ": " + e.Msg
}

func (e *ValueError) Unwrap() error { return e.Err }
