package repl

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	prompt "github.com/c-bata/go-prompt"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/sql/parser"
)

// wordSeparators end the word being completed. '.' and '/' are not among
// them: "t.col", ".tables" and "data/x.parquet" complete as a whole.
const wordSeparators = " \t\n(),;'\"`=<>+*|!"

// Bounds that keep completion from ever holding up typing.
const (
	maxSuggestions = 60
	maxDirEntries  = 200                    // entries read from one directory
	dirTimeout     = 150 * time.Millisecond // a slow directory yields nothing now, results later
	dirCacheTTL    = 2 * time.Second
	schemaTimeout  = 300 * time.Millisecond
)

// completer suggests what may come next as the user types: meta-command
// names and arguments, file paths inside quotes, table names, the columns
// of the tables the statement names (also "t.col"), functions with their
// signature, and keywords.
type completer struct {
	r *Runner
	// before is the open statement's text before the current line.
	before func() string
	// seen, if set, is told the current line on every keystroke.
	seen func(line string)

	mu     sync.Mutex
	db     *b2sql.DB           // the DB the schema cache belongs to
	schema map[string][]string // table name or path → column names
	dirs   map[string]dirListing
}

type dirListing struct {
	at      time.Time
	entries []os.DirEntry
	pending bool // a listing is still running
}

func newCompleter(r *Runner, before func() string) *completer {
	return &completer{r: r, before: before, schema: map[string][]string{}, dirs: map[string]dirListing{}}
}

// Complete is the go-prompt Completer.
func (c *completer) Complete(d prompt.Document) []prompt.Suggest {
	if c.seen != nil {
		c.seen(d.Text)
	}
	open := c.before()
	line := d.TextBeforeCursor()
	word := d.GetWordBeforeCursorUntilSeparator(wordSeparators)
	if blank(open) && strings.HasPrefix(strings.TrimLeft(line, " \t"), ".") {
		return c.meta(strings.TrimLeft(line, " \t"), word)
	}
	text := open + line
	st := parser.Scan(text)
	switch st.Open {
	case parser.OpenLineComment, parser.OpenBlockComment:
		return nil
	case parser.OpenString, parser.OpenIdent:
		if st.Open == parser.OpenString || text[st.Body-1] == '`' { // a file name: '…' or `…`
			return c.paths(text[st.Body:], word)
		}
	}
	if word == "" {
		return nil
	}
	full := open + d.Text
	refs := tableRefs(full)
	if q, p, ok := strings.Cut(word, "."); ok && !strings.Contains(p, ".") {
		var out []prompt.Suggest
		for _, ref := range refs {
			if strings.EqualFold(ref.alias, q) || strings.EqualFold(ref.name, q) {
				for _, col := range c.columns(ref) {
					if hasPrefixFold(col, p) {
						out = append(out, prompt.Suggest{Text: q + "." + col, Description: "column of " + ref.name})
					}
				}
			}
		}
		// db.t: a table of a database ATTACH made (or of a schema).
		for _, t := range c.r.DB.Tables() {
			if strings.Contains(t, ".") && hasPrefixFold(t, word) && !strings.EqualFold(t, word) {
				out = append(out, prompt.Suggest{Text: t, Description: "table"})
			}
		}
		return limit(out)
	}
	var out []prompt.Suggest
	seen := map[string]bool{}
	add := func(text, desc string) {
		if hasPrefixFold(text, word) && !seen[strings.ToLower(text)] && !strings.EqualFold(text, word) {
			seen[strings.ToLower(text)] = true
			out = append(out, prompt.Suggest{Text: text, Description: desc})
		}
	}
	afterFrom := previousKeyword(text[:len(text)-len(word)])
	if afterFrom {
		for _, t := range c.r.DB.Tables() {
			add(t, "table")
		}
		return limit(out)
	}
	for _, ref := range refs {
		for _, col := range c.columns(ref) {
			add(col, "column of "+ref.name)
		}
	}
	for _, t := range c.r.DB.Tables() {
		add(t, "table")
	}
	lower := strings.ToLower(word) == word
	for _, f := range functions() {
		add(f.name, f.sig)
	}
	for _, k := range sqlKeywords {
		if lower {
			k = strings.ToLower(k)
		}
		add(k, "")
	}
	return limit(out)
}

func limit(s []prompt.Suggest) []prompt.Suggest {
	if len(s) > maxSuggestions {
		s = s[:maxSuggestions]
	}
	return s
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// meta completes a meta-command line: its name, then its argument.
func (c *completer) meta(line, word string) []prompt.Suggest {
	name, arg, hasArg := strings.Cut(line, " ")
	var out []prompt.Suggest
	if !hasArg {
		for _, m := range metaCommands {
			if strings.HasPrefix(m.name, strings.ToLower(name)) && m.name != name {
				out = append(out, prompt.Suggest{Text: m.name, Description: strings.TrimSpace(m.args + "  " + m.help)})
			}
		}
		return out
	}
	arg = strings.TrimLeft(arg, " ")
	opts := func(xs ...string) []prompt.Suggest {
		for _, x := range xs {
			if strings.HasPrefix(x, word) && x != word {
				out = append(out, prompt.Suggest{Text: x})
			}
		}
		return out
	}
	switch strings.ToLower(name) {
	case ".open", ".read", ".output":
		if arg == "" {
			return nil
		}
		return c.paths(strings.TrimLeft(arg, `'"`), word)
	case ".describe", ".schema":
		return opts(c.r.DB.Tables()...)
	case ".mode":
		return opts("table", "csv", "tsv", "json", "ndjson", "markdown", "line")
	case ".timer", ".headers", ".progress":
		return opts("on", "off")
	}
	return nil
}

// previousKeyword reports whether the last word of text is FROM or JOIN,
// so a table name comes next.
func previousKeyword(text string) bool {
	f := strings.Fields(text)
	if len(f) == 0 {
		return false
	}
	last := strings.ToUpper(f[len(f)-1])
	return last == "FROM" || last == "JOIN"
}

// columns returns the column names of a table or file the statement
// names, through DESCRIBE, cached per open DB. A lookup that fails or
// times out is cached as empty: completion must not retry on every key.
func (c *completer) columns(ref tableRef) []string {
	key := strings.ToLower(ref.name)
	if ref.path {
		key = "'" + ref.name
	}
	c.mu.Lock()
	if c.db != c.r.DB {
		c.db, c.schema = c.r.DB, map[string][]string{}
	}
	cols, ok := c.schema[key]
	c.mu.Unlock()
	if ok {
		return cols
	}
	q := "DESCRIBE " + quoteIdent(ref.name)
	if ref.path {
		q = "DESCRIBE SELECT * FROM '" + strings.ReplaceAll(ref.name, "'", "''") + "'"
	} else if !hasTable(c.r.DB, ref.name) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), schemaTimeout)
	defer cancel()
	cols = []string{}
	if rows, err := c.r.DB.Query(ctx, q); err == nil {
		for rows.Next() {
			cols = append(cols, rows.Values()[0].String())
		}
		rows.Close()
	}
	c.mu.Lock()
	c.schema[key] = cols
	c.mu.Unlock()
	return cols
}

func hasTable(db *b2sql.DB, name string) bool {
	for _, t := range db.Tables() {
		if strings.EqualFold(t, name) {
			return true
		}
	}
	return false
}

// paths completes a file path: prefix is the path typed so far, word the
// part of it go-prompt will replace, so suggestions are cut to match.
func (c *completer) paths(prefix, word string) []prompt.Suggest {
	dir, base := filepath.Split(prefix)
	entries := c.listDir(dir)
	var out []prompt.Suggest
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		full, desc := dir+name, "file"
		if e.IsDir() {
			full, desc = full+"/", "directory"
		}
		cut := len(prefix) - len(word)
		if cut < 0 || cut > len(full) {
			continue
		}
		out = append(out, prompt.Suggest{Text: full[cut:], Description: desc})
	}
	return limit(out)
}

// listDir reads at most maxDirEntries entries of dir, waiting at most
// dirTimeout: a listing that takes longer finishes in the background and
// serves a later keystroke.
func (c *completer) listDir(dir string) []os.DirEntry {
	c.mu.Lock()
	l, ok := c.dirs[dir]
	if ok && (l.pending || time.Since(l.at) < dirCacheTTL) {
		c.mu.Unlock()
		return l.entries
	}
	c.dirs[dir] = dirListing{at: time.Now(), pending: true}
	c.mu.Unlock()
	done := make(chan []os.DirEntry, 1)
	go func() {
		open := dir
		if open == "" {
			open = "."
		}
		var entries []os.DirEntry
		if f, err := os.Open(open); err == nil {
			entries, _ = f.ReadDir(maxDirEntries)
			f.Close()
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		c.mu.Lock()
		c.dirs[dir] = dirListing{at: time.Now(), entries: entries}
		c.mu.Unlock()
		done <- entries
	}()
	select {
	case e := <-done:
		return e
	case <-time.After(dirTimeout):
		return nil
	}
}

// tableRef is a table a statement reads: a registered name or a quoted
// file path, and its alias.
type tableRef struct {
	name, alias string
	path        bool
}

// tableRefs finds the tables after FROM and JOIN (and commas in a FROM
// list), with their aliases. It is a token scan, not a parse: it must
// work on the half-typed statements completion sees.
func tableRefs(text string) []tableRef {
	toks := sqlTokens(text)
	var out []tableRef
	for i := 0; i < len(toks); i++ {
		if u := strings.ToUpper(toks[i]); u != "FROM" && u != "JOIN" {
			continue
		}
		for i+1 < len(toks) {
			i++
			t := toks[i]
			ref := tableRef{}
			switch {
			case strings.HasPrefix(t, "'"):
				ref.name, ref.path = strings.Trim(t, "'"), true
			case strings.EqualFold(t, "read_parquet") || strings.EqualFold(t, "parquet_scan"):
				if i+2 < len(toks) && toks[i+1] == "(" && strings.HasPrefix(toks[i+2], "'") {
					ref.name, ref.path = strings.Trim(toks[i+2], "'"), true
					i += 2
					for i+1 < len(toks) && toks[i] != ")" {
						i++
					}
				}
			case isIdent(t) && !isClauseWord(t):
				ref.name = strings.Trim(t, `"`)
			}
			if ref.name == "" {
				break
			}
			if i+1 < len(toks) && strings.EqualFold(toks[i+1], "AS") {
				i++
			}
			if i+1 < len(toks) && isIdent(toks[i+1]) && !isClauseWord(toks[i+1]) {
				i++
				ref.alias = strings.Trim(toks[i], `"`)
			}
			out = append(out, ref)
			if i+1 < len(toks) && toks[i+1] == "," {
				i++
				continue
			}
			break
		}
	}
	return out
}

func isIdent(t string) bool {
	if t == "" {
		return false
	}
	if t[0] == '"' {
		return true
	}
	c := t[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// isClauseWord reports keywords that can follow a table reference, which
// therefore are not aliases.
func isClauseWord(t string) bool {
	switch strings.ToUpper(t) {
	case "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN", "INNER", "LEFT", "RIGHT",
		"FULL", "CROSS", "OUTER", "ON", "USING", "UNION", "EXCEPT", "INTERSECT", "AS", "SELECT", "FROM", "WINDOW", "QUALIFY":
		return true
	}
	return false
}

// sqlTokens splits text into identifiers/words, quoted strings and
// single punctuation characters, skipping comments.
func sqlTokens(text string) []string {
	var toks []string
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return toks
			}
			i += j + 4
		case c == '\'' || c == '"' || c == '`':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 {
				toks = append(toks, text[i:])
				return toks
			}
			tok := text[i : i+j+2]
			if c == '`' {
				tok = "'" + tok[1:len(tok)-1] + "'"
			}
			toks = append(toks, tok)
			i += j + 2
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80:
			j := i
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9' || text[j] >= 0x80) {
				j++
			}
			toks = append(toks, text[i:j])
			i = j
		default:
			toks = append(toks, text[i:i+1])
			i++
		}
	}
	return toks
}
