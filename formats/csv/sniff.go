package csv

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/strftime"
)

// Sniffed is what the sniffer found in a sample: the dialect, whether the
// first record is a header, and the columns.
type Sniffed struct {
	Dialect Dialect
	Header  bool
	Columns []Column
	// DateFormat and TimestampFormat are the formats detected (or given)
	// for DATE and TIMESTAMP columns; "" means ISO 8601.
	DateFormat, TimestampFormat []string
	// Skip is the number of lines found before the records proper (a
	// title, a note: junkLines), when the skip option is not given.
	Skip int
}

// dialect candidates, in order of preference when they fit equally well
// (DuckDB's: ',' '|' ';' '\t'; '"' then '\” then none).
var (
	delimCandidates = []byte{',', '|', ';', '\t'}
	quoteCandidates = []byte{'"', '\'', 0}
)

// sampleRecords lexes up to n records (n < 0: all) of sample with d,
// skipping comment lines and blank lines of multi-column files. A lexing
// error ends the sample; bad reports it unless it is at a cut-off end.
func sampleRecords(sample []byte, d Dialect, n int, eof bool) (recs [][][]byte, bad bool) {
	lx := newLexer(d)
	pos := 0
	for pos < len(sample) && (n < 0 || len(recs) < n) {
		next, fields, comment, err := lx.fields(sample, pos)
		if err != nil {
			return recs, eof || err.err != errUnterminated
		}
		pos = next
		if comment {
			continue
		}
		recs = append(recs, fields)
	}
	return recs, false
}

// dialectScore rates how well d splits the sample: the number of records
// that have the most common field count, whether that count is above 1,
// and how many records have another count (odd).
type dialectScore struct {
	cols       int
	consistent int
	odd        int
	bad        bool
}

func (a dialectScore) better(b dialectScore) bool {
	if a.bad != b.bad {
		return !a.bad
	}
	if (a.cols > 1) != (b.cols > 1) {
		return a.cols > 1
	}
	if a.consistent != b.consistent {
		return a.consistent > b.consistent
	}
	if a.cols != b.cols {
		return a.cols > b.cols
	}
	// Lines starting with '#' that are comments leave the other records'
	// split as it is: the dialect reading them as comments has no odd
	// records left, as DuckDB's sniffer prefers it.
	return a.odd < b.odd
}

func scoreDialect(sample []byte, d Dialect, eof bool) dialectScore {
	recs, bad := sampleRecords(sample, d, 200, eof)
	counts := map[int]int{}
	best := dialectScore{bad: bad}
	for _, r := range recs {
		if len(r) == 1 && len(r[0]) == 0 {
			continue // blank line
		}
		counts[len(r)]++
	}
	total := 0
	for cols, n := range counts {
		total += n
		if n > best.consistent || n == best.consistent && cols > best.cols {
			best.cols, best.consistent = cols, n
		}
	}
	best.odd = total - best.consistent
	// A dialect whose records mostly disagree is no dialect.
	if best.consistent*2 < len(recs)-1 && len(recs) > 2 {
		best.bad = true
	}
	return best
}

// detectDialect picks the dialect that splits the sample most
// consistently, honouring the options that fix parts of it.
func detectDialect(sample []byte, o *Options, eof bool) Dialect {
	cr := o.NewLine == "\r"
	if o.NewLine == "" && bytes.IndexByte(sample, '\n') < 0 && bytes.IndexByte(sample, '\r') >= 0 {
		cr = true
	}
	delims, quotes := delimCandidates, quoteCandidates
	if o.Delim.Set {
		delims = []byte{o.Delim.V}
	}
	if o.Quote.Set {
		quotes = []byte{o.Quote.V}
	}
	comments := []byte{0, '#'}
	if o.Comment.Set {
		comments = []byte{o.Comment.V}
	}
	var best Dialect
	var bestScore dialectScore
	first := true
	for _, q := range quotes {
		escapes := []byte{q, '\\'}
		if q == 0 {
			escapes = []byte{0}
		}
		if o.Escape.Set {
			escapes = []byte{o.Escape.V}
		}
		for _, e := range escapes {
			for _, dl := range delims {
				for _, c := range comments {
					d := Dialect{Delim: dl, Quote: q, Escape: e, Comment: c, CarriageReturn: cr}
					s := scoreDialect(sample, d, eof)
					if first || s.better(bestScore) {
						best, bestScore, first = d, s, false
					}
				}
			}
		}
	}
	return best
}

// typeCandidates are the types the sniffer tries, most specific first
// (DuckDB's order): the first one every sampled value of a column fits.
var typeCandidates = []columnar.Type{columnar.TBool, columnar.TInt64, columnar.TFloat64, columnar.TTime, columnar.TDate, columnar.TTimestamp, columnar.TTimestampTZ, columnar.TVarchar}

// dateCandidates and timestampCandidates are DuckDB's format templates,
// tried when ISO 8601 does not fit, in the order DuckDB tries them (from
// the back of its list): a two-digit year first, then day-first before
// month-first. The order matters because %Y takes two digits too: tried
// first, %d-%m-%Y read "01-02-24" as the year 24 where DuckDB reads
// 2001-02-24 (%y-%m-%d). The ISO 'T' form is b2sql's own; one with a 'Z'
// is TIMESTAMP WITH TIME ZONE (fits).
var (
	dateCandidates      = formatsWithSeps([]string{"%y-%m-%d", "%Y-%m-%d", "%d-%m-%y", "%d-%m-%Y", "%m-%d-%y", "%m-%d-%Y"})
	timestampCandidates = formatsWithSeps([]string{"%y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d-%m-%y %H:%M:%S", "%d-%m-%Y %H:%M:%S", "%m-%d-%y %I:%M:%S %p", "%m-%d-%Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S.%f"})
)

func formatsWithSeps(templates []string) []*strftime.Format {
	var out []*strftime.Format
	for _, sep := range []string{"-", "/", ".", " "} {
		for _, t := range templates {
			f := bytes.ReplaceAll([]byte(t), []byte("-"), []byte(sep))
			if sep == " " && bytes.Contains([]byte(t), []byte(" ")) {
				continue
			}
			p, err := strftime.Parse(string(f))
			if err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// strictInt is the sniffer's integer test: DuckDB's sniffer takes no '+'.
func strictInt(b []byte) bool {
	if len(b) > 0 && b[0] == '+' {
		return false
	}
	_, ok := parseInt(b)
	return ok
}

// strictFloat is the sniffer's DOUBLE test: no '+', and not a bare word
// that only ParseFloat knows ("infinity" is fine, "i" is not).
func strictFloat(b []byte, sep byte) bool {
	if len(b) == 0 || b[0] == '+' {
		return false
	}
	_, ok := parseFloat(b, sep)
	return ok
}

// fits reports whether b (trimmed, not NULL) is a value of candidate t.
func fits(t columnar.Type, b []byte, sep byte, date, ts *strftime.Format) bool {
	switch t.ID {
	case columnar.Bool:
		if len(b) == 1 && (b[0] == '1' || b[0] == '0') {
			return false
		}
		_, ok := parseBool(b)
		return ok
	case columnar.Int64:
		return strictInt(b)
	case columnar.Float64:
		return strictFloat(b, sep)
	case columnar.Time:
		_, ok := parseTime(b)
		return ok
	case columnar.Date:
		if date != nil {
			_, ok := date.ParseDays(b)
			return ok
		}
		if len(b) > 10 {
			return false // a timestamp's text is no date
		}
		_, ok := parseISODate(b)
		return ok
	case columnar.Timestamp:
		if ts != nil {
			_, ok := ts.ParseMicros(b)
			return ok
		}
		_, ok := parseISOTimestamp(b)
		return ok && !hasZone(b)
	case columnar.TimestampTZ:
		// An ISO timestamp with an offset, 'Z' or a zone name: DuckDB's
		// sniffer makes it TIMESTAMP WITH TIME ZONE.
		_, ok := columnar.ParseTimestampTZ(string(b), time.UTC)
		return ok && bytes.IndexByte(b, ':') > 0
	}
	return true
}

// hasZone reports whether a timestamp's text names its zone: '+', '-' or
// 'Z' after the time of day.
func hasZone(b []byte) bool {
	i := bytes.IndexByte(b, ':')
	return i > 0 && bytes.ContainsAny(b[i:], "+-Z")
}

// columnTypes detects the type of every column of recs (rows with ncols
// fields), and the date/timestamp format of each DATE or TIMESTAMP column.
func columnTypes(recs [][][]byte, ncols int, o *Options) (types []columnar.Type, dateFmts, tsFmts []string) {
	types = make([]columnar.Type, ncols)
	dateFmts = make([]string, ncols)
	tsFmts = make([]string, ncols)
	var date, ts *strftime.Format
	if o.DateFormat != "" {
		date, _ = strftime.Parse(o.DateFormat)
	}
	if o.TimestampFormat != "" {
		ts, _ = strftime.Parse(o.TimestampFormat)
	}
	sep := o.decSep()
	vals := make([][]byte, 0, len(recs))
	cands := typeCandidates
	if date != nil || ts != nil {
		// A format the user gave is tried before the numbers.
		cands = nil
		if date != nil {
			cands = append(cands, columnar.TDate)
		}
		if ts != nil {
			cands = append(cands, columnar.TTimestamp)
		}
		cands = append(cands, typeCandidates...)
	}
	for c := range ncols {
		vals = vals[:0]
		for _, r := range recs {
			if c < len(r) && !o.isNull(r[c]) {
				vals = append(vals, trimSpace(r[c]))
			}
		}
		types[c] = columnar.TVarchar
		if len(vals) == 0 || o.AllVarchar {
			continue
		}
	candidates:
		for _, t := range cands {
			if t.ID == columnar.Varchar {
				break
			}
			fmts := []*strftime.Format{nil}
			switch {
			case t.ID == columnar.Date && date != nil:
				fmts = []*strftime.Format{date}
			case t.ID == columnar.Date:
				fmts = append(fmts, dateCandidates...)
			case t.ID == columnar.Timestamp && ts != nil:
				fmts = []*strftime.Format{ts}
			case t.ID == columnar.Timestamp:
				fmts = append(fmts, timestampCandidates...)
			}
			for _, f := range fmts {
				ok := true
				for _, v := range vals {
					var df, tf *strftime.Format
					if t.ID == columnar.Date {
						df = f
					} else {
						tf = f
					}
					if !fits(t, v, sep, df, tf) {
						ok = false
						break
					}
				}
				if ok {
					types[c] = t
					if f != nil {
						if t.ID == columnar.Date {
							dateFmts[c] = f.String()
						} else {
							tsFmts[c] = f.String()
						}
					}
					break candidates
				}
			}
		}
	}
	return types, dateFmts, tsFmts
}

// sniff detects the dialect, header and columns of a file from its first
// bytes (sample; eof if that is the whole file), honouring the options.
func sniff(sample []byte, o *Options, eof bool) (*Sniffed, error) {
	sample = bytes.TrimPrefix(sample, []byte("\xef\xbb\xbf"))
	sample = skipLines(sample, o.Skip)
	var d Dialect
	if o.AutoDetect.Set && !o.AutoDetect.V && len(o.Columns) == 0 {
		return nil, fmt.Errorf("%w: auto_detect = false needs the columns option", ErrOption)
	}
	if o.AutoDetect.Set && !o.AutoDetect.V {
		d = Dialect{Delim: ',', Quote: '"', Escape: '"'}
		if o.Delim.Set {
			d.Delim = o.Delim.V
		}
		if o.Quote.Set {
			d.Quote = o.Quote.V
			d.Escape = o.Quote.V
		}
		if o.Escape.Set {
			d.Escape = o.Escape.V
		}
		if o.Comment.Set {
			d.Comment = o.Comment.V
		}
		d.CarriageReturn = o.NewLine == "\r"
	} else {
		d = detectDialect(sample, o, eof)
	}
	if d.Delim == 0 || d.Delim == '\n' || d.Delim == '\r' || d.Delim == d.Quote && d.Quote != 0 {
		return nil, fmt.Errorf("%w: delimiter %q cannot be used with quote %q", ErrOption, d.Delim, d.Quote)
	}
	s := &Sniffed{Dialect: d}
	if o.Skip == 0 && !(o.AutoDetect.Set && !o.AutoDetect.V) && len(o.Columns) == 0 && !o.NullPadding {
		if n := junkLines(sample, d, eof); n > 0 {
			sample = skipLines(sample, n)
			s.Skip = n
		}
	}
	recs, _ := sampleRecords(sample, d, o.sampleRows(), eof)
	if !eof && len(recs) > 1 {
		recs = recs[:len(recs)-1] // the last record may be cut off
	}
	ncols := 0
	counts := map[int]int{}
	for _, r := range recs {
		if len(r) == 1 && len(r[0]) == 0 {
			continue
		}
		counts[len(r)]++
	}
	for cols, n := range counts {
		if n > counts[ncols] || n == counts[ncols] && cols > ncols {
			ncols = cols
		}
	}
	if o.NullPadding {
		for cols := range counts {
			ncols = max(ncols, cols)
		}
	}
	if len(o.Columns) > 0 {
		ncols = len(o.Columns)
	}
	if ncols == 0 {
		ncols = 1
	}
	var rows [][][]byte // records with the right field count
	firstIn := false    // rows[0] is recs[0]
	for i, r := range recs {
		if len(r) == ncols || o.NullPadding && len(r) < ncols || ncols == 1 && len(r) == 1 {
			rows = append(rows, r)
			firstIn = firstIn || i == 0
		}
	}
	// Header: the first record is one if it does not fit the types of the
	// rest, or every column is text.
	header := false
	if o.Header.Set {
		header = o.Header.V
	} else if len(recs) > 0 && len(o.Columns) == 0 {
		first := recs[0]
		rest := rows
		if firstIn {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			// One record: a header if it is all text.
			rest = rows
		}
		types, dfs, tfs := columnTypes(rest, ncols, o)
		allText := true
		for c, t := range types {
			if t.ID != columnar.Varchar {
				allText = false
				if c < len(first) && !o.isNull(first[c]) {
					df, tf := fmtOf(dfs[c]), fmtOf(tfs[c])
					if !fits(t, trimSpace(first[c]), o.decSep(), df, tf) {
						header = true
					}
				}
			}
		}
		if allText && len(first) == ncols {
			header = true
		}
	}
	s.Header = header
	data := rows
	if header && firstIn {
		data = data[1:]
	}
	if len(o.Columns) > 0 {
		s.Columns = append([]Column(nil), o.Columns...)
		s.DateFormat = make([]string, ncols)
		s.TimestampFormat = make([]string, ncols)
		for i := range s.Columns {
			s.DateFormat[i], s.TimestampFormat[i] = o.DateFormat, o.TimestampFormat
		}
		return s, nil
	}
	types, dfs, tfs := columnTypes(data, ncols, o)
	if o.AutoDetect.Set && !o.AutoDetect.V {
		for i := range types {
			types[i] = columnar.TVarchar
			dfs[i], tfs[i] = o.DateFormat, o.TimestampFormat
		}
	}
	s.DateFormat, s.TimestampFormat = dfs, tfs
	names := make([]string, ncols)
	width := len(strconv.Itoa(ncols - 1))
	for i := range names {
		if header && len(recs) > 0 && i < len(recs[0]) && len(recs[0][i]) > 0 {
			if !utf8.Valid(recs[0][i]) {
				// Not text (a compressed file read with compression
				// 'none', another encoding): DuckDB refuses it too.
				return nil, fmt.Errorf("%w: the header's column %d is not valid UTF-8 (is the file compressed, or in another encoding?)", ErrMalformed, i+1)
			}
			names[i] = string(recs[0][i])
		} else {
			names[i] = fmt.Sprintf("column%0*d", width, i)
		}
	}
	for i, n := range o.Names {
		if i < len(names) {
			names[i] = n
		}
	}
	dedupe(names)
	s.Columns = make([]Column, ncols)
	for i := range names {
		s.Columns[i] = Column{Name: names[i], Type: types[i]}
	}
	// Type overrides.
	for i, t := range o.TypesByPos {
		if i < len(s.Columns) {
			s.Columns[i].Type = t
		}
	}
	for name, t := range o.Types {
		found := false
		for i := range s.Columns {
			if s.Columns[i].Name == name {
				s.Columns[i].Type, found = t, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: types: no column named %q (columns: %v)", ErrOption, name, names)
		}
	}
	for i := range s.Columns {
		if o.DateFormat != "" {
			s.DateFormat[i] = o.DateFormat
		}
		if o.TimestampFormat != "" {
			s.TimestampFormat[i] = o.TimestampFormat
		}
	}
	return s, nil
}

func fmtOf(s string) *strftime.Format {
	if s == "" {
		return nil
	}
	f, _ := strftime.Parse(s)
	return f
}

// dedupe renames repeated names as DuckDB does: a, a_1, a_2.
func dedupe(names []string) {
	seen := map[string]bool{}
	for i, n := range names {
		if !seen[n] {
			seen[n] = true
			continue
		}
		for k := 1; ; k++ {
			c := fmt.Sprintf("%s_%d", n, k)
			if !seen[c] {
				names[i], seen[c] = c, true
				break
			}
		}
	}
}

// junkLines is the number of lines before the sample's records proper,
// as DuckDB's sniffer finds them (skip_rows auto-detected): records at the
// top with fewer fields than the dialect's usual count (a title, a note,
// a short header line), before the first record of that count. A record
// with more fields, or none such, means there is nothing to skip.
func junkLines(sample []byte, d Dialect, eof bool) int {
	if d.CarriageReturn {
		return 0 // skipLines counts '\n' lines
	}
	cols := scoreDialect(sample, d, eof).cols
	if cols < 2 {
		return 0
	}
	lx := newLexer(d)
	pos, lines, junk := 0, 0, false
	for k := 0; k < 100 && pos < len(sample); k++ {
		next, fields, comment, err := lx.fields(sample, pos)
		if err != nil {
			return 0
		}
		if !comment && len(fields) >= cols {
			if !junk {
				return 0
			}
			return lines
		}
		if !comment && !(len(fields) == 1 && len(fields[0]) == 0) {
			junk = true
		}
		lines += bytes.Count(sample[pos:next], []byte{'\n'})
		pos = next
	}
	return 0
}

// skipLines drops the first n lines of b.
func skipLines(b []byte, n int) []byte {
	for ; n > 0 && len(b) > 0; n-- {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return b[len(b):]
		}
		b = b[i+1:]
	}
	return b
}
