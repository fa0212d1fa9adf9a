package repl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/mattn/go-runewidth"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/columnar"
)

// Format is an output format.
type Format string

const (
	FormatTable    Format = "table"
	FormatCSV      Format = "csv"
	FormatTSV      Format = "tsv"
	FormatJSON     Format = "json"
	FormatNDJSON   Format = "ndjson"
	FormatMarkdown Format = "markdown"
	FormatLine     Format = "line" // one "column = value" line per column, rows apart
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case FormatTable, FormatCSV, FormatTSV, FormatJSON, FormatNDJSON, FormatMarkdown, FormatLine:
		return f, nil
	case "box", "duckbox":
		return FormatTable, nil
	case "md":
		return FormatMarkdown, nil
	}
	return "", fmt.Errorf("unknown format %q (table, csv, tsv, json, ndjson, markdown, line)", s)
}

// Output says how results are printed.
type Output struct {
	Format    Format
	Header    bool
	NullValue string // NULL in csv/tsv (default ""); table, markdown and line print NULL unless set
	MaxRows   int    // table, markdown: rows shown before "… N more rows" (0 = all)
	MaxWidth  int    // table: display columns to fit in (0 = no limit)
}

// Render streams rows to w in the chosen format and returns the row count.
func (o Output) Render(w io.Writer, rows *b2sql.Rows) (int64, error) {
	return o.render(w, rows, nil)
}

// render is Render with a row counter the progress bar reads (may be
// nil). The first byte written to w means the result has started to
// print, so a progress bar must be gone by then: callers pass a w that
// clears it.
func (o Output) render(w io.Writer, rows *b2sql.Rows, count *atomic.Int64) (int64, error) {
	if count == nil {
		count = new(atomic.Int64)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	cols := rows.Columns()
	if len(cols) == 0 {
		for rows.Next() {
		}
		return 0, rows.Err()
	}
	switch o.Format {
	case FormatCSV, FormatTSV:
		return o.renderDelimited(bw, rows, cols, count)
	case FormatJSON, FormatNDJSON:
		return o.renderJSON(bw, rows, cols, count)
	case FormatLine:
		return o.renderLine(bw, rows, cols, count)
	case formatPlain:
		return renderPlain(bw, rows, count)
	case FormatMarkdown:
		return o.renderGrid(bw, rows, cols, true, count)
	}
	return o.renderGrid(bw, rows, cols, false, count)
}

// formatPlain prints the first column's text, one row a line, nothing
// else: EXPLAIN's plan tree in table mode.
const formatPlain Format = "plain"

func renderPlain(w *bufio.Writer, rows *b2sql.Rows, count *atomic.Int64) (int64, error) {
	var n int64
	for rows.Next() {
		w.WriteString(rows.Values()[0].String())
		w.WriteByte('\n')
		n++
		count.Store(n)
	}
	return n, rows.Err()
}

// renderLine prints each row as "name = value" lines, names right-aligned,
// with a blank line between rows (sqlite's and DuckDB's line mode).
func (o Output) renderLine(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column, count *atomic.Int64) (int64, error) {
	wn := 0
	for _, c := range cols {
		wn = max(wn, runewidth.StringWidth(c.Name))
	}
	var n int64
	for rows.Next() {
		if n > 0 {
			w.WriteByte('\n')
		}
		for i, v := range rows.Values() {
			w.WriteString(strings.Repeat(" ", wn-runewidth.StringWidth(cols[i].Name)))
			w.WriteString(cols[i].Name)
			w.WriteString(" = ")
			if v.Null {
				w.WriteString(o.nullText())
			} else {
				w.WriteString(v.String())
			}
			w.WriteByte('\n')
		}
		n++
		count.Store(n)
	}
	return n, rows.Err()
}

func (o Output) renderDelimited(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column, count *atomic.Int64) (int64, error) {
	sep := byte(',')
	if o.Format == FormatTSV {
		sep = '\t'
	}
	field := func(s string) {
		if sep == ',' && strings.ContainsAny(s, ",\"\n\r") {
			w.WriteByte('"')
			w.WriteString(strings.ReplaceAll(s, `"`, `""`))
			w.WriteByte('"')
			return
		}
		if sep == '\t' {
			s = strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
		}
		w.WriteString(s)
	}
	if o.Header {
		for i, c := range cols {
			if i > 0 {
				w.WriteByte(sep)
			}
			field(c.Name)
		}
		w.WriteByte('\n')
	}
	var n int64
	var buf []byte
	for rows.Next() {
		for i, v := range rows.Values() {
			if i > 0 {
				w.WriteByte(sep)
			}
			if v.Null {
				w.WriteString(o.NullValue)
				continue
			}
			buf = v.AppendText(buf[:0])
			field(string(buf))
		}
		w.WriteByte('\n')
		n++
		count.Store(n)
	}
	return n, rows.Err()
}

func jsonValue(v columnar.Value) any {
	if v.Null {
		return nil
	}
	switch v.Type.Phys() {
	case columnar.PhysNested: // arrays and objects
		return json.RawMessage(quoteNonFinite(v.AppendJSON(nil)))
	case columnar.PhysBool:
		return v.Bool()
	case columnar.PhysFloat:
		if v.F != v.F || v.F > 1.7976931348623157e308 || v.F < -1.7976931348623157e308 {
			return v.String() // JSON has no NaN or infinities: their text
		}
		// As COPY TO json and the nested values write a DOUBLE: -0.0, 2.0
		// (encoding/json writes -0 and 2).
		return json.RawMessage(columnar.AppendJSONFloat(nil, v.F))
	case columnar.PhysUint:
		return v.Uint()
	case columnar.PhysInt:
		if v.Type.IsInteger() {
			return v.I
		}
		if v.Type.ID == columnar.Decimal {
			return json.Number(v.String())
		}
	}
	return v.String()
}

func (o Output) renderJSON(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column, count *atomic.Int64) (int64, error) {
	var n int64
	if o.Format == FormatJSON {
		w.WriteString("[")
	}
	for rows.Next() {
		if o.Format == FormatJSON {
			if n > 0 {
				w.WriteString(",")
			}
			w.WriteString("\n  ")
		}
		w.WriteByte('{')
		for i, v := range rows.Values() {
			if i > 0 {
				w.WriteByte(',')
			}
			k, _ := json.Marshal(cols[i].Name)
			w.Write(k)
			w.WriteByte(':')
			b, err := json.Marshal(jsonValue(v))
			if err != nil {
				return n, err
			}
			w.Write(b)
		}
		w.WriteByte('}')
		if o.Format == FormatNDJSON {
			w.WriteByte('\n')
		}
		n++
		count.Store(n)
	}
	if o.Format == FormatJSON {
		if n > 0 {
			w.WriteString("\n")
		}
		w.WriteString("]\n")
	}
	return n, rows.Err()
}

// quoteNonFinite rewrites the bare NaN, Infinity and -Infinity that
// AppendJSON writes for such floats (as DuckDB's JSON writer does) into
// the strings "nan", "inf" and "-inf", as a top-level DOUBLE is written
// here: JSON has no such numbers, and the output must parse. The tokens
// are only replaced outside strings.
func quoteNonFinite(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	var out []byte
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		case c == '"':
			inStr = true
		case bytes.HasPrefix(b[i:], []byte("NaN")):
			out, i = append(out, `"nan"`...), i+2
			continue
		case bytes.HasPrefix(b[i:], []byte("-Infinity")):
			out, i = append(out, `"-inf"`...), i+8
			continue
		case bytes.HasPrefix(b[i:], []byte("Infinity")):
			out, i = append(out, `"inf"`...), i+7
			continue
		}
		out = append(out, c)
	}
	return out
}
