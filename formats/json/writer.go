package json

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/atomicfile"
	"github.com/b2sql/b2sql/internal/strftime"
)

// WriterOptions are COPY … TO 'x.json' options, with DuckDB's names.
type WriterOptions struct {
	// Array writes one JSON array of objects (ARRAY true) instead of one
	// object per line (newline-delimited, the default).
	Array bool
	// DateFormat and TimestampFormat format DATE and TIMESTAMP strings.
	DateFormat, TimestampFormat string
	// Compression is "auto" ("": by extension), "none", "gzip" or "zstd".
	Compression string
	// JSONColumns are columns whose VARCHAR values are JSON text, written
	// as is (not as strings).
	JSONColumns []string
}

// Writer writes batches as JSON objects, one per row, to a temporary file
// that Close renames into place.
type Writer struct {
	path   string
	file   *atomicfile.File
	comp   io.WriteCloser
	out    io.Writer
	keys   [][]byte // `"name":` per column
	raw    []bool
	array  bool
	rows   int64
	date   *strftime.Format
	ts     *strftime.Format
	line   []byte
	done   bool
	schema columnar.Schema
}

// NewWriter creates the writer of a JSON file at path.
func NewWriter(path string, schema columnar.Schema, o WriterOptions) (*Writer, error) {
	w := &Writer{path: path, array: o.Array, schema: schema, raw: make([]bool, len(schema))}
	var err error
	if o.DateFormat != "" {
		if w.date, err = strftime.Parse(o.DateFormat); err != nil {
			return nil, fmt.Errorf("json: %s: %w: dateformat: %w", path, ErrOption, err)
		}
	}
	if o.TimestampFormat != "" {
		if w.ts, err = strftime.Parse(o.TimestampFormat); err != nil {
			return nil, fmt.Errorf("json: %s: %w: timestampformat: %w", path, ErrOption, err)
		}
	}
	for _, f := range schema {
		k := appendString(nil, []byte(f.Name))
		w.keys = append(w.keys, append(k, ':'))
	}
	for _, n := range o.JSONColumns {
		if i := schema.Index(n); i >= 0 {
			w.raw[i] = true
		}
	}
	comp := ""
	switch strings.ToLower(o.Compression) {
	case "", "auto":
		switch strings.ToLower(filepath.Ext(path)) {
		case ".gz", ".gzip":
			comp = "gzip"
		case ".zst", ".zstd":
			comp = "zstd"
		}
	case "none", "uncompressed":
	case "gzip", "zstd":
		comp = strings.ToLower(o.Compression)
	default:
		return nil, fmt.Errorf("json: %s: %w: compression %q (auto, none, gzip, zstd)", path, ErrOption, o.Compression)
	}
	if w.file, err = atomicfile.Create(path); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	w.out = w.file
	switch comp {
	case "gzip":
		w.comp = gzip.NewWriter(w.file)
	case "zstd":
		z, err := zstd.NewWriter(w.file)
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("json: %s: %w", path, err)
		}
		w.comp = z
	}
	if w.comp != nil {
		w.out = w.comp
	}
	if w.array {
		if _, err := io.WriteString(w.out, "[\n"); err != nil {
			w.Abort()
			return nil, fmt.Errorf("json: %s: %w", path, err)
		}
	}
	return w, nil
}

const hexDigits = "0123456789abcdef"

// appendString appends b as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(dst, b []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, b[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// Write appends the live rows of b.
func (w *Writer) Write(b *columnar.Batch) error {
	if w.done {
		return fmt.Errorf("json: %s: write after close", w.path)
	}
	for k := range b.Live() {
		r := b.Row(k)
		w.line = w.line[:0]
		if w.array {
			if w.rows > 0 {
				w.line = append(w.line, ",\n"...)
			}
			w.line = append(w.line, '\t')
		}
		w.line = append(w.line, '{')
		for j, v := range b.Cols {
			if j > 0 {
				w.line = append(w.line, ',')
			}
			w.line = append(w.line, w.keys[j]...)
			i := r
			if v.Const {
				i = 0
			}
			if v.IsNull(i) {
				w.line = append(w.line, "null"...)
				continue
			}
			switch v.Type.ID {
			case columnar.Varchar:
				var s []byte
				if v.Dict == nil {
					s = v.Bytes[i]
				} else {
					s = []byte(v.Value(i).S)
				}
				if w.raw[j] {
					w.line = append(w.line, s...)
				} else {
					w.line = appendString(w.line, s)
				}
			case columnar.Bool:
				w.line = strconv.AppendBool(w.line, v.Bools[i])
			case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Uint8, columnar.Uint16, columnar.Uint32:
				w.line = strconv.AppendInt(w.line, v.Ints[i], 10)
			case columnar.Uint64:
				w.line = strconv.AppendUint(w.line, v.Uints[i], 10)
			case columnar.Float32, columnar.Float64:
				w.line = columnar.AppendJSONFloat(w.line, v.Floats[i])
			case columnar.Decimal:
				if v.Type.Precision > 15 {
					// Wider than a double holds: its exact digits, as DuckDB.
					w.line = v.Value(i).AppendText(w.line)
				} else {
					w.line = columnar.AppendJSONFloat(w.line, float64(v.Ints[i])/math.Pow10(int(v.Type.Scale)))
				}
			case columnar.Decimal128, columnar.Hugeint, columnar.Uhugeint:
				// Numbers, not strings, in their exact digits (DuckDB).
				w.line = v.Value(i).AppendText(w.line)
			case columnar.Date:
				var t []byte
				if w.date != nil {
					t = w.date.AppendDays(nil, v.Ints[i])
				} else {
					t = columnar.AppendDate(nil, v.Ints[i])
				}
				w.line = appendString(w.line, t)
			case columnar.Timestamp:
				var t []byte
				if w.ts != nil {
					t = w.ts.AppendMicros(nil, v.Ints[i])
				} else {
					t = columnar.AppendTimestamp(nil, v.Ints[i])
				}
				w.line = appendString(w.line, t)
			case columnar.List, columnar.Struct, columnar.Map: // arrays and objects
				w.line = v.Value(i).AppendJSON(w.line)
			default:
				w.line = appendString(w.line, v.Value(i).AppendText(nil))
			}
		}
		w.line = append(w.line, '}')
		if !w.array {
			w.line = append(w.line, '\n')
		}
		if _, err := w.out.Write(w.line); err != nil {
			return fmt.Errorf("json: %s: %w", w.path, err)
		}
		w.rows++
	}
	return nil
}

// Close finishes the file and renames it into place.
func (w *Writer) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	fail := func(err error) error {
		w.file.Abort()
		return fmt.Errorf("json: %s: %w", w.path, err)
	}
	if w.array {
		end := "\n]\n"
		if w.rows == 0 {
			end = "]\n"
		}
		if _, err := io.WriteString(w.out, end); err != nil {
			return fail(err)
		}
	}
	if w.comp != nil {
		if err := w.comp.Close(); err != nil {
			return fail(err)
		}
	}
	if err := w.file.Commit(); err != nil {
		return fmt.Errorf("json: %s: %w", w.path, err)
	}
	return nil
}

// Abort removes the temporary file.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.file.Abort()
}
