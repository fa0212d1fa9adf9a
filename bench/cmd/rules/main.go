// Command rules measures what b2sql's scan and optimizer rules buy: each
// query of a set chosen to hit one rule runs over the same events table
// stored as Parquet and as a CTable (.b2d), once with every rule on and
// once with SET pruning = off, and the report gives for both wall and CPU
// time (medians), the units (row groups, blocks) read and skipped, the
// bytes read, and whether the two answers agree — they must: the rules
// change cost, never results.
//
//	cd bench && go run ./cmd/rules -dir data/ -threads 2
//
// The directory must hold events.parquet (b2sql gen --rows N --out DIR)
// and events.b2d (COPY (SELECT * FROM 'DIR/events.parquet') TO
// 'DIR/events.b2d'); a missing one is left out with a note. -formats may
// also name other copies, e.g. one with FULL indexes: copy events.b2d to
// events_idx.b2d, then b2sql -c "CREATE INDEX ON events_idx USING FULL
// (temperature); CREATE INDEX ON events_idx USING FULL (id)" DIR/, and run
// with -formats parquet,b2d,events_idx.b2d. Constants in the queries scale
// with the table's row count; temp_point_rare picks its constant from the
// data and prints it under the table.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/bench/internal/proc"
)

// query is one measured statement; sql may use {rows} and {mid}, replaced
// by the table's row count and rows/2 + 12345, and {x}, replaced by the
// first cell of pick's answer (run once per table, rules on, and printed).
type query struct {
	name, rule, sql string
	pick            string
}

var queries = []query{
	{"ts_one_day", "block_pruning (clustered ts)",
		"SELECT count(*), sum(price) FROM events WHERE ts >= TIMESTAMP '2024-06-01' AND ts < TIMESTAMP '2024-06-02'", ""},
	{"id_point", "block_pruning (sorted id), index_lookup",
		"SELECT * FROM events WHERE id = {mid}", ""},
	{"price_is_null", "block_pruning (IS NULL, random NULLs)",
		"SELECT count(*) FROM events WHERE price IS NULL", ""},
	{"temp_point", "index_lookup (FULL on temperature), block_pruning",
		"SELECT * FROM events WHERE temperature = 27.35", ""},
	// A typical temperature matches thousands of rows spread over nearly
	// every block, so the FULL index lookup rightly declines (temp_point).
	// A rare one, picked from the data as the one nearest the mean (20) that
	// occurs at most 5 times, is what the lookup is for.
	{"temp_point_rare", "index_lookup (FULL on temperature), rare X",
		"SELECT * FROM events WHERE temperature = {x}",
		"SELECT temperature FROM events GROUP BY 1 HAVING count(*) <= 5 ORDER BY abs(temperature - 20), temperature LIMIT 1"},
	{"ts_topk", "topk_pruning",
		"SELECT id, ts FROM events ORDER BY ts DESC LIMIT 10", ""},
	{"temp_topk", "sorted_limit / topk_pruning (random column)",
		"SELECT id, temperature FROM events ORDER BY temperature LIMIT 10", ""},
	{"count_star", "metadata",
		"SELECT count(*) FROM events", ""},
	{"min_max_ts", "metadata",
		"SELECT min(ts), max(ts), min(id), max(id) FROM events", ""},
	{"max_temp", "metadata (a DOUBLE: NaN must be ruled out)",
		"SELECT max(temperature) FROM events", ""},
	{"group_category", "dict_codes",
		"SELECT category, count(*) FROM events GROUP BY category ORDER BY category", ""},
}

// measure is one query × format × rules setting.
type measure struct {
	wall, cpu   time.Duration // medians
	units, skip int64         // units in the scans, skipped
	bytes       int64         // bytes read by the scans
	rows        int
	answer      string // rendered result, to compare on with off
	err         error
	runs        int
}

func main() {
	dir := flag.String("dir", "data", "directory holding events.parquet and events.b2d")
	threads := flag.Int("threads", 2, "threads")
	runs := flag.Int("runs", 3, "timed runs per query and setting, after one warm-up")
	formats := flag.String("formats", "parquet,b2d", "comma list of tables to measure: an extension (parquet, b2d, b2z: DIR/events.<ext>) or a file name in DIR (events_full.b2d)")
	only := flag.String("queries", "all", "all or a comma list of query names")
	markdown := flag.Bool("markdown", false, "print a markdown table")
	off := flag.String("off", "all", "what \"off\" means: all (SET pruning = off: every optimizer and scan rule, column pruning included) or index (the index rules only: answer_from_metadata and every scan rule; columns are still pruned)")
	flag.Parse()
	offSQL, ok := offSettings[*off]
	if !ok {
		fmt.Fprintln(os.Stderr, "rules: -off takes all or index")
		os.Exit(2)
	}
	if err := run(os.Stdout, *dir, *threads, *runs, strings.Split(*formats, ","), *only, *markdown, offSQL); err != nil {
		fmt.Fprintln(os.Stderr, "rules:", err)
		os.Exit(1)
	}
}

// onSQL and offSettings are the statements that switch the rules on and off.
var (
	onSQL       = []string{"SET pruning = on", "SET disabled_rules = ''"}
	offSettings = map[string][]string{
		"all": {"SET disabled_rules = ''", "SET pruning = off"},
		"index": {"SET pruning = on", "SET disabled_rules = 'answer_from_metadata,block_pruning,page_index,bloom_filter," +
			"late_materialization,index_lookup,sorted_limit,topk_pruning,dict_codes'"},
	}
)

func run(w io.Writer, dir string, threads, runs int, formats []string, only string, markdown bool, offSQL []string) error {
	var qs []query
	for _, q := range queries {
		if only == "all" || slices.Contains(strings.Split(only, ","), q.name) {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return fmt.Errorf("no query matches -queries=%s", only)
	}
	fmt.Fprintf(w, "b2sql rules on vs off (%s): threads=%d, runs=%d (median), load %s\n", strings.Join(offSQL, "; "), threads, runs, proc.LoadAvg())
	sep := "  "
	if markdown {
		fmt.Fprintln(w, "\n| query | rule | format | on wall | on cpu | off wall | off cpu | wall × | cpu × | units read on / off | bytes on / off | agree |")
		fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---|")
	}
	var notes []string // printed after the table (the X picked per table)
	for _, f := range formats {
		f = strings.TrimSpace(f)
		path := filepath.Join(dir, f)
		if !strings.Contains(f, ".") {
			path = filepath.Join(dir, "events."+f)
		}
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(w, "(%s: %v; left out)\n", f, err)
			continue
		}
		db, err := b2sql.Open("", b2sql.WithThreads(threads))
		if err != nil {
			return err
		}
		if err := db.RegisterTable("events", path); err != nil {
			db.Close()
			return err
		}
		n, err := rowCount(db)
		if err != nil {
			db.Close()
			return err
		}
		if !markdown {
			fmt.Fprintf(w, "\n%s (%d rows)\n", path, n)
		}
		for _, q := range qs {
			x := ""
			if q.pick != "" {
				if x, err = pick(db, q.pick); err != nil {
					notes = append(notes, fmt.Sprintf("%s on %s: picking X: %v; left out", q.name, f, err))
					continue
				}
				notes = append(notes, fmt.Sprintf("%s on %s: X = %s, picked by %s", q.name, f, x, q.pick))
			}
			sql := strings.NewReplacer("{rows}", fmt.Sprint(n), "{mid}", fmt.Sprint(n/2+12345), "{x}", x).Replace(q.sql)
			fmt.Fprintf(os.Stderr, "%s %s ...\n", f, q.name)
			on := measureQuery(db, sql, onSQL, runs)
			off := measureQuery(db, sql, offSQL, runs)
			agree := "yes"
			switch {
			case on.err != nil || off.err != nil:
				agree = fmt.Sprintf("error: on %v, off %v", on.err, off.err)
			case !sameAnswer(on.answer, off.answer):
				agree = "NO: " + firstDiff(on.answer, off.answer)
			}
			if markdown {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d / %d | %s / %s | %s |\n",
					q.name, q.rule, f, ms(on.wall), ms(on.cpu), ms(off.wall), ms(off.cpu),
					ratio(off.wall, on.wall), ratio(off.cpu, on.cpu),
					on.units-on.skip, off.units-off.skip, size(on.bytes), size(off.bytes), agree)
				continue
			}
			fmt.Fprintf(w, "%-15s%s%-44s on: %9s wall %9s cpu %7d/%d units %9s | off: %9s wall %9s cpu %7d/%d units %9s | ×%s wall ×%s cpu | agree: %s\n",
				q.name, sep, q.rule, ms(on.wall), ms(on.cpu), on.units-on.skip, on.units, size(on.bytes),
				ms(off.wall), ms(off.cpu), off.units-off.skip, off.units, size(off.bytes),
				ratio(off.wall, on.wall), ratio(off.cpu, on.cpu), agree)
		}
		db.Close()
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	fmt.Fprintln(w, "\nunits read = units in the query's scans minus those skipped (Parquet row groups, CTable blocks); bytes = bytes read from disk by the scans; × = off / on")
	return nil
}

func rowCount(db *b2sql.DB) (int64, error) {
	rows, err := db.Query(context.Background(), "SELECT count(*) FROM events")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return 0, err
		}
	}
	return n, rows.Err()
}

// pick runs sql with the rules on and returns the first cell of its answer.
func pick(db *b2sql.DB, sql string) (string, error) {
	for _, st := range onSQL {
		if err := exec(db, st); err != nil {
			return "", err
		}
	}
	ans, n, _, err := runOnce(db, sql)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", fmt.Errorf("no row")
	}
	first, _, _ := strings.Cut(ans, "\n")
	cell, _, _ := strings.Cut(first, "\t")
	return cell, nil
}

// measureQuery runs sql once to warm up (its answer and scan counters are
// kept) and then runs times, after the settings statements.
func measureQuery(db *b2sql.DB, sql string, settings []string, runs int) measure {
	var m measure
	for _, st := range settings {
		if err := exec(db, st); err != nil {
			m.err = fmt.Errorf("%s: %w", st, err)
			return m
		}
	}
	var walls, cpus []time.Duration
	for k := 0; k <= runs; k++ {
		c0, t0 := proc.CPUTime(), time.Now()
		ans, nrows, p, err := runOnce(db, sql)
		wall, cpu := time.Since(t0), proc.CPUTime()-c0
		if err != nil {
			m.err = err
			return m
		}
		if k == 0 {
			m.answer, m.rows = ans, nrows
			m.units, m.skip, m.bytes = p.Units, p.UnitsSkipped, p.Bytes
			continue
		}
		walls, cpus = append(walls, wall), append(cpus, cpu)
	}
	m.wall, m.cpu, m.runs = median(walls), median(cpus), runs
	return m
}

// runOnce runs sql and renders its rows; the scan counters are read after
// the last row, before Close.
func runOnce(db *b2sql.DB, sql string) (string, int, b2sql.Progress, error) {
	rows, err := db.Query(context.Background(), sql)
	if err != nil {
		return "", 0, b2sql.Progress{}, err
	}
	defer rows.Close()
	var b strings.Builder
	n := 0
	for rows.Next() {
		for i, v := range rows.Values() {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(v.String())
		}
		b.WriteByte('\n')
		n++
	}
	p := rows.Progress()
	return b.String(), n, p, rows.Err()
}

func exec(db *b2sql.DB, sql string) error {
	rows, err := db.Query(context.Background(), sql)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	return rows.Close()
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// sameAnswer compares two rendered results as sorted row sets (a query
// without ORDER BY may return its rows in any order), cell by cell;
// numbers with a fraction may differ in the last digits (a parallel sum
// adds in another order), so they compare with a relative tolerance of 1e-9.
func sameAnswer(a, b string) bool {
	if a == b {
		return true
	}
	ra, rb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(ra)
	slices.Sort(rb)
	ca, cb := strings.FieldsFunc(strings.Join(ra, "\n"), isSep), strings.FieldsFunc(strings.Join(rb, "\n"), isSep)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if ca[i] == cb[i] {
			continue
		}
		x, err1 := strconv.ParseFloat(ca[i], 64)
		y, err2 := strconv.ParseFloat(cb[i], 64)
		if err1 != nil || err2 != nil || !strings.Contains(ca[i], ".") ||
			math.Abs(x-y) > 1e-9*math.Max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}

func isSep(r rune) bool { return r == '\t' || r == '\n' }

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("row %d: on %q, off %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("on %d rows, off %d rows", len(la)-1, len(lb)-1)
}

func ms(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.0f µs", float64(d)/1e3)
}

func ratio(off, on time.Duration) string {
	if on <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(off)/float64(on))
}

func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
