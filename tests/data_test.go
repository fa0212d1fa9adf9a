package tests

// Data directives of the sqllogictest runner. They write Parquet files with
// arrow-go's pqarrow writer (never b2sql's own writer, so that a writer bug
// cannot hide a reader bug) into the file's temporary directory and register
// them with DB.RegisterTable. The CTable copies can only come from b2sql's
// ctable writer (there is no other Go one); the Parquet cells, written
// independently, check it.
//
// Literal rows:
//
//	table <name> [rowgroup=N] [file=rel/path.parquet] [noregister]
//	id BIGINT NOT NULL, name VARCHAR, price DECIMAL(10,2), d DATE
//	1	alice	1.50	2024-01-01
//	2	NULL	NULL	2024-02-29
//
// The first line after the directive lists the columns (comma-separated,
// "NOT NULL" makes a REQUIRED column, a name in double quotes may be a
// keyword or hold spaces); each further line up to a blank line
// is a row, values separated by one tab. NULL is NULL, (empty) an empty
// string. Text forms: BOOLEAN true/false; DATE YYYY-MM-DD; TIMESTAMP
// YYYY-MM-DD HH:MM:SS[.ffffff]; DECIMAL as written (exact); BLOB as text
// with \xHH for any byte.
//
// Generated rows:
//
//	generate <name> rows=N [rowgroup=N] [file=...] [noregister]
//	id BIGINT seq
//	g INTEGER mod 7
//	x DOUBLE seq*0.5
//	n INTEGER nullevery 10
//	k VARCHAR i%100 prefix=k pad=3
//	d DATE i/1000 base=2024-01-01
//
// One column per line: name, type, then a formula over the 0-based row
// number i (also spelled seq). The formula is an arithmetic expression
// (+ - * / % and parentheses; / truncates when both sides are integers,
// as in Go) followed by optional words:
//
//	mod K          the expression i % K (instead of writing one)
//	nullevery K    the value is NULL when i % K == 0
//	nullwhen E     the value is NULL when expression E (one word) is non-zero,
//	               e.g. nullwhen 1-(i/100)%2 for all-NULL even row groups
//	prefix=S pad=W VARCHAR/BLOB: S followed by the value, zero-padded to W digits
//	fill=N         VARCHAR/BLOB: N 'x' between the prefix and the value (long
//	               strings, whose statistics writers truncate or drop)
//	base=DATE|TS   DATE: base plus value days; TIMESTAMP (base given as
//	               YYYY-MM-DDTHH:MM:SS or a date): base plus value seconds
//
// With no expression the value is i. BOOLEAN is value != 0, DECIMAL(p,s)
// the value rounded to s digits, FLOAT/DOUBLE the value converted.
//
// rowgroup=N writes N rows per row group (default: everything in one), so
// that row-group statistics and pruning are exercised. Encoding options, to
// exercise the reader: pagesize=BYTES (data page size; small values give
// many pages per column chunk), dict=on|off (dictionary encoding, default
// on), pagev=1|2 (data page version), compression=none|snappy|gzip|zstd|
// brotli|lz4 (default none), encoding=delta|deltalength (DELTA_BINARY_PACKED
// integers, BYTE_STREAM_SPLIT floats, DELTA_BYTE_ARRAY or
// DELTA_LENGTH_BYTE_ARRAY strings), timestamps=us|ms|ns|int96 (how TIMESTAMP
// columns are stored; ms needs whole milliseconds), stats=on|off (column
// chunk statistics; off leaves nothing to prune with or answer from),
// decimals=int|flba (DECIMAL(p ≤ 18) as INT32/INT64, the default as in
// DuckDB, or as big-endian FIXED_LEN_BYTE_ARRAY; p > 18 is always FLBA). The file is
// <name>.parquet unless file= names a path relative to the test directory
// (what __TESTDIR__ expands to). noregister only writes the file.
//
// Each registered table is also written as a CTable, .b2d and .b2z, with
// b2sql's ctable writer (ctable_data_test.go), and every cell of the matrix
// registers the copy of its format. Options for the CTable copies and for
// data shaped to hit the scan rules:
//
//	chunk=N block=N  CTable chunk and block rows (default: rowgroup= for
//	                 both, else the writer's 65536/8192); SUMMARY segments
//	                 are blocks, so small blocks give many pruning units
//	delete=E         rows where expression E (over i, one word) is non-zero
//	                 are deleted: absent from the Parquet file, tombstoned
//	                 through _valid_rows in the CTables
//	full=a,b         FULL indexes on these columns of the CTables (what
//	                 CREATE INDEX … USING FULL builds): lookups and ORDER BY
//	                 … LIMIT through the index
//	stale=N          the CTables' SUMMARY indexes cover only the first N
//	                 rows, as after appends to an indexed table; the reader
//	                 must not prune with them
//	formats=parquet  the table is Parquet in every cell (say why in a
//	                 comment: CTable has no DATE or DECIMAL kind, and the
//	                 runner refuses such tables in CTable cells)
//
// A file that only makes sense for some formats starts with
//
//	only parquet: <reason>
//
// (a comma list of parquet, b2d, b2z); the runner logs the reason. Tables
// with noregister, and files reached through register or a path in SQL,
// are Parquet in every cell.
//
// Formula words for rule-shaped data, besides nullwhen: nanwhen E (FLOAT
// and DOUBLE: NaN where E is non-zero). Sorted, clustered and random
// orders are formulas: seq; (i/30)*30+(i*7)%30 (each run of 30 rows a
// permutation of its own values); (i*P)%N with P prime to N (a
// permutation of 0..N-1) — all with answers computable by hand.
//
//	register <name> <path or glob>
//
// calls DB.RegisterTable(name, path) after expanding __TESTDIR__.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// colType is a column type as written in a directive.
type colType struct {
	name         string // BIGINT, DECIMAL, ...
	prec, scale  int    // DECIMAL
	bits         int    // integer width
	signed, uint bool
}

type colSpec struct {
	name    string
	typ     colType
	notNull bool
	gen     *formula // generate only
}

type dataSpec struct {
	name       string
	rowGroup   int
	file       string
	noRegister bool
	rows       int // generate
	pageSize   int64
	noDict     bool
	codec      compress.Compression
	pageV2     bool
	tsUnit     string // TIMESTAMP storage: "us" (default), "ms", "ns" or "int96"
	noStats    bool
	encoding   string // "", "delta" or "deltalength": non-dictionary encodings
	decFLBA    bool   // DECIMAL as FIXED_LEN_BYTE_ARRAY instead of INT32/INT64
	// CTable copies (ctable_data_test.go).
	chunkRows, blockRows int      // CTable grid; 0: from rowgroup= or defaults
	deleteWhen           *expr    // rows deleted where non-zero
	stale                int      // SUMMARY built over this many first rows; -1: all
	fullIndex            []string // FULL indexes built on the CTables (CREATE INDEX … USING FULL)
	parquetOnly          bool     // formats=parquet: Parquet in every cell
	cols                 []colSpec
	cells                [][]string // table: one []string per row
}

func parseDataHeader(fields []string) (*dataSpec, error) {
	if len(fields) < 2 {
		return nil, fmt.Errorf("%s needs a table name", fields[0])
	}
	ds := &dataSpec{name: fields[1], rows: -1, stale: -1}
	for _, opt := range fields[2:] {
		k, v, _ := strings.Cut(opt, "=")
		switch k {
		case "rowgroup", "rows":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (k == "rowgroup" && n == 0) {
				return nil, fmt.Errorf("bad %s", opt)
			}
			if k == "rowgroup" {
				ds.rowGroup = n
			} else {
				ds.rows = n
			}
		case "chunk", "block", "stale":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (k != "stale" && n == 0) {
				return nil, fmt.Errorf("bad %s", opt)
			}
			switch k {
			case "chunk":
				ds.chunkRows = n
			case "block":
				ds.blockRows = n
			default:
				ds.stale = n
			}
		case "full":
			if v == "" {
				return nil, fmt.Errorf("full= needs column names")
			}
			ds.fullIndex = strings.Split(v, ",")
		case "delete":
			e, err := parseExpr(v)
			if err != nil {
				return nil, fmt.Errorf("delete=: %v", err)
			}
			ds.deleteWhen = e
		case "formats":
			if v != fmtParquet {
				return nil, fmt.Errorf("formats= takes parquet (a table stored as Parquet in every cell)")
			}
			ds.parquetOnly = true
		case "file":
			if v == "" || filepath.IsAbs(v) || strings.Contains(v, "..") {
				return nil, fmt.Errorf("file= must be a relative path inside the test directory")
			}
			ds.file = v
		case "noregister":
			ds.noRegister = true
		case "pagesize":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("bad %s", opt)
			}
			ds.pageSize = n
		case "dict":
			if v != "on" && v != "off" {
				return nil, fmt.Errorf("dict= takes on or off")
			}
			ds.noDict = v == "off"
		case "pagev":
			if v != "1" && v != "2" {
				return nil, fmt.Errorf("pagev= takes 1 or 2")
			}
			ds.pageV2 = v == "2"
		case "decimals":
			if v != "int" && v != "flba" {
				return nil, fmt.Errorf("decimals= takes int or flba")
			}
			ds.decFLBA = v == "flba"
		case "encoding":
			if v != "delta" && v != "deltalength" {
				return nil, fmt.Errorf("encoding= takes delta or deltalength")
			}
			ds.encoding = v
		case "stats":
			if v != "on" && v != "off" {
				return nil, fmt.Errorf("stats= takes on or off")
			}
			ds.noStats = v == "off"
		case "timestamps":
			switch v {
			case "us", "ms", "ns", "int96":
			default:
				return nil, fmt.Errorf("timestamps= takes us, ms, ns or int96")
			}
			ds.tsUnit = v
		case "compression":
			c, ok := map[string]compress.Compression{
				"none": compress.Codecs.Uncompressed, "snappy": compress.Codecs.Snappy,
				"gzip": compress.Codecs.Gzip, "zstd": compress.Codecs.Zstd,
				"brotli": compress.Codecs.Brotli, "lz4": compress.Codecs.Lz4Raw,
			}[v]
			if !ok {
				return nil, fmt.Errorf("unknown compression %q", v)
			}
			ds.codec = c
		default:
			return nil, fmt.Errorf("unknown option %q", opt)
		}
	}
	if fields[0] == "generate" && ds.rows < 0 {
		return nil, fmt.Errorf("generate needs rows=N")
	}
	if fields[0] == "table" && ds.rows >= 0 {
		return nil, fmt.Errorf("table takes no rows= (the rows follow)")
	}
	if ds.chunkRows > 0 && ds.blockRows > ds.chunkRows {
		return nil, fmt.Errorf("block= cannot exceed chunk=")
	}
	if ds.parquetOnly && (ds.deleteWhen != nil || ds.stale >= 0 || ds.chunkRows > 0 || ds.blockRows > 0 || ds.fullIndex != nil) {
		return nil, fmt.Errorf("formats=parquet leaves no CTable copy for delete=, stale=, full=, chunk= or block=")
	}
	return ds, nil
}

// splitTop splits s at commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for k, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:k])
				start = k + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseColType(s string) (colType, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	t := colType{name: s}
	switch s {
	case "TINYINT":
		t.bits, t.signed = 8, true
	case "SMALLINT":
		t.bits, t.signed = 16, true
	case "INTEGER", "INT":
		t.name, t.bits, t.signed = "INTEGER", 32, true
	case "BIGINT":
		t.bits, t.signed = 64, true
	case "UTINYINT":
		t.bits, t.uint = 8, true
	case "USMALLINT":
		t.bits, t.uint = 16, true
	case "UINTEGER":
		t.bits, t.uint = 32, true
	case "UBIGINT":
		t.bits, t.uint = 64, true
	case "BOOLEAN", "FLOAT", "DOUBLE", "VARCHAR", "BLOB", "DATE", "TIMESTAMP", "TIME":
	default:
		if rest, ok := strings.CutPrefix(s, "DECIMAL("); ok && strings.HasSuffix(rest, ")") {
			ps := strings.Split(strings.TrimSuffix(rest, ")"), ",")
			if len(ps) == 2 {
				p, err1 := strconv.Atoi(strings.TrimSpace(ps[0]))
				sc, err2 := strconv.Atoi(strings.TrimSpace(ps[1]))
				if err1 == nil && err2 == nil && p >= 1 && p <= 38 && sc >= 0 && sc <= p {
					return colType{name: "DECIMAL", prec: p, scale: sc}, nil
				}
			}
		}
		return t, fmt.Errorf("unknown column type %q", s)
	}
	return t, nil
}

// parseColDecl parses "name TYPE [NOT NULL]" and returns the rest of the
// line after the type (the formula, for generate).
func parseColDecl(s string) (colSpec, string, error) {
	s = strings.TrimSpace(s)
	var name, rest string
	ok := false
	if q, found := strings.CutPrefix(s, `"`); found {
		// A quoted name may hold spaces or be a keyword.
		name, rest, ok = strings.Cut(q, `"`)
	} else {
		name, rest, ok = strings.Cut(s, " ")
	}
	if !ok || name == "" {
		return colSpec{}, "", fmt.Errorf("column %q needs a name and a type", s)
	}
	rest = strings.TrimSpace(rest)
	// The type is one word, or DECIMAL(p, s) which may hold spaces.
	var typ string
	if up := strings.ToUpper(rest); strings.HasPrefix(up, "DECIMAL(") {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return colSpec{}, "", fmt.Errorf("unclosed DECIMAL(")
		}
		typ, rest = rest[:end+1], rest[end+1:]
	} else {
		typ, rest, _ = strings.Cut(rest, " ")
	}
	ct, err := parseColType(typ)
	if err != nil {
		return colSpec{}, "", err
	}
	c := colSpec{name: name, typ: ct}
	rest = strings.TrimSpace(rest)
	if up := strings.ToUpper(rest); strings.HasPrefix(up, "NOT NULL") {
		c.notNull = true
		rest = strings.TrimSpace(rest[len("NOT NULL"):])
	}
	return c, rest, nil
}

func (ds *dataSpec) parseTableBody(body []string) error {
	if len(body) == 0 {
		return fmt.Errorf("table needs a column line")
	}
	for _, decl := range splitTop(body[0]) {
		c, rest, err := parseColDecl(decl)
		if err != nil {
			return err
		}
		if rest != "" {
			return fmt.Errorf("column %s: unexpected %q", c.name, rest)
		}
		ds.cols = append(ds.cols, c)
	}
	for k, line := range body[1:] {
		cells := strings.Split(line, "\t")
		if len(cells) != len(ds.cols) {
			return fmt.Errorf("row %d has %d tab-separated values, want %d", k+1, len(cells), len(ds.cols))
		}
		for j, cell := range cells {
			if _, err := parseCell(ds.cols[j], cell); err != nil {
				return fmt.Errorf("row %d column %s: %v", k+1, ds.cols[j].name, err)
			}
		}
		ds.cells = append(ds.cells, cells)
	}
	ds.rows = len(ds.cells)
	return ds.checkRowOptions()
}

// checkRowOptions validates the options that name rows: stale= within the
// table, delete= evaluable on every row.
func (ds *dataSpec) checkRowOptions() error {
	if ds.stale > ds.rows {
		return fmt.Errorf("stale=%d exceeds the %d rows", ds.stale, ds.rows)
	}
	if ds.deleteWhen != nil {
		for i := 0; i < ds.rows; i++ {
			if _, err := ds.deleteWhen.eval(int64(i)); err != nil {
				return fmt.Errorf("delete= at row %d: %v", i, err)
			}
		}
	}
	return nil
}

// deleted reports whether row i is deleted (absent from the Parquet copy,
// tombstoned in the CTable copies).
func (ds *dataSpec) deleted(i int) bool {
	if ds.deleteWhen == nil {
		return false
	}
	n, _ := ds.deleteWhen.eval(int64(i)) // checked by checkRowOptions
	return n.float() != 0
}

func (ds *dataSpec) parseGenerateBody(body []string) error {
	if len(body) == 0 {
		return fmt.Errorf("generate needs column lines")
	}
	for _, line := range body {
		c, rest, err := parseColDecl(line)
		if err != nil {
			return err
		}
		f, err := parseFormula(c.typ, rest)
		if err != nil {
			return fmt.Errorf("column %s: %v", c.name, err)
		}
		c.gen = f
		ds.cols = append(ds.cols, c)
	}
	// Evaluate every row once so that a bad formula fails at parse time.
	for j, c := range ds.cols {
		for i := 0; i < ds.rows; i++ {
			v, err := c.gen.eval(c.typ, int64(i))
			if err != nil {
				return fmt.Errorf("column %s row %d: %v", c.name, i, err)
			}
			if v.null && c.notNull {
				return fmt.Errorf("column %s row %d: NULL in a NOT NULL column", ds.cols[j].name, i)
			}
		}
	}
	return ds.checkRowOptions()
}

// cell is one typed value on its way into an arrow builder.
type cell struct {
	null bool
	i    int64 // ints, bool, date (days), timestamp (µs), decimal (unscaled)
	u    uint64
	f    float64
	s    string
}

func parseCell(c colSpec, text string) (cell, error) {
	if text == "NULL" {
		if c.notNull {
			return cell{}, fmt.Errorf("NULL in a NOT NULL column")
		}
		return cell{null: true}, nil
	}
	t := c.typ
	switch {
	case t.signed:
		v, err := strconv.ParseInt(text, 10, t.bits)
		return cell{i: v}, err
	case t.uint:
		v, err := strconv.ParseUint(text, 10, t.bits)
		return cell{u: v}, err
	}
	switch t.name {
	case "BOOLEAN":
		switch strings.ToLower(text) {
		case "true", "t", "1":
			return cell{i: 1}, nil
		case "false", "f", "0":
			return cell{}, nil
		}
		return cell{}, fmt.Errorf("bad BOOLEAN %q", text)
	case "FLOAT", "DOUBLE":
		v, err := strconv.ParseFloat(text, 64)
		return cell{f: v}, err
	case "DECIMAL":
		v, err := parseDecimal(text, t.prec, t.scale)
		return cell{i: v}, err
	case "VARCHAR", "BLOB":
		if text == "(empty)" {
			text = ""
		}
		if t.name == "BLOB" {
			return cell{s: unescapeBlob(text)}, nil
		}
		return cell{s: text}, nil
	case "DATE", "TIMESTAMP":
		// ±infinity: DuckDB's payloads, the extremes of int32 days and of
		// int64 microseconds (columnar.DateInfinity, TimestampInfinity).
		if sign := map[string]int64{"infinity": 1, "-infinity": -1}[text]; sign != 0 {
			if t.name == "TIMESTAMP" {
				return cell{i: sign * (1<<63 - 1)}, nil
			}
			return cell{i: sign * (1<<31 - 1)}, nil
		}
	}
	switch t.name {
	case "DATE":
		d, err := time.Parse("2006-01-02", text)
		if err != nil {
			return cell{}, err
		}
		return cell{i: floorDiv(d.Unix(), 86400)}, nil
	case "TIMESTAMP":
		ts, err := time.Parse("2006-01-02 15:04:05.999999", text)
		if err != nil {
			return cell{}, err
		}
		return cell{i: ts.UnixMicro()}, nil
	case "TIME":
		// HH:MM:SS[.ffffff]: microseconds since midnight, written as
		// Parquet TIME(MICROS).
		ts, err := time.Parse("15:04:05.999999", text)
		if err != nil {
			return cell{}, err
		}
		return cell{i: int64(ts.Hour())*3_600_000_000 + int64(ts.Minute())*60_000_000 + int64(ts.Second())*1_000_000 + int64(ts.Nanosecond()/1000)}, nil
	}
	return cell{}, fmt.Errorf("no text form for %s", t.name)
}

// unescapeBlob turns \xHH sequences of a BLOB cell into bytes.
func unescapeBlob(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// parseDecimal reads an exact decimal string into an int64 scaled by 10^scale.
func parseDecimal(text string, prec, scale int) (int64, error) {
	s := text
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	ip, fp, _ := strings.Cut(s, ".")
	if len(fp) > scale {
		return 0, fmt.Errorf("%q has more than %d decimals", text, scale)
	}
	fp += strings.Repeat("0", scale-len(fp))
	digits := strings.TrimLeft(ip+fp, "0")
	if len(digits) > prec || len(digits) > 18 {
		return 0, fmt.Errorf("%q does not fit DECIMAL(%d,%d) (or exceeds 18 digits)", text, prec, scale)
	}
	if digits == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad DECIMAL %q", text)
	}
	if neg {
		v = -v
	}
	return v, nil
}

// formulas --------------------------------------------------------------------

type formula struct {
	expr      *expr
	nullEvery int64
	nullWhen  *expr // NULL where it evaluates to non-zero
	nanWhen   *expr // FLOAT/DOUBLE: NaN where it evaluates to non-zero
	prefix    string
	pad       int
	fill      int   // VARCHAR/BLOB: this many 'x' between prefix and value
	baseDays  int64 // DATE
	baseMicro int64 // TIMESTAMP
}

func parseFormula(t colType, s string) (*formula, error) {
	f := &formula{}
	var exprWords []string
	words := strings.Fields(s)
	for k := 0; k < len(words); k++ {
		w := words[k]
		next := func() (int64, error) {
			if k+1 >= len(words) {
				return 0, fmt.Errorf("%s needs a number", w)
			}
			k++
			n, err := strconv.ParseInt(words[k], 10, 64)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("%s needs a positive integer", w)
			}
			return n, nil
		}
		switch {
		case w == "mod":
			n, err := next()
			if err != nil {
				return nil, err
			}
			exprWords = append(exprWords, fmt.Sprintf("(i%%%d)", n))
		case w == "nullwhen":
			if k+1 >= len(words) {
				return nil, fmt.Errorf("nullwhen needs an expression (one word)")
			}
			k++
			e, err := parseExpr(words[k])
			if err != nil {
				return nil, err
			}
			f.nullWhen = e
		case w == "nanwhen":
			if k+1 >= len(words) {
				return nil, fmt.Errorf("nanwhen needs an expression (one word)")
			}
			k++
			e, err := parseExpr(words[k])
			if err != nil {
				return nil, err
			}
			f.nanWhen = e
		case w == "nullevery":
			n, err := next()
			if err != nil {
				return nil, err
			}
			f.nullEvery = n
		case strings.HasPrefix(w, "prefix="):
			f.prefix = strings.TrimPrefix(w, "prefix=")
		case strings.HasPrefix(w, "fill="):
			n, err := strconv.Atoi(strings.TrimPrefix(w, "fill="))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad %s", w)
			}
			f.fill = n
		case strings.HasPrefix(w, "pad="):
			n, err := strconv.Atoi(strings.TrimPrefix(w, "pad="))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad %s", w)
			}
			f.pad = n
		case strings.HasPrefix(w, "base="):
			v := strings.TrimPrefix(w, "base=")
			var ts time.Time
			var err error
			if strings.Contains(v, "T") {
				ts, err = time.Parse("2006-01-02T15:04:05", v)
			} else {
				ts, err = time.Parse("2006-01-02", v)
			}
			if err != nil {
				return nil, fmt.Errorf("bad %s", w)
			}
			f.baseDays = floorDiv(ts.Unix(), 86400)
			f.baseMicro = ts.UnixMicro()
		default:
			exprWords = append(exprWords, w)
		}
	}
	src := strings.Join(exprWords, "")
	if src == "" {
		src = "i"
	}
	e, err := parseExpr(src)
	if err != nil {
		return nil, err
	}
	f.expr = e
	if (f.prefix != "" || f.pad != 0 || f.fill != 0) && t.name != "VARCHAR" && t.name != "BLOB" {
		return nil, fmt.Errorf("prefix= and pad= apply to VARCHAR and BLOB only")
	}
	if f.nanWhen != nil && t.name != "FLOAT" && t.name != "DOUBLE" {
		return nil, fmt.Errorf("nanwhen applies to FLOAT and DOUBLE only")
	}
	return f, nil
}

func (f *formula) eval(t colType, i int64) (cell, error) {
	if f.nullEvery > 0 && i%f.nullEvery == 0 {
		return cell{null: true}, nil
	}
	if f.nullWhen != nil {
		c, err := f.nullWhen.eval(i)
		if err != nil {
			return cell{}, err
		}
		if c.float() != 0 {
			return cell{null: true}, nil
		}
	}
	if f.nanWhen != nil {
		c, err := f.nanWhen.eval(i)
		if err != nil {
			return cell{}, err
		}
		if c.float() != 0 {
			return cell{f: math.NaN()}, nil
		}
	}
	n, err := f.expr.eval(i)
	if err != nil {
		return cell{}, err
	}
	asInt := func() (int64, error) {
		if n.isFloat {
			if n.f != math.Trunc(n.f) || math.Abs(n.f) > 1<<62 {
				return 0, fmt.Errorf("%v is not an integer", n.f)
			}
			return int64(n.f), nil
		}
		return n.i, nil
	}
	switch {
	case t.signed:
		v, err := asInt()
		if err != nil {
			return cell{}, err
		}
		lo, hi := int64(-1)<<(t.bits-1), int64(1)<<(t.bits-1)-1
		if t.bits == 64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		if v < lo || v > hi {
			return cell{}, fmt.Errorf("%d does not fit %s", v, t.name)
		}
		return cell{i: v}, nil
	case t.uint:
		v, err := asInt()
		if err != nil {
			return cell{}, err
		}
		if v < 0 || (t.bits < 64 && v >= int64(1)<<t.bits) {
			return cell{}, fmt.Errorf("%d does not fit %s", v, t.name)
		}
		return cell{u: uint64(v)}, nil
	}
	switch t.name {
	case "BOOLEAN":
		if n.float() != 0 {
			return cell{i: 1}, nil
		}
		return cell{}, nil
	case "FLOAT", "DOUBLE":
		return cell{f: n.float()}, nil
	case "DECIMAL":
		v := math.Round(n.float() * math.Pow10(t.scale))
		if !n.isFloat {
			v = float64(n.i) * math.Pow10(t.scale)
		}
		if math.Abs(v) >= math.Pow10(t.prec) {
			return cell{}, fmt.Errorf("%v does not fit DECIMAL(%d,%d)", n.float(), t.prec, t.scale)
		}
		return cell{i: int64(v)}, nil
	case "VARCHAR", "BLOB":
		var s string
		if n.isFloat {
			s = strconv.FormatFloat(n.f, 'f', -1, 64)
		} else {
			s = fmt.Sprintf("%0*d", f.pad, n.i)
		}
		return cell{s: f.prefix + strings.Repeat("x", f.fill) + s}, nil
	case "DATE":
		v, err := asInt()
		if err != nil {
			return cell{}, err
		}
		return cell{i: f.baseDays + v}, nil
	case "TIMESTAMP":
		return cell{i: f.baseMicro + int64(math.Round(n.float()*1e6))}, nil
	}
	return cell{}, fmt.Errorf("cannot generate %s", t.name)
}

// num is an integer or a float.
type num struct {
	isFloat bool
	i       int64
	f       float64
}

func (n num) float() float64 {
	if n.isFloat {
		return n.f
	}
	return float64(n.i)
}

// expr is a parsed arithmetic expression over i.
type expr struct {
	op          byte // 0 leaf, 'i' variable, '+', '-', '*', '/', '%', 'n' negation
	val         num
	left, right *expr
}

func (e *expr) eval(i int64) (num, error) {
	switch e.op {
	case 0:
		return e.val, nil
	case 'i':
		return num{i: i}, nil
	case 'n':
		v, err := e.left.eval(i)
		if err != nil {
			return num{}, err
		}
		if v.isFloat {
			return num{isFloat: true, f: -v.f}, nil
		}
		return num{i: -v.i}, nil
	}
	a, err := e.left.eval(i)
	if err != nil {
		return num{}, err
	}
	b, err := e.right.eval(i)
	if err != nil {
		return num{}, err
	}
	if a.isFloat || b.isFloat {
		x, y := a.float(), b.float()
		var r float64
		switch e.op {
		case '+':
			r = x + y
		case '-':
			r = x - y
		case '*':
			r = x * y
		case '/':
			r = x / y
		case '%':
			r = math.Mod(x, y)
		}
		return num{isFloat: true, f: r}, nil
	}
	x, y := a.i, b.i
	switch e.op {
	case '+':
		return num{i: x + y}, nil
	case '-':
		return num{i: x - y}, nil
	case '*':
		return num{i: x * y}, nil
	case '/', '%':
		if y == 0 {
			return num{}, fmt.Errorf("division by zero")
		}
		if e.op == '/' {
			return num{i: x / y}, nil
		}
		return num{i: x % y}, nil
	}
	return num{}, fmt.Errorf("bad operator %q", e.op)
}

type exprParser struct {
	s   string
	pos int
}

func parseExpr(s string) (*expr, error) {
	p := &exprParser{s: s}
	e, err := p.sum()
	if err != nil {
		return nil, fmt.Errorf("formula %q: %v", s, err)
	}
	if p.pos != len(p.s) {
		return nil, fmt.Errorf("formula %q: unexpected %q", s, p.s[p.pos:])
	}
	return e, nil
}

func (p *exprParser) peek() byte {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *exprParser) sum() (*expr, error) {
	l, err := p.product()
	if err != nil {
		return nil, err
	}
	for c := p.peek(); c == '+' || c == '-'; c = p.peek() {
		p.pos++
		r, err := p.product()
		if err != nil {
			return nil, err
		}
		l = &expr{op: c, left: l, right: r}
	}
	return l, nil
}

func (p *exprParser) product() (*expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for c := p.peek(); c == '*' || c == '/' || c == '%'; c = p.peek() {
		p.pos++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &expr{op: c, left: l, right: r}
	}
	return l, nil
}

func (p *exprParser) unary() (*expr, error) {
	switch c := p.peek(); {
	case c == '-':
		p.pos++
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &expr{op: 'n', left: e}, nil
	case c == '(':
		p.pos++
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("missing )")
		}
		p.pos++
		return e, nil
	case c == 'i' || c == 's':
		for _, name := range []string{"seq", "i"} {
			if strings.HasPrefix(p.s[p.pos:], name) {
				p.pos += len(name)
				return &expr{op: 'i'}, nil
			}
		}
	case c >= '0' && c <= '9' || c == '.':
		start := p.pos
		for p.pos < len(p.s) && (unicode.IsDigit(rune(p.s[p.pos])) || p.s[p.pos] == '.' || p.s[p.pos] == 'e') {
			p.pos++
		}
		lit := p.s[start:p.pos]
		if strings.ContainsAny(lit, ".e") {
			f, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				return nil, err
			}
			return &expr{val: num{isFloat: true, f: f}}, nil
		}
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return nil, err
		}
		return &expr{val: num{i: n}}, nil
	}
	return nil, fmt.Errorf("unexpected %q at %d", p.s[p.pos:], p.pos)
}

// writing -----------------------------------------------------------------------

func (c colSpec) arrowType() arrow.DataType {
	switch c.typ.name {
	case "BOOLEAN":
		return arrow.FixedWidthTypes.Boolean
	case "TINYINT":
		return arrow.PrimitiveTypes.Int8
	case "SMALLINT":
		return arrow.PrimitiveTypes.Int16
	case "INTEGER":
		return arrow.PrimitiveTypes.Int32
	case "BIGINT":
		return arrow.PrimitiveTypes.Int64
	case "UTINYINT":
		return arrow.PrimitiveTypes.Uint8
	case "USMALLINT":
		return arrow.PrimitiveTypes.Uint16
	case "UINTEGER":
		return arrow.PrimitiveTypes.Uint32
	case "UBIGINT":
		return arrow.PrimitiveTypes.Uint64
	case "FLOAT":
		return arrow.PrimitiveTypes.Float32
	case "DOUBLE":
		return arrow.PrimitiveTypes.Float64
	case "DECIMAL":
		return &arrow.Decimal128Type{Precision: int32(c.typ.prec), Scale: int32(c.typ.scale)}
	case "VARCHAR":
		return arrow.BinaryTypes.String
	case "BLOB":
		return arrow.BinaryTypes.Binary
	case "DATE":
		return arrow.FixedWidthTypes.Date32
	case "TIMESTAMP":
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case "TIME":
		return arrow.FixedWidthTypes.Time64us
	}
	panic("unreachable: " + c.typ.name)
}

// tsType is the arrow type of TIMESTAMP columns under the timestamps= option.
func (ds *dataSpec) tsType() *arrow.TimestampType {
	switch ds.tsUnit {
	case "ms":
		return &arrow.TimestampType{Unit: arrow.Millisecond}
	case "ns":
		return &arrow.TimestampType{Unit: arrow.Nanosecond}
	}
	return &arrow.TimestampType{Unit: arrow.Microsecond}
}

func (ds *dataSpec) cellAt(row, col int) cell {
	c := ds.cols[col]
	var v cell
	if c.gen != nil {
		v, _ = c.gen.eval(c.typ, int64(row)) // validated at parse time
	} else {
		v, _ = parseCell(c, ds.cells[row][col])
	}
	return v
}

// write writes the table's Parquet file into dir and returns its path.
func (ds *dataSpec) write(dir string) (string, error) {
	rel := ds.file
	if rel == "" {
		rel = ds.name + ".parquet"
	}
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	fields := make([]arrow.Field, len(ds.cols))
	for k, c := range ds.cols {
		fields[k] = arrow.Field{Name: c.name, Type: c.arrowType(), Nullable: !c.notNull}
		if c.typ.name == "TIMESTAMP" {
			fields[k].Type = ds.tsType()
		}
	}
	schema := arrow.NewSchema(fields, nil)
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for j := range ds.cols {
		fb := b.Field(j)
		for i := 0; i < ds.rows; i++ {
			if ds.deleted(i) {
				continue
			}
			v := ds.cellAt(i, j)
			if v.null {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.BooleanBuilder:
				fb.Append(v.i != 0)
			case *array.Int8Builder:
				fb.Append(int8(v.i))
			case *array.Int16Builder:
				fb.Append(int16(v.i))
			case *array.Int32Builder:
				fb.Append(int32(v.i))
			case *array.Int64Builder:
				fb.Append(v.i)
			case *array.Uint8Builder:
				fb.Append(uint8(v.u))
			case *array.Uint16Builder:
				fb.Append(uint16(v.u))
			case *array.Uint32Builder:
				fb.Append(uint32(v.u))
			case *array.Uint64Builder:
				fb.Append(v.u)
			case *array.Float32Builder:
				fb.Append(float32(v.f))
			case *array.Float64Builder:
				fb.Append(v.f)
			case *array.Decimal128Builder:
				fb.Append(decimal128.FromI64(v.i))
			case *array.StringBuilder:
				fb.Append(v.s)
			case *array.BinaryBuilder:
				fb.Append([]byte(v.s))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(v.i))
			case *array.Time64Builder:
				fb.Append(arrow.Time64(v.i))
			case *array.TimestampBuilder:
				switch ds.tsUnit {
				case "ms":
					if v.i%1000 != 0 {
						return "", fmt.Errorf("timestamps=ms cannot hold %d µs", v.i)
					}
					fb.Append(arrow.Timestamp(v.i / 1000))
				case "ns":
					fb.Append(arrow.Timestamp(v.i * 1000))
				default:
					fb.Append(arrow.Timestamp(v.i))
				}
			default:
				return "", fmt.Errorf("no builder case for %T", fb)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	tbl := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	defer tbl.Release()

	chunk := int64(ds.rowGroup)
	if chunk == 0 {
		chunk = int64(max(ds.rows, 1))
	}
	opts := []parquet.WriterProperty{
		parquet.WithStats(!ds.noStats),
		parquet.WithMaxRowGroupLength(chunk),
		// DuckDB stores DECIMAL(p ≤ 18) as INT32/INT64; do the same.
		parquet.WithStoreDecimalAsInteger(!ds.decFLBA),
		parquet.WithDictionaryDefault(!ds.noDict),
		parquet.WithCompression(ds.codec),
	}
	if ds.encoding != "" {
		// Integers DELTA_BINARY_PACKED, floats BYTE_STREAM_SPLIT, strings
		// DELTA_BYTE_ARRAY (or DELTA_LENGTH_BYTE_ARRAY); booleans stay PLAIN.
		opts = append(opts, parquet.WithDictionaryDefault(false))
		for _, c := range ds.cols {
			var enc parquet.Encoding
			switch {
			case c.typ.name == "BOOLEAN":
				continue
			case c.typ.name == "FLOAT" || c.typ.name == "DOUBLE":
				enc = parquet.Encodings.ByteStreamSplit
			case c.typ.name == "VARCHAR" || c.typ.name == "BLOB":
				enc = parquet.Encodings.DeltaByteArray
				if ds.encoding == "deltalength" {
					enc = parquet.Encodings.DeltaLengthByteArray
				}
			case c.typ.name == "TIMESTAMP" && ds.tsUnit == "int96":
				continue
			default: // integers, DATE, TIMESTAMP, DECIMAL (stored as integers)
				enc = parquet.Encodings.DeltaBinaryPacked
			}
			opts = append(opts, parquet.WithEncodingFor(c.name, enc))
		}
	}
	if ds.pageSize > 0 {
		// The writer checks the page size once per batch of values; small
		// batches make small pages actually happen.
		opts = append(opts, parquet.WithDataPageSize(ds.pageSize), parquet.WithBatchSize(32))
	}
	if ds.pageV2 {
		opts = append(opts, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	props := parquet.NewWriterProperties(opts...)
	// The writer closes its sink, so write to memory and then to disk.
	var buf bytes.Buffer
	arrProps := pqarrow.DefaultWriterProps()
	if ds.tsUnit == "int96" {
		arrProps = pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true))
	}
	if err := pqarrow.WriteTable(tbl, &buf, chunk, props, arrProps); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	return path, nil
}
