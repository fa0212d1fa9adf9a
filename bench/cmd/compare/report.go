package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

type header struct {
	rows, size    int64
	threads, runs int
	path          string
	duck, duckGo  string
	rulesOff      bool
	metric        string // "wall" or "cpu"
	loadStart     string // load averages, "" if unknown
	loadEnd       string
}

// maxCell bounds an error message inside the table; the full text follows it.
const maxCell = 48

// report prints the comparison table, the geometric mean of the ratios and
// the agreement count, then the details of every error and disagreement.
func report(w io.Writer, format string, h header, outs []outcome) {
	cols := []string{"query", "b2sql", "DuckDB", "b2sql/DuckDB"}
	if h.rulesOff {
		cols = append(cols, "b2sql rules off", "on/off")
	}
	cols = append(cols, "rows", "agree")
	if h.rulesOff {
		cols = append(cols, "agree (off)")
	}

	var ratios, onOff []float64
	agree := 0
	var notes []string
	seen := map[string]string{} // engine and error → first query with it
	var table [][]string
	for _, out := range outs {
		on, duck := out.m[0], out.m[1]
		row := []string{out.q.Name, timeCell(on, h), timeCell(duck, h), ""}
		if on.err == nil && duck.err == nil && duck.time(h.metric) > 0 && on.time(h.metric) > 0 {
			r := on.time(h.metric).Seconds() / duck.time(h.metric).Seconds()
			ratios = append(ratios, r)
			row[3] = fmt.Sprintf("%.2fx", r)
		}
		if h.rulesOff {
			off := out.m[2]
			ratio := ""
			if on.err == nil && off.err == nil && off.time(h.metric) > 0 && on.time(h.metric) > 0 {
				r := on.time(h.metric).Seconds() / off.time(h.metric).Seconds()
				onOff = append(onOff, r)
				ratio = fmt.Sprintf("%.2fx", r)
			}
			row = append(row, timeCell(off, h), ratio)
		}
		row = append(row, rowsCell(out.m), agreeCell(on, duck, out.diff))
		if on.err == nil && duck.err == nil && out.diff == "" {
			agree++
		}
		if h.rulesOff {
			row = append(row, agreeCell(out.m[2], duck, out.offDiff))
		}
		table = append(table, row)

		var why []string
		names := []string{"b2sql", "DuckDB", "b2sql rules off"}
		for i, m := range out.m {
			if m.err == nil {
				continue
			}
			key := names[i] + "\x00" + m.err.Error()
			if first, ok := seen[key]; ok {
				why = append(why, fmt.Sprintf("%s error: same as %s", names[i], first))
				continue
			}
			seen[key] = out.q.Name
			why = append(why, fmt.Sprintf("%s error: %s", names[i], m.err))
		}
		if out.diff != "" {
			why = append(why, "b2sql vs DuckDB differ at "+out.diff)
		}
		if out.offDiff != "" {
			why = append(why, "b2sql rules off vs DuckDB differ at "+out.offDiff)
		}
		if len(why) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s\n  %s", out.q.Name, out.q.SQL, strings.Join(why, "\n  ")))
		}
	}

	fmt.Fprintf(w, "b2sql vs DuckDB %s (duckdb-go %s): rows=%d threads=%d runs=%d, %s time, median after 1 warm-up\n",
		h.duck, h.duckGo, h.rows, h.threads, h.runs, h.metric)
	fmt.Fprintf(w, "file %s (%.1f MiB)", h.path, float64(h.size)/(1<<20))
	if h.loadStart != "" {
		fmt.Fprintf(w, "; load average %s at start, %s at end", h.loadStart, h.loadEnd)
	}
	fmt.Fprint(w, "\n\n")
	if format == "markdown" {
		writeMarkdown(w, cols, table)
	} else {
		writeTable(w, cols, table)
	}
	fmt.Fprintln(w)
	line := fmt.Sprintf("geomean b2sql/DuckDB: %s over %d queries; results agree: %d/%d",
		geomeanCell(ratios), len(ratios), agree, len(outs))
	if h.rulesOff {
		line += fmt.Sprintf("; geomean rules on/off: %s over %d queries", geomeanCell(onOff), len(onOff))
	}
	fmt.Fprintln(w, line)
	if len(notes) > 0 {
		fmt.Fprintln(w)
		if format == "markdown" {
			fmt.Fprintln(w, "```")
		}
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
		if format == "markdown" {
			fmt.Fprintln(w, "```")
		}
	}
}

func timeCell(m measurement, h header) string {
	if m.err != nil {
		return "ERROR: " + clip(firstLine(m.err.Error()), maxCell)
	}
	s := fmtDur(m.time(h.metric))
	if m.runs < h.runs {
		s += fmt.Sprintf(" (n=%d)", m.runs)
	}
	return s
}

func rowsCell(ms []measurement) string {
	var vals []int
	for _, m := range ms {
		if m.err == nil {
			vals = append(vals, m.rows)
		}
	}
	if len(vals) == 0 {
		return "-"
	}
	same := true
	for _, v := range vals {
		same = same && v == vals[0]
	}
	if same {
		return fmt.Sprint(vals[0])
	}
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		if m.err != nil {
			parts = append(parts, "-")
		} else {
			parts = append(parts, fmt.Sprint(m.rows))
		}
	}
	return strings.Join(parts, "/")
}

func agreeCell(a, b measurement, diff string) string {
	switch {
	case a.err != nil || b.err != nil:
		return "-"
	case diff != "":
		return "NO"
	}
	return "yes"
}

func geomeanCell(rs []float64) string {
	if len(rs) == 0 {
		return "-"
	}
	var s float64
	for _, r := range rs {
		s += math.Log(r)
	}
	return fmt.Sprintf("%.2fx", math.Exp(s/float64(len(rs))))
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.3fms", d.Seconds()*1e3)
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.2fms", d.Seconds()*1e3)
	case d < time.Second:
		return fmt.Sprintf("%.1fms", d.Seconds()*1e3)
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// writeTable prints an aligned plain-text table; the first column is left
// aligned, the others right aligned.
func writeTable(w io.Writer, cols []string, rows [][]string) {
	width := make([]int, len(cols))
	for i, c := range cols {
		width[i] = utf8.RuneCountInString(c)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(cols)
	sep := make([]string, len(cols))
	for i := range cols {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

func writeMarkdown(w io.Writer, cols []string, rows [][]string) {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	fmt.Fprintln(w, "| "+strings.Join(cols, " | ")+" |")
	align := make([]string, len(cols))
	for i := range cols {
		align[i] = "---:"
	}
	align[0] = ":---"
	fmt.Fprintln(w, "| "+strings.Join(align, " | ")+" |")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = esc(c)
		}
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
}
