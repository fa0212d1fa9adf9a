package json

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/storage"
)

// Options are read_json's named options, with DuckDB's names.
type Options struct {
	// Open opens a remote path (s3://, https://) with the session's
	// storage configuration; nil reads local files only.
	Open func(path string) (storage.Source, error)
	// Cast converts a value's text (a string's contents, a number's
	// digits) to a type the reader has no conversion of its own for
	// (UUID, HUGEINT, DECIMAL(19..38), TIMESTAMP WITH TIME ZONE,
	// INTERVAL, …); the catalog sets it to the engine's VARCHAR cast.
	Cast func(text string, t columnar.Type) (columnar.Value, bool)

	// Format is "auto" (""), "newline_delimited" (also "nd"), "array" or
	// "unstructured" (values one after the other, any layout).
	Format string
	// Records is "auto" (""), "true" (each value is an object whose keys
	// are columns) or "false" (each value is one column named "json").
	Records string
	// Columns, when set, gives every column's name and type: no
	// inference.
	Columns []Column
	// SampleSize is the number of values inference reads; 0 means 20480,
	// -1 all (bounded by 64 MiB of input).
	SampleSize int
	// DateFormat and TimestampFormat are strftime formats; "" means ISO.
	DateFormat, TimestampFormat string
	// IgnoreErrors drops values that do not parse or convert.
	IgnoreErrors bool
	// Compression is "auto" (""), "none", "gzip" or "zstd".
	Compression string
	// MaximumObjectSize bounds one value's size in bytes; 0 means 16 MiB
	// (DuckDB's default).
	MaximumObjectSize int
	// Parallel false reads a file with one reader.
	Parallel *bool
}

// Column is a column name and type. JSON marks a VARCHAR column that holds
// each value's JSON text (nested objects and arrays, mixed types), as
// DuckDB's JSON type, rather than the string's contents.
type Column struct {
	Name string
	Type columnar.Type
	JSON bool
	// Key is the object key the column reads ("" means Name): inference
	// renames a key that differs from another only in case (a, A_1).
	Key string
}

func (c Column) key() string {
	if c.Key != "" {
		return c.Key
	}
	return c.Name
}

const (
	defaultSample  = 20480
	defaultMaxSize = 16 << 20
)

func (o *Options) maxSize() int {
	if o.MaximumObjectSize > 0 {
		return o.MaximumObjectSize
	}
	return defaultMaxSize
}
