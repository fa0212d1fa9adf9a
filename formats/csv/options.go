package csv

import "github.com/b2sql/b2sql/storage"

import "github.com/b2sql/b2sql/columnar"

// Options are read_csv's named options, with DuckDB's names and meaning.
// The zero value detects everything. A field whose Set flag is false is
// left to the sniffer.
type Options struct {
	// Open opens a remote path (s3://, https://) with the session's
	// storage configuration; nil reads local files only.
	Open func(path string) (storage.Source, error)
	// Cast converts a field's text to a type the reader has no parser of
	// its own for (UUID, HUGEINT, DECIMAL(19..38), TIMESTAMP WITH TIME
	// ZONE, INTERVAL, the timestamp units, BLOB's \x escapes); the catalog
	// sets it to the engine's VARCHAR cast. nil: such columns are refused.
	Cast func(text string, t columnar.Type) (columnar.Value, bool)

	Delim   Opt[byte] // delim / sep
	Quote   Opt[byte] // 0: no quoting
	Escape  Opt[byte] // 0: none; == Quote: RFC 4180 doubling
	Comment Opt[byte] // 0: none
	Header  Opt[bool]
	// NewLine is "", "\n", "\r\n" or "\r" (new_line).
	NewLine string
	// Skip is the number of lines to skip before the header (skip).
	Skip int
	// NullStr lists the texts that read as NULL (nullstr); nil means the
	// empty field only.
	NullStr []string
	// Columns, when set, gives every column's name and type (columns): no
	// type detection, and a header (if any) gives no names.
	Columns []Column
	// Types overrides detected types by column name (types/dtypes as a
	// struct) or, when TypesByPos is set, by position (a list).
	Types      map[string]columnar.Type
	TypesByPos []columnar.Type
	// Names renames the first len(Names) columns (names).
	Names []string
	// DateFormat and TimestampFormat are strftime formats (dateformat,
	// timestampformat); "" means ISO 8601 or detection.
	DateFormat      string
	TimestampFormat string
	// DecimalSep is ',' or '.' (decimal_separator); 0 means '.'.
	DecimalSep byte
	// AutoDetect false turns the sniffer off (auto_detect = false): the
	// dialect is RFC 4180 with ',' unless given, and Columns must be set.
	AutoDetect Opt[bool]
	// SampleSize is the number of rows the sniffer reads (sample_size);
	// 0 means 20480, -1 the whole file.
	SampleSize int
	// AllVarchar reads every column as VARCHAR (all_varchar).
	AllVarchar bool
	// IgnoreErrors drops rows that do not parse (ignore_errors); with
	// StoreRejects (store_rejects) they are kept in Table.Rejects.
	IgnoreErrors bool
	StoreRejects bool
	// NullPadding reads missing trailing fields as NULL (null_padding).
	NullPadding bool
	// MaxLineSize bounds a record's length in bytes (max_line_size); 0
	// means 2,000,000 as DuckDB.
	MaxLineSize int
	// Compression is "auto" (by extension, the default ""), "none",
	// "gzip" or "zstd".
	Compression string
	// Encoding is the files' text encoding: "" or "utf-8", "utf-16"
	// (little-endian unless a byte order mark says otherwise) or
	// "latin-1"; files in another than UTF-8 are read as one stream each,
	// decoded as they are read.
	Encoding string
	// Parallel false reads each file with one reader (parallel = false).
	Parallel Opt[bool]
	// BufferSize is the byte size of a parallel range (buffer_size); 0
	// means DefaultChunkSize.
	BufferSize int64
	// NormalizeNames makes column names identifiers as DuckDB does
	// (normalize_names): accents stripped, lower case, letters, digits
	// and _ only (spaces become _), a leading digit or a keyword (as
	// Keyword says) prefixed with _.
	NormalizeNames bool
	Keyword        func(string) bool
	// RejectsTable and RejectsScan name the tables store_rejects fills
	// ("" means reject_errors and reject_scans); RejectsLimit bounds the
	// rejects kept per file (0: all). The caller keeps them (OnReject).
	RejectsTable, RejectsScan string
	RejectsLimit              int
	// OnReject, when set, receives every row ignore_errors drops, with
	// store_rejects, as it is dropped (from concurrent scans: it must be
	// safe for concurrent use).
	OnReject func(Reject)
}

// Opt is an option value that may be unset.
type Opt[T any] struct {
	V   T
	Set bool
}

// Some returns a set option.
func Some[T any](v T) Opt[T] { return Opt[T]{V: v, Set: true} }

// Column is a column name and type.
type Column struct {
	Name string
	Type columnar.Type
}

const (
	defaultSample  = 20480
	defaultMaxLine = 2000000
)

// sampleRows is the number of records the sniffer reads: DuckDB samples
// whole vectors of 2048 rows, so sample_size rounds up to a multiple of
// 2048; one more for a header.
func (o *Options) sampleRows() int {
	switch {
	case o.SampleSize < 0:
		return -1
	case o.SampleSize == 0:
		return defaultSample + 1
	}
	return (o.SampleSize+2047)/2048*2048 + 1
}

func (o *Options) maxLine() int {
	if o.MaxLineSize > 0 {
		return o.MaxLineSize
	}
	return defaultMaxLine
}

func (o *Options) decSep() byte {
	if o.DecimalSep == 0 {
		return '.'
	}
	return o.DecimalSep
}

// isNull reports whether field f is one of the NULL texts.
func (o *Options) isNull(f []byte) bool {
	if o.NullStr == nil {
		return len(f) == 0
	}
	for _, s := range o.NullStr {
		if string(f) == s {
			return true
		}
	}
	return false
}
