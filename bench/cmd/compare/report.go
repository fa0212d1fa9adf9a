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
	data          string // what the data is, shown instead of rows when set
	threads, runs int
	path          string
	duck, duckGo  string
	rulesOff      bool
	metric        string // "wall", "cpu" or "both"
	loadStart     string // load averages, "" if unknown
	loadEnd       string
	peakRSS       bool   // the rows carry each engine's peak RSS (-peak-rss)
	rssBase       string // the peak RSS of a child that opens neither engine
}

// maxCell bounds an error message inside the table; the full text follows it.
const maxCell = 48

// report prints the comparison table, the geometric means of the ratios and
// the agreement count, then the details of every error and disagreement.
func report(w io.Writer, format string, h header, outs []outcome) {
	metrics := []string{h.metric}
	if h.metric == "both" {
		metrics = []string{"wall", "cpu"}
	}
	cols := []string{"query"}
	for _, mt := range metrics {
		sfx := ""
		if len(metrics) > 1 {
			sfx = " " + mt
		}
		cols = append(cols, "b2sql"+sfx, "DuckDB"+sfx, "b2sql/DuckDB"+sfx)
		if h.rulesOff {
			cols = append(cols, "rules off"+sfx, "on/off"+sfx)
		}
	}
	if h.peakRSS {
		cols = append(cols, "b2sql peak RSS", "DuckDB peak RSS")
	}
	cols = append(cols, "rows", "agree")
	if h.rulesOff {
		cols = append(cols, "agree (off)")
	}

	ratios := make([][]float64, len(metrics)) // b2sql/DuckDB per metric
	onOff := make([][]float64, len(metrics))  // rules on/off per metric
	agree, rssAbove := 0, 0
	var notes []string
	seen := map[string]string{} // engine and error → first query with it
	var table [][]string
	for _, out := range outs {
		on, duck := out.m[0], out.m[1]
		row := []string{out.q.Name}
		for k, mt := range metrics {
			// An error is spelled out under the first metric only.
			row = append(row, timeCell(on, h.runs, mt, k == 0), timeCell(duck, h.runs, mt, k == 0),
				ratioCell(on, duck, mt, &ratios[k]))
			if h.rulesOff {
				off := out.m[2]
				row = append(row, timeCell(off, h.runs, mt, k == 0), ratioCell(on, off, mt, &onOff[k]))
			}
		}
		if h.peakRSS {
			row = append(row, rssCell(on), rssCell(duck))
			if on.rssErr == nil && duck.rssErr == nil && on.rss > duck.rss {
				rssAbove++
			}
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
		for i, m := range out.m[:min(2, len(out.m))] {
			if h.peakRSS && m.rssErr != nil {
				why = append(why, fmt.Sprintf("%s peak RSS: %s", names[i], m.rssErr))
			}
		}
		if out.offDiff != "" {
			why = append(why, "b2sql rules off vs DuckDB differ at "+out.offDiff)
		}
		if len(why) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s\n  %s", out.q.Name, out.q.SQL, strings.Join(why, "\n  ")))
		}
	}

	data := h.data
	if data == "" {
		data = fmt.Sprintf("rows=%d", h.rows)
	}
	fmt.Fprintf(w, "b2sql vs DuckDB %s (duckdb-go %s): %s threads=%d runs=%d, median %s time after 1 warm-up\n",
		h.duck, h.duckGo, data, h.threads, h.runs, strings.Join(metrics, " and "))
	fmt.Fprintf(w, "file %s (%.1f MiB)", h.path, float64(h.size)/(1<<20))
	if h.loadStart != "" {
		fmt.Fprintf(w, "; load average %s at start, %s at end", h.loadStart, h.loadEnd)
	}
	fmt.Fprint(w, "\n")
	if h.peakRSS {
		fmt.Fprintf(w, "peak RSS: each query on each engine alone in a process of this binary (warm-up and one run); such a process that opens neither engine peaks at %s\n", h.rssBase)
	}
	fmt.Fprint(w, "\n")
	if format == "markdown" {
		writeMarkdown(w, cols, table)
	} else {
		writeTable(w, cols, table)
	}
	fmt.Fprintln(w)
	var parts []string
	for k, mt := range metrics {
		part := fmt.Sprintf("geomean b2sql/DuckDB (%s): %s over %d queries", mt, geomeanCell(ratios[k]), len(ratios[k]))
		if h.rulesOff {
			part += fmt.Sprintf(", rules on/off (%s): %s over %d", mt, geomeanCell(onOff[k]), len(onOff[k]))
		}
		parts = append(parts, part)
	}
	line := strings.Join(parts, "; ") + fmt.Sprintf("; results agree: %d/%d", agree, len(outs))
	if h.peakRSS {
		line += fmt.Sprintf("; b2sql's peak RSS above DuckDB's: %d/%d", rssAbove, len(outs))
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

// timeCell shows a median (with the run count when -budget cut it short), or
// the error when spell is set, else "-".
func timeCell(m measurement, runs int, metric string, spell bool) string {
	switch {
	case m.err != nil && spell:
		return "ERROR: " + clip(firstLine(m.err.Error()), maxCell)
	case m.err != nil:
		return "-"
	}
	s := fmtDur(m.time(metric))
	if m.runs < runs {
		s += fmt.Sprintf(" (n=%d)", m.runs)
	}
	return s
}

// ratioCell shows a's time over b's and records it in *rs, or "" when either
// failed.
func ratioCell(a, b measurement, metric string, rs *[]float64) string {
	ta, tb := a.time(metric), b.time(metric)
	if a.err != nil || b.err != nil || ta <= 0 || tb <= 0 {
		return ""
	}
	r := ta.Seconds() / tb.Seconds()
	*rs = append(*rs, r)
	return fmt.Sprintf("%.2fx", r)
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
