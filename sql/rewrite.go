package sql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Marker prefixes the rewriter plants in COLLATE strings and interval units.
// COLLATE is used because it is the one postfix construct of the MySQL
// grammar that binds tighter than every operator, exactly like DuckDB's ::.
const (
	markCast    = "b2sql:cast:"
	markTryCast = "b2sql:try_cast:"
	markLit     = "b2sql:lit:"     // DATE '…', TIMESTAMP '…'
	markAtZone  = "b2sql:at_zone:" // x AT TIME ZONE 'zone'
	markNoUnit  = "b2sql_nounit"
	noLimit     = "9223372036854775807" // LIMIT inserted before a lone OFFSET
)

// piece maps rewritten text [r, r+n) back to original [o, o+n); n == 0 marks
// inserted text, all of which maps to o.
type piece struct{ r, o, n int }

// rewritten is a statement as vitess sees it, plus what the rewrite learned.
type rewritten struct {
	text   string
	pieces []piece
	paths  map[string]bool // identifiers that were string literals in FROM
	nulls  map[int]bool    // ORDER BY item → NULLS FIRST (true) or LAST (false)
	// winNulls is NULLS FIRST/LAST in a window's ORDER BY, keyed by the
	// token index of the "(" opening the window (after OVER, or after AS
	// in a WINDOW clause) and the ORDER BY item.
	winNulls map[[2]int]bool
	// winFrame is what a window's frame says beyond MySQL's grammar
	// (GROUPS, written as ROWS; EXCLUDE …, cut out), keyed like winNulls
	// by the window's "(" (bind_window_frame.go).
	winFrame map[int]winFrameWords
	groupAll bool // GROUP BY ALL (removed from the text)
	orderAll bool // ORDER BY ALL (written as ORDER BY 1; bind_order_all.go)
	// distinctOn is the token range [lo, hi) of the expressions of
	// SELECT DISTINCT ON (…), cut out of the text (bind_distinct_on.go);
	// lo == 0: none.
	distinctOn [2]int
	// funcCols are the column names of a series table function's alias,
	// range(5) AS t(i), keyed by the lower-case alias: MySQL's grammar
	// has no column list after a table function, so it is cut out.
	funcCols map[string][]string
	// starExclude is * EXCLUDE (a, b) of the select list, keyed by the
	// star's ordinal among the select list's stars (cut out of the text).
	starExclude map[int][]string
	// starReplace is the token range [lo, hi) of * REPLACE (expr AS col,
	// …), by the star's ordinal (cut out of the text).
	starReplace map[int][2]int
	// qualify is the token range [lo, hi) of the condition of DuckDB's
	// QUALIFY (cut out of the text, bound by bind_qualify.go); lo == 0:
	// none.
	qualify [2]int
	// groupSets are the grouping sets of GROUPING SETS / ROLLUP / CUBE /
	// WITH ROLLUP, as indexes into the GROUP BY list left in the text,
	// whose token ranges are groupExprs (rewrite_grouping.go); nil: a
	// plain GROUP BY.
	groupSets  [][]int
	groupExprs []span

	// winNullsMode is IGNORE NULLS / RESPECT NULLS of a window call, keyed
	// by the token index of its OVER (cut out; bind_window_frame.go).
	winNullsMode map[int]nullsMode
	// byName holds the token indexes of the UNION keywords followed by
	// DuckDB's BY NAME (cut out; bind_setop_byname.go).
	byName map[int]bool
	// fileCalls are the file table functions' arguments, keyed by the
	// offset of the call's name (filecall.go).
	fileCalls map[int]*FileCall
}

// orig maps an offset of the rewritten text to the statement's text.
func (rw *rewritten) orig(r int) int {
	i := sort.Search(len(rw.pieces), func(i int) bool { return rw.pieces[i].r > r }) - 1
	if i < 0 {
		return 0
	}
	p := rw.pieces[i]
	return p.o + min(r-p.r, p.n)
}

type rewriter struct {
	src   Source
	toks  []token
	b     strings.Builder
	rw    *rewritten
	prevE int // end of the previous token, for copying gaps
}

func (w *rewriter) put(text string, at, n int) {
	w.rw.pieces = append(w.rw.pieces, piece{w.b.Len(), at, n})
	w.b.WriteString(text)
}

// gap copies the text between tokens, blanking comments (vitess would read
// MySQL comment syntax differently) while keeping every byte offset.
func (w *rewriter) gap(upto int) {
	if upto <= w.prevE {
		// Tokens that touch get a space between them: vitess computes
		// select-item positions assuming one and panics on SELECT''.
		if w.b.Len() > 0 && upto == w.prevE && upto < len(w.src.Text) && !w.punctAt(upto) && !w.punctAt(upto-1) {
			w.put(" ", upto, 0)
		}
		return
	}
	g := []byte(w.src.Text[w.prevE:upto])
	for i, c := range g {
		if !isSpace(c) {
			g[i] = ' '
		}
	}
	w.put(string(g), w.prevE, len(g))
	w.prevE = upto
}

// tok emits text in place of token t.
func (w *rewriter) tok(t token, text string) {
	w.gap(t.off)
	n := 0
	if len(text) == t.end-t.off {
		n = len(text)
	}
	w.put(text, t.off, n)
	w.prevE = t.end
}

// skip drops token t (its bytes become blanks of the gap).
func (w *rewriter) skip(t token) { w.gap(t.off); w.prevE = t.off }

// punctAt reports whether the byte at off is an operator character (a
// space next to one would shift vitess' select-item positions).
func (w *rewriter) punctAt(off int) bool {
	return off >= 0 && off < len(w.src.Text) && strings.IndexByte("()[],.;+-*/%<>=!|&^~:?@$#{}", w.src.Text[off]) >= 0
}

func (w *rewriter) raw(t token) string { return w.src.Text[t.off:t.end] }

// errAt positions an error at token t.
func (w *rewriter) errAt(t token, kind error, msg string) *Error {
	return errAt(w.src, t.off, kind, msg)
}

type castFrame struct {
	depth int
	try   bool
}

// rewrite turns a DuckDB query's tokens into text the vitess MySQL grammar
// parses to the same meaning; see doc.go for the list.
func rewrite(src Source, toks []token) (*rewritten, error) {
	w := &rewriter{src: src, toks: toks, rw: &rewritten{paths: map[string]bool{}, nulls: map[int]bool{}, winNulls: map[[2]int]bool{}, funcCols: map[string][]string{}, starExclude: map[int][]string{}, starReplace: map[int][2]int{}}}
	if len(toks) > 0 {
		w.prevE = toks[0].off
	}
	if err := w.refuseLegacyJoinKind(); err != nil { // join_kinds_legacy.go
		return nil, err
	}
	depth := 0
	var casts []castFrame
	inOrder, orderItem, sawLimit := false, 0, false
	suffix := derivedAliases(toks)                              // text to insert after token i
	orderedNames, orderedTails, overAt := orderedAggCalls(toks) // rewrite_ordered_agg.go
	if overAt >= 0 {
		return nil, w.errAt(toks[overAt], ErrUnsupported, "ORDER BY inside a window function's arguments is not supported; order the window with OVER (ORDER BY …)")
	}
	for k, s := range orderedTails {
		suffix[k] += s
	}
	// ORDER BY inside parentheses (a nested query's, which is bound from
	// its own text later, or a window's): orderAt[depth] while in one.
	orderAt := map[int]bool{}
	type winSpec struct {
		open, depth, item int
		frame             bool // past ROWS/RANGE/GROUPS
	}
	var wins []winSpec // open window specifications, innermost last
	inWindowClause := false
	drop := map[int]bool{} // tokens cut out (a table function's column list, EXCLUDE)
	stars := 0             // select-list stars so far (for EXCLUDE)

	// WITH … AS [NOT] MATERIALIZED: keywords for the binder (cte_mode.go).
	for k := range cteModeTokens(toks) {
		drop[k] = true
	}
	// Nested-value expressions become markAST calls (rewrite_nested.go).
	ne := nestedSyntax(src, toks)
	if ne != nil {
		for k := range ne.drop {
			drop[k] = true
		}
	}
	tokAt := func(i int) token {
		if i < len(toks) {
			return toks[i]
		}
		return token{kind: tkOp, val: "", off: len(src.Text), end: len(src.Text)}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var prev token
		if i > 0 {
			prev = toks[i-1]
		}
		next := tokAt(i + 1)
		if ne != nil && ne.prefix[i] != "" {
			w.gap(t.off)
			w.put(ne.prefix[i], t.off, 0)
		}
		if drop[i] {
			w.skip(t)
			if ne != nil && ne.close[i] != "" {
				w.gap(t.end)
				w.put(ne.close[i], t.end, 0)
			}
			continue
		}
		if r, ok := orderedNames[i]; ok {
			w.tok(t, r)
			continue
		}
		switch {
		case len(wins) > 0 && wins[len(wins)-1].depth == depth && (t.is("GROUPS") && frameBoundStart(next) || t.is("EXCLUDE") && wins[len(wins)-1].frame):
			// A frame's GROUPS unit or EXCLUDE clause (bind_window_frame.go).
			n, err := w.frameWords(i, wins[len(wins)-1].open)
			if err != nil {
				return nil, err
			}
			wins[len(wins)-1].frame = true
			i += n - 1
			continue
		case len(wins) > 0 && wins[len(wins)-1].depth == depth && wins[len(wins)-1].frame && t.kind == tkNumber && (next.is("PRECEDING") || next.is("FOLLOWING")) && strings.ContainsAny(t.val, ".eE"):
			// RANGE BETWEEN 2.5 PRECEDING …: MySQL's grammar takes integers only.
			if err := w.frameOffset(i, wins[len(wins)-1].open); err != nil {
				return nil, err
			}
		case (t.is("IGNORE") || t.is("RESPECT")) && next.is("NULLS") && (tokAt(i+2).isOp(")") || prev.isOp(")") && tokAt(i+2).is("OVER")):
			// lag(x IGNORE NULLS) OVER …, lag(x) IGNORE NULLS OVER …
			if err := w.nullsWords(i); err != nil {
				return nil, err
			}
			w.skip(t)
			w.skip(next)
			i++
			continue
		case t.kind == tkIdent && FileFuncs[strings.ToLower(t.val)] && next.isOp("(") && !prev.isOp("."):
			// read_csv('x', delim = ';'): constant arguments (filecall.go).
			w.noteFuncCols(i, drop)
			end, err := w.fileCall(i)
			if err != nil {
				return nil, err
			}
			i = end
			continue
		case t.is("UNNEST") && next.isOp("(") && (prev.is("FROM") || prev.is("JOIN") || prev.isOp(",")):
			// unnest(…) [AS] t(c) in FROM: its alias may name the column.
			w.noteFuncCols(i, drop)
			w.tok(t, w.raw(t))
		case (t.is("RANGE") || t.is("GENERATE_SERIES")) && next.isOp("(") && !prev.isOp("."):
			// A series table function (bind_tablefunc.go); RANGE is a
			// MySQL keyword, so it is quoted. Its alias may name the column.
			w.noteFuncCols(i, drop)
			w.tok(t, "`"+t.val+"`")
		case t.kind == tkIdent && next.isOp("(") && !overGrammar[strings.ToLower(t.val)] && !prev.isOp(".") && w.overAfterCall(i):
			// name(…) OVER for a name whose OVER the MySQL grammar lacks
			// (median, string_agg, bool_and, …): carried as COUNT with the
			// real name as a first argument (bind_window_aggs.go).
			w.tok(t, "COUNT")
			at := i + 1
			if tokAt(i + 2).is("DISTINCT") {
				at = i + 2
			}
			suffix[at] += " '" + markWindow + strings.ToLower(t.val) + "',"
		case (t.is("X") || t.is("B")) && next.kind == tkString && next.off == t.end:
			// SQLite/MySQL X'…' (and B'…') literals would read as x AS '…'.
			return nil, w.errAt(t, ErrUnsupported, strings.ToUpper(t.val)+"'…' literals are not supported")
		case t.is("QUALIFY"):
			// QUALIFY cond runs up to the next clause of its query. A
			// nested query's is cut here too, recorded when it is parsed.
			end := qualifyEnd(toks, i+1)
			if end == i+1 {
				return nil, w.errAt(tokAt(end), ErrSyntax, syntaxNear(src, tokAt(end)))
			}
			if depth == 0 {
				w.rw.qualify = [2]int{i + 1, end}
			}
			for k := i + 1; k < end; k++ {
				drop[k] = true
			}
			w.skip(t)
			continue
		case t.isOp("*") && (prev.is("SELECT") || prev.is("DISTINCT") || prev.is("ALL") || prev.isOp(",") || prev.isOp(".")):
			// A select-list star, perhaps with DuckDB's EXCLUDE (…). A
			// nested query's list is cut here too (vitess parses the whole
			// text) but recorded when that query is parsed on its own.
			j := i + 1
			if next.is("EXCLUDE") {
				names, err := w.excludeList(i+2, drop)
				if err != nil {
					return nil, err
				}
				if depth == 0 {
					w.rw.starExclude[stars] = names
				}
				drop[i+1] = true
				for drop[j] {
					j++
				}
			}
			if tokAt(j).is("REPLACE") && tokAt(j+1).isOp("(") {
				// * REPLACE (expr AS col, …): the list's tokens, for
				// bind_star_replace.go.
				end := matchingParen(toks, j+1) // rewrite_derived.go
				if end < 0 {
					end = len(toks)
				}
				if end >= len(toks) || end == j+2 {
					return nil, w.errAt(tokAt(end), ErrSyntax, syntaxNear(src, tokAt(end)))
				}
				if depth == 0 {
					w.rw.starReplace[stars] = [2]int{j + 2, end}
				}
				for k := j; k <= end; k++ {
					drop[k] = true
				}
			}
			if depth == 0 {
				stars++
			}
			w.tok(t, w.raw(t))
		case t.is("ON") && prev.is("DISTINCT") && next.isOp("("):
			// DISTINCT ON (…): recorded for a top-level query, cut in any.
			end := matchingParen(toks, i+1) // rewrite_derived.go
			if end < 0 {
				end = len(toks)
			}
			if end >= len(toks) || end == i+2 {
				return nil, w.errAt(tokAt(end), ErrSyntax, syntaxNear(src, tokAt(end)))
			}
			if depth == 0 {
				w.rw.distinctOn = [2]int{i + 2, end}
			}
			for k := i + 1; k <= end; k++ {
				drop[k] = true
			}
			w.skip(t)
			continue
		case depth == 0 && t.is("ALL") && prev.is("BY") && i >= 2 && toks[i-2].is("ORDER"):
			w.rw.orderAll = true
			w.tok(t, "1")
		case t.is("IS") && (next.is("DISTINCT") && tokAt(i+2).is("FROM") || next.is("NOT") && tokAt(i+2).is("DISTINCT") && tokAt(i+3).is("FROM")):
			// x IS [NOT] DISTINCT FROM y → x <=> y, or x <=> mark(y) for
			// IS DISTINCT FROM (bind_distinct_from.go); y ends where a
			// comparison's operand ends.
			n := 3
			if next.is("NOT") {
				n = 4
			}
			end := operandEnd(toks, i+n)
			if end == i+n {
				return nil, w.errAt(tokAt(end), ErrSyntax, syntaxNear(src, tokAt(end)))
			}
			op := " <=> "
			if n == 3 {
				op += markDistinct + "("
				suffix[end-1] += ")"
			}
			w.tok(t, op)
			for k := i + 1; k < i+n; k++ {
				w.skip(toks[k])
			}
			i += n - 1
		case t.isOp(")") && next.is("FILTER") && tokAt(i+2).isOp("("):
			// agg(args) FILTER ([WHERE] cond) → agg(args, 'b2sql:filter', cond):
			// the call stays open and FILTER's ")" closes it; the binder
			// moves cond into a CASE around the first argument. DuckDB
			// also takes FILTER (cond) without WHERE.
			w.tok(t, ", '"+markFilter+"',")
			w.skip(next)
			w.skip(tokAt(i + 2))
			i += 2
			if tokAt(i + 1).is("WHERE") {
				w.skip(tokAt(i + 1))
				i++
			}
		case t.isOp("*") && prev.isOp("(") && next.isOp(")") && tokAt(i+2).is("FILTER"):
			w.tok(t, "1") // count(*) FILTER: count(1, …) (a star cannot have company)
		case t.is("IN") && next.isOp("(") && tokAt(i+2).isOp(")"):
			// x IN () (SQLite): MySQL has no empty list; the binder turns
			// the marker into FALSE (TRUE for NOT IN), whatever x is.
			w.tok(t, w.raw(t))
			w.tok(next, "(")
			w.put("'"+markEmptyIn+"'", next.end, 0)
			w.tok(tokAt(i+2), ")")
			i += 2
		case t.is("RANGE") && !(len(wins) > 0 && (next.is("BETWEEN") || next.is("UNBOUNDED") || next.is("CURRENT") || next.is("INTERVAL") || next.kind == tkNumber)):
			// The column of range(…) (a frame's RANGE is followed by its bound).
			w.tok(t, "`"+t.val+"`")
		case t.kind == tkString && (prev.is("FROM") && !(i > 1 && toks[i-2].is("DISTINCT")) || prev.is("JOIN")):
			// FROM 'data/x.parquet': a path, which MySQL only accepts as an identifier.
			w.rw.paths[t.val] = true
			w.tok(t, "`"+strings.ReplaceAll(t.val, "`", "``")+"`")
		case t.kind == tkString:
			// DuckDB strings have no backslash escapes; MySQL's do.
			w.tok(t, strings.ReplaceAll(w.raw(t), `\`, `\\`))
		case (t.is("DATE") || t.is("TIMESTAMP") || t.is("TIME") || t.is("TIMESTAMPTZ")) && next.kind == tkString && !prev.isOp("::"):
			w.skip(t)
			suffix[i+1] += " COLLATE '" + markLit + strings.ToUpper(t.val) + "'"
		case t.is("INTERVAL") && next.kind == tkString && !isIntervalUnit(tokAt(i+2)) && len(wins) > 0 && wins[len(wins)-1].frame:
			// A RANGE offset: MySQL's grammar wants INTERVAL n unit there.
			us, ok := parseInterval(next.val)
			if !ok {
				return nil, w.errAt(next, ErrType, fmt.Sprintf("could not cast %s to INTERVAL", quoteSQL(next.val)))
			}
			if hasCalendarUnit(next.val) {
				return nil, w.errAt(t, ErrUnsupported, "RANGE offsets in months, quarters or years are not supported")
			}
			w.tok(t, w.raw(t))
			w.tok(next, fmt.Sprintf("'%d' MICROSECOND", us))
			i++
		case t.is("INTERVAL") && next.kind == tkString && !isIntervalUnit(tokAt(i+2)):
			w.tok(t, w.raw(t))
			suffix[i+1] += " " + markNoUnit
		case t.is("AT") && next.is("TIME") && tokAt(i+2).is("ZONE") && i+3 < len(toks):
			// x AT TIME ZONE 'z' is timezone('z', x) (bind_timezone.go).
			z := tokAt(i + 3)
			if z.kind != tkString {
				return nil, w.errAt(z, ErrUnsupported, "AT TIME ZONE needs a constant zone name here; write timezone(zone, x)")
			}
			w.tok(t, " COLLATE '"+markAtZone+strings.ReplaceAll(z.val, "'", "''")+"'")
			w.prevE = z.end
			i += 3
		case t.isOp("::"):
			typ, j, err := w.typeAt(i + 1)
			if err != nil {
				return nil, err
			}
			w.tok(t, " COLLATE '"+markCast+typ+"'")
			w.prevE = toks[j-1].end
			i = j - 1
		case (t.is("CAST") || t.is("TRY_CAST")) && next.isOp("("):
			casts = append(casts, castFrame{depth + 1, t.is("TRY_CAST")})
			w.tok(t, "(")
		case t.is("AS") && len(casts) > 0 && casts[len(casts)-1].depth == depth:
			typ, j, err := w.typeAt(i + 1)
			if err != nil {
				return nil, err
			}
			if !tokAt(j).isOp(")") {
				return nil, w.errAt(tokAt(j), ErrSyntax, syntaxNear(src, tokAt(j)))
			}
			mark := markCast
			if casts[len(casts)-1].try {
				mark = markTryCast
			}
			w.tok(t, ") COLLATE '"+mark+typ+"'")
			w.prevE = toks[j-1].end
			i = j - 1
		case t.is("EXTRACT") && next.isOp("(") && (tokAt(i+2).kind == tkIdent || tokAt(i+2).kind == tkString) && tokAt(i+3).is("FROM"):
			// EXTRACT(part FROM x) → date_part('part', x): DuckDB has parts (epoch, dow…) MySQL lacks.
			part := tokAt(i + 2)
			w.tok(t, "date_part")
			w.tok(next, "(")
			w.tok(part, "'"+strings.ReplaceAll(part.val, "'", "''")+"'")
			w.tok(tokAt(i+3), ",")
			i += 3
			depth++
		case t.is("ILIKE"):
			// MySQL has no ILIKE; REGEXP has LIKE's precedence and is not DuckDB syntax.
			last := operandEnd(toks, i+1) // the pattern ends by then (ESCAPE is no stop word of it)
			if end := endAtLevel(toks, i+1, func(k int) bool { return toks[k].is("ESCAPE") || k >= last }); tokAt(end).is("ESCAPE") {
				// REGEXP takes no ESCAPE; the function form does.
				return nil, w.errAt(tokAt(end), ErrUnsupported, "ILIKE … ESCAPE is not supported; write ilike_escape(x, pattern, escape)")
			}
			w.tok(t, "REGEXP")
		case t.is("REGEXP") || t.is("RLIKE"):
			return nil, w.errAt(t, ErrUnsupported, strings.ToUpper(t.val)+" is not supported")
		case t.is("GROUP") && next.is("BY") && !tokAt(i+2).is("ALL"):
			// A nested query's is rewritten here too (for vitess), and
			// recorded when the nested query is bound from its own text.
			if err := w.groupingSets(i+2, drop, suffix, depth == 0); err != nil {
				return nil, err
			}
			if drop[i] {
				w.skip(t)
				continue
			}
			w.tok(t, w.raw(t))
		case t.is("TRIM") && next.isOp("(") && !prev.isOp(".") && topLevelComma(toks, i+1):
			// trim(s, chars): the MySQL grammar's TRIM takes only its
			// LEADING/TRAILING … FROM form; quoted, it is a plain call.
			w.tok(t, "`"+t.val+"`")
		case (t.is("BY") && tokAt(i+1).is("NAME")) && (prev.is("UNION") || (prev.is("ALL") || prev.is("DISTINCT")) && i >= 2 && toks[i-2].is("UNION")):
			// UNION [ALL] BY NAME: a plain UNION whose sides the binder
			// lines up by column name (bind_setop_byname.go).
			k := i - 1
			if !prev.is("UNION") {
				k--
			}
			if w.rw.byName == nil {
				w.rw.byName = map[int]bool{}
			}
			w.rw.byName[k] = true
			w.skip(t)
			w.skip(next)
			i++
		case depth == 0 && t.is("GROUP") && next.is("BY") && tokAt(i+2).is("ALL"):
			// DuckDB's GROUP BY ALL: group by every select item without an
			// aggregate. MySQL lacks it; the binder does it from the flag.
			w.rw.groupAll = true
			w.skip(t)
			w.skip(next)
			w.skip(tokAt(i + 2))
			i += 2
		case t.is("NULLS") && (next.is("FIRST") || next.is("LAST")) && (inOrder && depth == 0 || orderAt[depth]):
			switch n := len(wins); {
			case depth == 0:
				w.rw.nulls[orderItem] = next.is("FIRST")
			case n > 0 && wins[n-1].depth == depth:
				w.rw.winNulls[[2]int{wins[n-1].open, wins[n-1].item}] = next.is("FIRST")
			}
			w.skip(t)
			w.skip(next)
			i++
		case t.kind == tkIdent && (mysqlReserved[strings.ToLower(t.val)] || !isASCII(t.val)) && !next.isOp("(") && !(t.is("RECURSIVE") && prev.is("WITH")) &&
			!(t.is("SEPARATOR") && next.kind == tkString): // GROUP_CONCAT(x SEPARATOR ';')
			// A DuckDB identifier that MySQL reserves (key, table, …) or
			// that vitess cannot lex bare (é).
			w.tok(t, "`"+t.val+"`")
		case t.isOp("//"):
			w.tok(t, " DIV ")
		case t.isOp("||"):
			w.tok(t, "| ")
		case t.isOp("=="):
			w.tok(t, "= ")
		case t.kind == tkOp && isUnsupportedOp(t.val):
			return nil, w.errAt(t, ErrUnsupported, fmt.Sprintf("operator %q is not supported", t.val))
		case t.kind == tkOp && strings.Contains("@$#{}[]:;", t.val):
			return nil, w.errAt(t, ErrSyntax, syntaxNear(src, t))
		default:
			switch {
			case t.isOp("("):
				depth++
				if prev.is("OVER") || (inWindowClause && depth == 1 && prev.is("AS")) {
					wins = append(wins, winSpec{open: i, depth: depth})
				}
			case t.isOp(")"):
				delete(orderAt, depth)
				depth--
				for len(casts) > 0 && casts[len(casts)-1].depth > depth {
					casts = casts[:len(casts)-1]
				}
				for len(wins) > 0 && wins[len(wins)-1].depth > depth {
					wins = wins[:len(wins)-1]
				}
			case depth > 0 && t.is("ORDER") && next.is("BY"):
				orderAt[depth] = true
			case depth > 0 && orderAt[depth] && t.isOp(","):
				if n := len(wins); n > 0 && wins[n-1].depth == depth {
					wins[n-1].item++
				}
			case depth > 0 && (t.is("LIMIT") || t.is("OFFSET") || t.is("ROWS") || t.is("RANGE") || t.is("GROUPS")):
				delete(orderAt, depth)
				if n := len(wins); n > 0 && wins[n-1].depth == depth && !t.is("LIMIT") && !t.is("OFFSET") {
					wins[n-1].frame = true
				}
			case depth == 0 && t.is("WINDOW") && tokAt(i+2).is("AS"):
				inWindowClause = true
			case depth == 0 && t.is("ORDER") && next.is("BY"):
				inOrder, orderItem, inWindowClause = true, 0, false
			case depth == 0 && inOrder && t.isOp(","):
				orderItem++
			case depth == 0 && t.is("LIMIT"):
				inOrder, sawLimit, inWindowClause = false, true, false
			case depth == 0 && t.is("OFFSET"):
				inOrder = false
				if !sawLimit {
					// DuckDB allows OFFSET alone; MySQL needs a LIMIT first.
					w.tok(t, "LIMIT "+noLimit+" OFFSET")
					continue
				}
			}
			w.tok(t, w.raw(t))
		}
		if s, ok := suffix[i]; ok {
			w.put(s, t.end, 0)
		}
		if ne != nil && ne.close[i] != "" {
			w.put(ne.close[i], t.end, 0)
		}
	}
	w.gap(len(src.Text))
	w.rw.text = w.b.String()
	return w.rw, nil
}

// excludeList reads EXCLUDE's names from token i on: (a, b) or a single
// name; their tokens are marked in drop.
func (w *rewriter) excludeList(i int, drop map[int]bool) ([]string, error) {
	name := func(k int) (string, bool) {
		if k < len(w.toks) && (w.toks[k].kind == tkIdent || w.toks[k].kind == tkQIdent) {
			return w.toks[k].val, true
		}
		return "", false
	}
	if n, ok := name(i); ok && !w.toks[i].is("FROM") {
		drop[i] = true
		return []string{n}, nil
	}
	if !w.tokOrEnd(i).isOp("(") {
		return nil, w.errAt(w.tokOrEnd(i), ErrSyntax, syntaxNear(w.src, w.tokOrEnd(i)))
	}
	drop[i] = true
	var names []string
	for k := i + 1; ; k += 2 {
		n, ok := name(k)
		if !ok {
			return nil, w.errAt(w.tokOrEnd(k), ErrSyntax, "expected a column name, "+syntaxNear(w.src, w.tokOrEnd(k)))
		}
		names = append(names, n)
		drop[k], drop[k+1] = true, true
		if w.tokOrEnd(k + 1).isOp(")") {
			return names, nil
		}
		if !w.tokOrEnd(k + 1).isOp(",") {
			return nil, w.errAt(w.tokOrEnd(k+1), ErrSyntax, syntaxNear(w.src, w.tokOrEnd(k+1)))
		}
	}
}

// operandEnd returns the index of the first token after the operand of a
// comparison that starts at token i: the next token at its parenthesis
// level that binds looser than a comparison (AND, THEN, a comparison
// operator, a clause keyword, ",", ")").
func operandEnd(toks []token, i int) int {
	return endAtLevel(toks, i, func(k int) bool {
		t := toks[k]
		return t.kind == tkOp && (t.val == "," || t.val == ";" || t.val == "=" || t.val == "==" || t.val == "<" || t.val == ">" ||
			t.val == "<=" || t.val == ">=" || t.val == "<>" || t.val == "!=") ||
			t.kind == tkIdent && operandStop[strings.ToUpper(t.val)]
	})
}

// endAtLevel returns the index of the first token from i on, at i's
// parenthesis level, for which stop holds, or of the ")" closing that
// level, or len(toks).
func endAtLevel(toks []token, i int, stop func(k int) bool) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch t := toks[i]; {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			if depth == 0 {
				return i
			}
			depth--
		case depth == 0 && stop(i):
			return i
		}
	}
	return i
}

// operandStop are the keywords that end a comparison operand.
var operandStop = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "THEN": true, "WHEN": true, "ELSE": true, "END": true, "AS": true,
	"ASC": true, "DESC": true, "FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true,
	"LIMIT": true, "OFFSET": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "WINDOW": true,
	"QUALIFY": true, "IS": true, "IN": true, "BETWEEN": true, "LIKE": true, "ILIKE": true, "NULLS": true,
	"ON": true, "USING": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true,
	"CROSS": true, "NATURAL": true, "ROWS": true, "RANGE": true, "FILTER": true, "OVER": true,
}

// qualifyEnd returns the index of the first token after a QUALIFY
// condition starting at token i: the query's next clause, the ")" that
// closes it, or the end.
func qualifyEnd(toks []token, i int) int {
	return endAtLevel(toks, i, func(k int) bool {
		t := toks[k]
		return t.isOp(";") || t.is("LIMIT") || t.is("OFFSET") || t.is("UNION") || t.is("INTERSECT") || t.is("EXCEPT") ||
			t.is("ORDER") && k+1 < len(toks) && toks[k+1].is("BY") ||
			t.is("WINDOW") && k+2 < len(toks) && toks[k+2].is("AS")
	})
}

// overAfterCall reports whether the call whose name is token i is
// followed by OVER.
func (w *rewriter) overAfterCall(i int) bool {
	depth := 0
	for j := i + 1; j < len(w.toks); j++ {
		if w.toks[j].isOp("(") {
			depth++
		} else if w.toks[j].isOp(")") {
			if depth--; depth == 0 {
				if j+2 < len(w.toks) && w.toks[j+1].is("FILTER") && w.toks[j+2].isOp("(") {
					// agg(…) FILTER (…) OVER: look past the FILTER clause.
					return w.overAfterCall(j + 1)
				}
				return j+1 < len(w.toks) && w.toks[j+1].is("OVER")
			}
		}
	}
	return false
}

// noteFuncCols records the column list of the alias after the table
// function call whose name is token i — name(…) [AS] alias(c, …) — and
// marks the list's tokens in drop.
func (w *rewriter) noteFuncCols(i int, drop map[int]bool) {
	depth, j := 0, i+1
	for ; j < len(w.toks); j++ {
		if w.toks[j].isOp("(") {
			depth++
		} else if w.toks[j].isOp(")") {
			if depth--; depth == 0 {
				break
			}
		}
	}
	k := j + 1
	if k < len(w.toks) && w.toks[k].is("AS") {
		k++
	}
	if k+1 >= len(w.toks) || (w.toks[k].kind != tkIdent && w.toks[k].kind != tkQIdent) || !w.toks[k+1].isOp("(") {
		return
	}
	alias := strings.ToLower(w.toks[k].val)
	var names []string
	for m := k + 2; m < len(w.toks); m += 2 {
		n := w.toks[m]
		if n.kind != tkIdent && n.kind != tkQIdent {
			return
		}
		names = append(names, n.val)
		if m+1 >= len(w.toks) {
			return
		}
		if w.toks[m+1].isOp(")") {
			for d := k + 1; d <= m+1; d++ {
				drop[d] = true
			}
			w.rw.funcCols[alias] = names
			return
		}
		if !w.toks[m+1].isOp(",") {
			return
		}
	}
}

// typeAt parses a type name starting at token i (after :: or AS) and
// returns its canonical spelling and the index of the first token after it.
func (w *rewriter) typeAt(i int) (string, int, error) {
	if i >= len(w.toks) || (w.toks[i].kind != tkIdent && w.toks[i].kind != tkQIdent) {
		t := token{off: len(w.src.Text)}
		if i < len(w.toks) {
			t = w.toks[i]
		}
		return "", 0, w.errAt(t, ErrSyntax, "expected a type name, "+syntaxNear(w.src, t))
	}
	start := w.toks[i]
	words := []string{strings.ToUpper(start.val)}
	i++
	// Two-word names: DOUBLE PRECISION, CHARACTER VARYING.
	if i < len(w.toks) && (w.toks[i].is("PRECISION") || w.toks[i].is("VARYING")) {
		words = append(words, strings.ToUpper(w.toks[i].val))
		i++
	}
	// TIMESTAMP WITH[OUT] TIME ZONE.
	if i+2 < len(w.toks) && (w.toks[i].is("WITH") || w.toks[i].is("WITHOUT")) && w.toks[i+1].is("TIME") && w.toks[i+2].is("ZONE") {
		words = append(words, strings.ToUpper(w.toks[i].val), "TIME", "ZONE")
		i += 3
	}
	var params []int
	if i < len(w.toks) && w.toks[i].isOp("(") {
		i++
		for {
			if i >= len(w.toks) || w.toks[i].kind != tkNumber {
				return "", 0, w.errAt(w.tokOrEnd(i), ErrSyntax, "expected a type parameter, "+syntaxNear(w.src, w.tokOrEnd(i)))
			}
			n := 0
			for _, c := range w.toks[i].val {
				if c < '0' || c > '9' || n > 1<<20 {
					return "", 0, w.errAt(w.toks[i], ErrSyntax, "type parameters are integers")
				}
				n = n*10 + int(c-'0')
			}
			params = append(params, n)
			i++
			if i < len(w.toks) && w.toks[i].isOp(",") {
				i++
				continue
			}
			if i < len(w.toks) && w.toks[i].isOp(")") {
				i++
				break
			}
			return "", 0, w.errAt(w.tokOrEnd(i), ErrSyntax, syntaxNear(w.src, w.tokOrEnd(i)))
		}
	}
	if i < len(w.toks) && w.toks[i].isOp("[") {
		return "", 0, w.errAt(w.toks[i], ErrUnsupported, "list types are not supported")
	}
	t, err := parseTypeName(words, params)
	if err != nil {
		return "", 0, w.errAt(start, ErrType, err.Error())
	}
	return t.String(), i, nil
}

func (w *rewriter) tokOrEnd(i int) token {
	if i < len(w.toks) {
		return w.toks[i]
	}
	return token{off: len(w.src.Text), end: len(w.src.Text)}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// topLevelComma reports whether the parentheses opening at toks[open]
// hold a comma of their own (not one of a nested call's).
func topLevelComma(toks []token, open int) bool {
	end := matchingParen(toks, open)
	return end > open && len(splitTop(toks, open+1, end)) > 1 // rewrite_grouping.go
}

func isUnsupportedOp(op string) bool {
	switch op {
	case "|", "->", "->>", ":=", "<=>":
		return true
	}
	return false
}

// hasCalendarUnit reports whether interval text counts months, quarters
// or years, whose length in days depends on the date they start from.
func hasCalendarUnit(text string) bool {
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.TrimLeft(f, "0123456789.+-")
		if strings.HasPrefix(f, "mon") || strings.HasPrefix(f, "quarter") || strings.HasPrefix(f, "y") {
			return true
		}
	}
	return false
}

func isIntervalUnit(t token) bool {
	_, ok := columnar.IntervalUnitMonths(t.val)
	return t.kind == tkIdent && ok
}

// syntaxNear renders "syntax error at or near "x"" for token t, or "at end
// of input" past the last token.
func syntaxNear(src Source, t token) string {
	if t.off >= len(src.Text) || t.end <= t.off {
		return "syntax error at end of input"
	}
	return fmt.Sprintf("syntax error at or near %q", src.Text[t.off:t.end])
}
