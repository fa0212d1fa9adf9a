package csv

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/atomicfile"
	"github.com/b2sql/b2sql/internal/strftime"
)

// WriterOptions are COPY … TO 'x.csv' options, with DuckDB's names and
// defaults: a header, ',' between fields, '"' quotes doubled inside quoted
// fields, NULL as an empty field, values quoted when they hold the
// delimiter, the quote, a newline or equal the NULL text.
type WriterOptions struct {
	Delim   Opt[byte] // delim / sep
	Quote   Opt[byte] // quote
	Escape  Opt[byte] // escape (default '"', as DuckDB, whatever the quote)
	Header  Opt[bool] // header (default true)
	NullStr string    // nullstr
	// DateFormat and TimestampFormat are strftime formats for DATE and
	// TIMESTAMP values ("" means ISO 8601).
	DateFormat, TimestampFormat string
	// Compression is "auto" ("": by extension .gz/.zst), "none", "gzip"
	// or "zstd".
	Compression string
	// ForceQuote lists columns whose non-NULL values are always quoted
	// (force_quote); ["*"] means every column.
	ForceQuote []string
	// NewLine ends each record: "\n" (default) or "\r\n".
	NewLine string
}

// Writer writes batches as CSV text to a temporary file that Close renames
// to the target path (Abort removes it), so readers never see a partial
// file.
type Writer struct {
	path    string
	file    *atomicfile.File
	comp    io.WriteCloser // nil: none
	out     io.Writer
	schema  columnar.Schema
	delim   byte
	quote   byte
	escape  byte
	null    []byte
	nl      []byte
	force   []bool
	date    *strftime.Format
	ts      *strftime.Format
	special [256]bool
	line    []byte
	done    bool
}

// NewWriter creates the writer of a CSV file at path with the columns of
// schema.
func NewWriter(path string, schema columnar.Schema, o WriterOptions) (*Writer, error) {
	w := &Writer{path: path, schema: schema, delim: ',', quote: '"', null: []byte(o.NullStr), nl: []byte("\n")}
	if o.Delim.Set {
		w.delim = o.Delim.V
	}
	if o.Quote.Set {
		w.quote = o.Quote.V
	}
	// DuckDB's escape is '"' whatever the quote: with QUOTE '\'' a quote
	// in a value is written "'.
	w.escape = '"'
	if o.Escape.Set {
		w.escape = o.Escape.V
	}
	if o.NewLine != "" {
		if o.NewLine != "\n" && o.NewLine != "\r\n" {
			return nil, fmt.Errorf("csv: %s: %w: new_line %q (\\n or \\r\\n)", path, ErrOption, o.NewLine)
		}
		w.nl = []byte(o.NewLine)
	}
	if w.delim == 0 || w.delim == '\n' || w.delim == '\r' || w.delim == w.quote {
		return nil, fmt.Errorf("csv: %s: %w: delimiter %q with quote %q", path, ErrOption, w.delim, w.quote)
	}
	var err error
	if o.DateFormat != "" {
		if w.date, err = strftime.Parse(o.DateFormat); err != nil {
			return nil, fmt.Errorf("csv: %s: %w: dateformat: %w", path, ErrOption, err)
		}
	}
	if o.TimestampFormat != "" {
		if w.ts, err = strftime.Parse(o.TimestampFormat); err != nil {
			return nil, fmt.Errorf("csv: %s: %w: timestampformat: %w", path, ErrOption, err)
		}
	}
	w.force = make([]bool, len(schema))
	for _, name := range o.ForceQuote {
		if name == "*" {
			for i := range w.force {
				w.force[i] = true
			}
			continue
		}
		i := schema.Index(name)
		if i < 0 {
			return nil, fmt.Errorf("csv: %s: %w: force_quote: no column %q", path, ErrOption, name)
		}
		w.force[i] = true
	}
	// The escape alone does not make a value quoted (DuckDB writes r\s
	// bare with ESCAPE '\'); inside a quoted value it is escaped too.
	for _, c := range []byte{w.delim, w.quote, '\n', '\r'} {
		w.special[c] = true
	}
	comp, err := writeCompression(path, o.Compression)
	if err != nil {
		return nil, err
	}
	if w.file, err = atomicfile.Create(path); err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	w.out = w.file
	switch comp {
	case "gzip":
		w.comp = gzip.NewWriter(w.file)
	case "zstd":
		z, err := zstd.NewWriter(w.file)
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("csv: %s: %w", path, err)
		}
		w.comp = z
	}
	if w.comp != nil {
		w.out = w.comp
	}
	if !o.Header.Set || o.Header.V {
		w.line = w.line[:0]
		for i, f := range schema {
			if i > 0 {
				w.line = append(w.line, w.delim)
			}
			w.line = w.appendField(w.line, []byte(f.Name), w.force[i])
		}
		w.line = append(w.line, w.nl...)
		if _, err := w.out.Write(w.line); err != nil {
			w.Abort()
			return nil, fmt.Errorf("csv: %s: %w", path, err)
		}
	}
	return w, nil
}

// writeCompression picks a writer's compression from the option or the
// path's extension.
func writeCompression(path, opt string) (string, error) {
	switch strings.ToLower(opt) {
	case "", "auto":
		switch strings.ToLower(filepath.Ext(path)) {
		case ".gz", ".gzip":
			return "gzip", nil
		case ".zst", ".zstd":
			return "zstd", nil
		}
		return "", nil
	case "none", "uncompressed":
		return "", nil
	case "gzip":
		return "gzip", nil
	case "zstd":
		return "zstd", nil
	}
	return "", fmt.Errorf("csv: %s: %w: compression %q (auto, none, gzip, zstd)", path, ErrOption, opt)
}

// appendField appends b, quoted if it needs to be (or force).
func (w *Writer) appendField(dst, b []byte, force bool) []byte {
	need := force || string(b) == string(w.null)
	if !need {
		for _, c := range b {
			if w.special[c] {
				need = true
				break
			}
		}
	}
	if !need {
		return append(dst, b...)
	}
	dst = append(dst, w.quote)
	for _, c := range b {
		if c == w.quote || c == w.escape && w.escape != w.quote {
			dst = append(dst, w.escape)
		}
		dst = append(dst, c)
	}
	return append(dst, w.quote)
}

// Write appends the live rows of b.
func (w *Writer) Write(b *columnar.Batch) error {
	if w.done {
		return fmt.Errorf("csv: %s: write after close", w.path)
	}
	var scratch []byte
	for k := range b.Live() {
		r := b.Row(k)
		w.line = w.line[:0]
		for j, v := range b.Cols {
			if j > 0 {
				w.line = append(w.line, w.delim)
			}
			i := r
			if v.Const {
				i = 0
			}
			if v.IsNull(i) {
				w.line = append(w.line, w.null...)
				continue
			}
			scratch = scratch[:0]
			switch v.Type.ID {
			case columnar.Varchar:
				if v.Dict == nil {
					w.line = w.appendField(w.line, v.Bytes[i], w.force[j])
				} else {
					w.line = w.appendField(w.line, []byte(v.Value(i).S), w.force[j])
				}
				continue
			case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Uint8, columnar.Uint16, columnar.Uint32:
				scratch = strconv.AppendInt(scratch, v.Ints[i], 10)
			case columnar.Float64:
				scratch = columnar.AppendFloat(scratch, v.Floats[i], 64)
			case columnar.Date:
				if w.date != nil {
					scratch = w.date.AppendDays(scratch, v.Ints[i])
				} else {
					scratch = columnar.AppendDate(scratch, v.Ints[i])
				}
			case columnar.Timestamp:
				if w.ts != nil {
					scratch = w.ts.AppendMicros(scratch, v.Ints[i])
				} else {
					scratch = columnar.AppendTimestamp(scratch, v.Ints[i])
				}
			default:
				scratch = v.Value(i).AppendText(scratch)
			}
			w.line = w.appendField(w.line, scratch, w.force[j])
		}
		w.line = append(w.line, w.nl...)
		if _, err := w.out.Write(w.line); err != nil {
			return fmt.Errorf("csv: %s: %w", w.path, err)
		}
	}
	return nil
}

// Close finishes the file and renames it into place.
func (w *Writer) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	if w.comp != nil {
		if err := w.comp.Close(); err != nil {
			w.file.Abort()
			return fmt.Errorf("csv: %s: %w", w.path, err)
		}
	}
	if err := w.file.Commit(); err != nil {
		return fmt.Errorf("csv: %s: %w", w.path, err)
	}
	return nil
}

// Abort removes the temporary file; the target is left as it was.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.file.Abort()
}
