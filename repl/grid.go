package repl

import (
	"bufio"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/mattn/go-runewidth"

	"github.com/b2sql/b2sql"
)

// renderGrid prints a box-drawn table (or a Markdown table): a header of
// names and SQL types, numbers right-aligned, cells truncated with "…" so
// the table fits MaxWidth, and past MaxRows only a count.
//
// It is hand-drawn rather than built on tablewriter or go-pretty: those
// packages take every row before drawing and align columns by a setting,
// whereas here alignment follows each column's SQL type, the type sits
// under the name, and only the first MaxRows rows are ever formatted — the
// rest are counted a batch at a time (Rows.NextBatch) without turning a
// single value into text. The drawing itself is a few lines.
func (o Output) renderGrid(w *bufio.Writer, rows *b2sql.Rows, cols []b2sql.Column, md bool, count *atomic.Int64) (int64, error) {
	var cells [][]string
	var n int64
	null := o.nullText()
	for (o.MaxRows <= 0 || len(cells) < o.MaxRows) && rows.Next() {
		row := make([]string, len(cols))
		for i, v := range rows.Values() {
			if v.Null {
				row[i] = null
			} else {
				row[i] = cellText(v.String(), md)
			}
		}
		cells = append(cells, row)
		n++
		count.Store(n)
	}
	if o.MaxRows > 0 && len(cells) == o.MaxRows {
		for b := rows.NextBatch(); b != nil; b = rows.NextBatch() {
			n += int64(b.Live())
			count.Store(n)
		}
		// Static results (EXPLAIN, DESCRIBE, SHOW) have no batches.
		for rows.Next() {
			n++
		}
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	names := make([]string, len(cols))
	types := make([]string, len(cols))
	right := make([]bool, len(cols))
	for i, c := range cols {
		names[i], types[i] = cellText(c.Name, md), c.Type.String()
		right[i] = c.Type.IsNumeric()
	}
	width := make([]int, len(cols))
	for i := range cols {
		width[i] = runewidth.StringWidth(names[i])
		if md {
			width[i] = max(width[i], 3)
		} else if o.Header {
			width[i] = max(width[i], runewidth.StringWidth(types[i]))
		}
	}
	for _, r := range cells {
		for i, s := range r {
			width[i] = max(width[i], runewidth.StringWidth(s))
		}
	}
	shown := len(cols)
	if !md && o.MaxWidth > 0 {
		shown = fitWidths(width, right, o.MaxWidth)
	}
	pad := func(s string, i int) string {
		if runewidth.StringWidth(s) > width[i] {
			s = runewidth.Truncate(s, width[i], "…")
		}
		gap := strings.Repeat(" ", width[i]-runewidth.StringWidth(s))
		if right[i] {
			return gap + s
		}
		return s + gap
	}
	hidden := shown < len(cols)
	line := func(l, m, r string) {
		w.WriteString(l)
		for i := range shown {
			if i > 0 {
				w.WriteString(m)
			}
			w.WriteString(strings.Repeat("─", width[i]+2))
		}
		if hidden {
			w.WriteString(m + "───")
		}
		w.WriteString(r + "\n")
	}
	row := func(vals []string, sep string) {
		w.WriteString(sep)
		for i, s := range vals[:shown] {
			w.WriteString(" " + pad(s, i) + " " + sep)
		}
		if hidden {
			w.WriteString(" … " + sep)
		}
		w.WriteByte('\n')
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
		if more := n - int64(len(cells)); more > 0 {
			fmt.Fprintf(w, "\n… %d more rows (%d total)\n", more, n)
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
	if hidden {
		fmt.Fprintf(w, "… %d more columns: %s\n", len(cols)-shown, strings.Join(names[shown:], ", "))
	}
	return n, nil
}

// minCellWidth is how narrow truncation may make a column: "ab…" still
// tells values apart where "…" would not.
const minCellWidth = 5

// fitWidths narrows the widest columns, one cell at a time, until a table
// with these column widths fits in maxWidth display cells, and returns how
// many leading columns to show. Text columns give way first: a cut number
// misleads where a cut word does not. If even the narrowest table does not
// fit, trailing columns are dropped and a "…" column stands for them.
func fitWidths(width []int, numeric []bool, maxWidth int) int {
	total := 1
	for _, x := range width {
		total += x + 3
	}
	for _, numbersToo := range []bool{false, true} {
		for total > maxWidth {
			widest := -1
			for i, x := range width {
				if x > minCellWidth && (numbersToo || !numeric[i]) && (widest < 0 || x > width[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break
			}
			width[widest]--
			total--
		}
	}
	shown := len(width)
	for total > maxWidth && shown > 1 {
		shown--
		total -= width[shown] + 3
		if shown == len(width)-1 {
			total += 4 // the "…" column
		}
	}
	return shown
}

// cellText makes a value printable on one table line: line breaks and
// tabs are shown escaped, and in Markdown a '|' would end the cell.
func cellText(s string, md bool) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
	}
	if md && strings.Contains(s, "|") {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return s
}

// nullText is how table-like formats show NULL.
func (o Output) nullText() string {
	if o.NullValue != "" {
		return o.NullValue
	}
	return "NULL"
}
