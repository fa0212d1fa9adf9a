package csv

import (
	"errors"
	"fmt"
)

// Errors wrapped by the package's errors, for errors.Is.
var (
	// ErrMalformed: a record that does not parse (quotes, field count).
	ErrMalformed = errors.New("malformed CSV")
	// ErrConvert: a field that is not a value of its column's type.
	ErrConvert = errors.New("could not convert")
	// ErrOption: an option value that cannot be used.
	ErrOption = errors.New("invalid option")
	// ErrLineSize: a record longer than max_line_size.
	ErrLineSize = errors.New("line too long")
	// ErrUnsupported: an option or value DuckDB takes that this reader
	// does not implement (it is never wrapped for bad input).
	ErrUnsupported = errors.New("not supported")
)

// RecordError is an error in one record: file, line (1-based, counting
// every line of the file) and column (1-based field number, 0 when the
// record as a whole is wrong).
type RecordError struct {
	File   string
	Line   int64
	Column int
	Name   string // the column's name, when known
	Err    error
	Msg    string
}

func (e *RecordError) Error() string {
	where := fmt.Sprintf("csv: %s: line %d", e.File, e.Line)
	if e.Column > 0 {
		where += fmt.Sprintf(", column %d", e.Column)
		if e.Name != "" {
			where += fmt.Sprintf(" (%q)", e.Name)
		}
	}
	return where + ": " + e.Msg
}

func (e *RecordError) Unwrap() error { return e.Err }

// Reject is one row dropped by ignore_errors, as store_rejects keeps it
// (DuckDB's reject_errors columns).
type Reject struct {
	File      string
	Line      int64
	Column    int    // 1-based, 0 for the whole record
	Name      string // column name
	ErrorType string // "CAST", "MISSING COLUMNS", "TOO MANY COLUMNS", "UNQUOTED VALUE", "LINE SIZE OVER MAXIMUM"
	CSVLine   string // the record's text
	Message   string
	// LineByte and Byte are DuckDB's line_byte_position and byte_position
	// (1-based offsets in the decompressed file): where the record starts,
	// and where the error is (a CAST's field, the first extra field of TOO
	// MANY COLUMNS, the record's end for MISSING COLUMNS). 0: unknown (the
	// other error types, whose positions DuckDB's tests do not pin down).
	LineByte, Byte int64
}
