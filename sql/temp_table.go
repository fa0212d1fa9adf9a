package sql

import (
	"regexp"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// tempWord finds TEMP or TEMPORARY, the word after CREATE [OR REPLACE].
var tempWord = regexp.MustCompile(`(?i)\bTEMP(ORARY)?\b`)

// createTemp builds CREATE [OR REPLACE] TEMP TABLE …: an in-memory table
// (FORMAT memory), which no file holds and which is gone when the
// database closes. DuckDB's temporary tables are also private to their
// connection; b2sql's catalog is one per database, so other connections
// of the same database see it. The statement is parsed as CREATE TABLE
// with the word blanked out, so that positions stay those of the text.
func (b *stmtBuilder) createTemp(s *ast.CreateTable) (Statement, error) {
	text := b.src.Text
	loc := tempWord.FindStringIndex(text[s.Start:s.End])
	if loc == nil {
		return nil, b.errAt(s, ErrSyntax, "TEMP expected")
	}
	start, end := s.Start+loc[0], s.Start+loc[1]
	src := b.src
	src.Text = text[:start] + strings.Repeat(" ", end-start) + text[end:]
	st, err := parseLegacy(src)
	if err != nil {
		return nil, err
	}
	mem := Option{Name: "format", Value: "memory", Pos: b.pos(start)}
	var opts *[]Option
	switch c := st.(type) {
	case *CreateTable:
		opts = &c.Options
	case *CreateTableAs:
		opts = &c.Options
	default:
		return nil, b.errAt(s, ErrSyntax, "CREATE TEMP TABLE expected")
	}
	for _, o := range *opts {
		if o.Name == "format" && o.Value != "memory" {
			return nil, &Error{Pos: o.Pos, Kind: ErrUnsupported, Msg: "a TEMP table is in memory: FORMAT " + o.Value + " contradicts it"}
		}
	}
	*opts = append(*opts, mem)
	return st, nil
}
