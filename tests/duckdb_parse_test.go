package tests

// Reading DuckDB's sqllogictest files (see duckdb_test.go for the dialect)
// into a tree of records and loops.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

type duckKind int

const (
	duckStatement duckKind = iota
	duckQuery
	duckLoop    // loop/foreach: body runs once per value of v
	duckRequire // arg: what is required
	duckLoad
	duckRestart
	duckHalt
	duckModeSkip
	duckModeUnskip
	duckUnsupported // a runner command b2sql's runner does not model; arg names it
)

// duckRec is one record, or a loop holding records.
type duckRec struct {
	kind   duckKind
	line   int
	skip   string // non-empty: skipif/onlyif says not to run it (the reason)
	sql    string
	expect string   // statement: ok, error or maybe
	types  string   // query: column letters
	sort   string   // query: nosort, rowsort, valuesort
	label  string   // query: result label
	rows   []string // query: expected lines after ----
	hasSep bool     // query: a ---- line was present
	arg    string

	loopVar  string
	loopVals []string
	body     []*duckRec
}

// duckTypeLists are foreach's type-list tokens, as DuckDB's runner expands them.
var duckTypeLists = map[string][]string{
	"<signed>":   {"tinyint", "smallint", "integer", "bigint", "hugeint"},
	"<unsigned>": {"utinyint", "usmallint", "uinteger", "ubigint", "uhugeint"},
}

func init() {
	duckTypeLists["<integral>"] = append(append([]string{}, duckTypeLists["<signed>"]...), duckTypeLists["<unsigned>"]...)
	duckTypeLists["<numeric>"] = append(append([]string{}, duckTypeLists["<integral>"]...), "float", "double")
	duckTypeLists["<alltypes>"] = append(append([]string{}, duckTypeLists["<numeric>"]...), "bool", "interval", "varchar")
}

func parseDuckFile(path string) ([]*duckRec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	p := &duckParser{lines: lines, path: path}
	recs, end, err := p.block(false)
	if err != nil {
		return nil, err
	}
	if end {
		return nil, fmt.Errorf("%s: endloop without loop", path)
	}
	return recs, nil
}

type duckParser struct {
	lines []string
	i     int
	path  string
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// block reads records up to the end of the file, or up to endloop when
// inLoop; end reports that endloop was met.
func (p *duckParser) block(inLoop bool) (recs []*duckRec, end bool, err error) {
	for p.i < len(p.lines) {
		line := p.lines[p.i]
		if blank(line) || strings.HasPrefix(strings.TrimSpace(line), "#") {
			p.i++
			continue
		}
		lineNo := p.i + 1
		// skipif/onlyif lines precede the header in the same record.
		skip := ""
		for {
			f := strings.Fields(p.lines[p.i])
			if len(f) < 2 || (f[0] != "skipif" && f[0] != "onlyif") {
				break
			}
			engine := strings.ToLower(f[1])
			if (f[0] == "skipif") == (engine == "duckdb") {
				skip = strings.Join(f[:2], " ")
			}
			p.i++
			if p.i == len(p.lines) || blank(p.lines[p.i]) {
				return nil, false, fmt.Errorf("%s:%d: %s without a record", p.path, lineNo, f[0])
			}
		}
		header := p.lines[p.i]
		f := strings.Fields(header)
		p.i++
		r := &duckRec{line: p.i, skip: skip}
		switch f[0] {
		case "statement":
			if len(f) < 2 {
				return nil, false, fmt.Errorf("%s:%d: statement needs ok/error/maybe", p.path, p.i)
			}
			r.kind, r.expect = duckStatement, f[1]
			sqlLines := p.until(true)
			r.sql = strings.Join(sqlLines, "\n")
			if p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i]) == "----" {
				p.i++
				p.until(false) // the expected message: not compared
			}
		case "query":
			if len(f) < 2 {
				return nil, false, fmt.Errorf("%s:%d: query needs column letters", p.path, p.i)
			}
			r.kind, r.types, r.sort = duckQuery, f[1], "nosort"
			for _, w := range f[2:] {
				switch w {
				case "nosort", "rowsort", "valuesort", "sort":
					r.sort = w
				default:
					r.label = w
				}
			}
			r.sql = strings.Join(p.until(true), "\n")
			if p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i]) == "----" {
				p.i++
				r.hasSep = true
				r.rows = p.until(false)
			}
		case "loop", "foreach", "concurrentloop", "concurrentforeach":
			r.kind = duckLoop
			if len(f) < 3 {
				return nil, false, fmt.Errorf("%s:%d: %s needs a variable and values", p.path, p.i, f[0])
			}
			r.loopVar = f[1]
			if strings.HasSuffix(f[0], "loop") {
				if len(f) != 4 {
					return nil, false, fmt.Errorf("%s:%d: loop needs var start end", p.path, p.i)
				}
				a, err1 := strconv.Atoi(f[2])
				z, err2 := strconv.Atoi(f[3])
				if err1 != nil || err2 != nil {
					return nil, false, fmt.Errorf("%s:%d: bad loop bounds", p.path, p.i)
				}
				for k := a; k < z; k++ {
					r.loopVals = append(r.loopVals, strconv.Itoa(k))
				}
			} else {
				for _, v := range f[2:] {
					if l, ok := duckTypeLists[v]; ok {
						r.loopVals = append(r.loopVals, l...)
					} else {
						r.loopVals = append(r.loopVals, v)
					}
				}
			}
			body, end, err := p.block(true)
			if err != nil {
				return nil, false, err
			}
			if !end {
				return nil, false, fmt.Errorf("%s:%d: %s without endloop", p.path, r.line, f[0])
			}
			r.body = body
		case "endloop":
			if !inLoop {
				return nil, false, fmt.Errorf("%s:%d: endloop without loop", p.path, p.i)
			}
			return recs, true, nil
		case "require":
			r.kind, r.arg = duckRequire, strings.Join(f[1:], " ")
		case "load":
			r.kind, r.arg = duckLoad, strings.Join(f[1:], " ")
		case "restart", "reconnect":
			r.kind = duckRestart
		case "halt":
			r.kind = duckHalt
		case "mode":
			switch {
			case len(f) > 1 && f[1] == "skip":
				r.kind = duckModeSkip
			case len(f) > 1 && f[1] == "unskip":
				r.kind = duckModeUnskip
			default:
				continue // output_result, debug, …: presentation only
			}
		default:
			// set seed, sleep, require-env, unzip, …: commands of DuckDB's runner itself.
			r.kind, r.arg = duckUnsupported, strings.TrimSpace(header)
			p.until(false)
		}
		recs = append(recs, r)
	}
	return recs, false, nil
}

// until returns the lines from the current one up to a blank line (or,
// when stopAtSep, a ---- line), leaving p.i on that line.
func (p *duckParser) until(stopAtSep bool) []string {
	start := p.i
	for p.i < len(p.lines) && !blank(p.lines[p.i]) {
		if stopAtSep && strings.TrimSpace(p.lines[p.i]) == "----" {
			break
		}
		p.i++
	}
	return p.lines[start:p.i]
}
