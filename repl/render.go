package repl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case FormatTable, FormatCSV, FormatTSV, FormatJSON, FormatNDJSON, FormatMarkdown:
		return f, nil
	case "md":
		return FormatMarkdown, nil
	}
	return "", fmt.Errorf("unknown format %q (table, csv, tsv, json, ndjson, markdown)", s)
}

// Output says how results are printed.
type Output struct {
	Format    Format
	Header    bool
	NullValue string // NULL in csv/tsv (default ""); table and markdown print NULL
	MaxRows   int    // table mode: rows shown before "… N more rows" (0 = all)
}

// Render streams rows to w in the chosen format and returns the row count.
func (o Output) Render(w io.Writer, rows *b2sql.Rows) (int64, error) {
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
		return o.renderDelimited(bw, rows, cols)
	case FormatJSON, FormatNDJSON:
		return o.renderJSON(bw, rows, cols)
	case FormatMarkdown:
		return o.renderGrid(bw, rows, cols, true)
	}
	return o.renderGrid(bw, rows, cols, false)
}

func (o Output) renderDelimited(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column) (int64, error) {
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
	}
	return n, rows.Err()
}

func jsonValue(v columnar.Value) any {
	if v.Null {
		return nil
	}
	switch v.Type.Phys() {
	case columnar.PhysBool:
		return v.Bool()
	case columnar.PhysFloat:
		if v.F != v.F || v.F > 1.7976931348623157e308 || v.F < -1.7976931348623157e308 {
			return v.String()
		}
		return v.F
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

func (o Output) renderJSON(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column) (int64, error) {
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
	}
	if o.Format == FormatJSON {
		if n > 0 {
			w.WriteString("\n")
		}
		w.WriteString("]\n")
	}
	return n, rows.Err()
}

// renderGrid prints an aligned table (box drawing) or a Markdown table.
// Rows are buffered up to MaxRows to size the columns; the rest are only
// counted.
func (o Output) renderGrid(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column, md bool) (int64, error) {
	var cells [][]string
	var n int64
	for rows.Next() {
		n++
		if o.MaxRows > 0 && len(cells) >= o.MaxRows {
			continue
		}
		row := make([]string, len(cols))
		for i, v := range rows.Values() {
			if v.Null {
				row[i] = "NULL"
			} else {
				row[i] = v.String()
			}
		}
		cells = append(cells, row)
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	width := make([]int, len(cols))
	for i, c := range cols {
		width[i] = max(utf8.RuneCountInString(c.Name), utf8.RuneCountInString(c.Type.String()))
		if md {
			width[i] = max(utf8.RuneCountInString(c.Name), 3)
		}
	}
	for _, r := range cells {
		for i, s := range r {
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
	}
	right := make([]bool, len(cols))
	for i, c := range cols {
		right[i] = c.Type.IsNumeric()
	}
	pad := func(s string, i int) string {
		gap := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
		if right[i] {
			return gap + s
		}
		return s + gap
	}
	line := func(l, m, r string) {
		w.WriteString(l)
		for i := range cols {
			if i > 0 {
				w.WriteString(m)
			}
			w.WriteString(strings.Repeat("─", width[i]+2))
		}
		w.WriteString(r + "\n")
	}
	row := func(vals []string, sep string) {
		w.WriteString(sep)
		for i, s := range vals {
			w.WriteString(" " + pad(s, i) + " " + sep)
		}
		w.WriteByte('\n')
	}
	names := make([]string, len(cols))
	types := make([]string, len(cols))
	for i, c := range cols {
		names[i], types[i] = c.Name, c.Type.String()
	}
	if md {
		row(names, "|")
		w.WriteString("|")
		for i := range cols {
			d := strings.Repeat("-", width[i])
			if right[i] {
				d = d[:len(d)-1] + ":"
			}
			w.WriteString(" " + d + " |")
		}
		w.WriteByte('\n')
		for _, r := range cells {
			row(r, "|")
		}
		return n, nil
	}
	line("┌", "┬", "┐")
	if o.Header {
		row(names, "│")
		row(types, "│")
		line("├", "┼", "┤")
	}
	for _, r := range cells {
		row(r, "│")
	}
	line("└", "┴", "┘")
	if more := n - int64(len(cells)); more > 0 {
		fmt.Fprintf(w, "… %d more rows (%d total)\n", more, n)
	}
	return n, nil
}
