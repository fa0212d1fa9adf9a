// Command duck runs SQL in DuckDB (the same build the comparison links) and
// prints each result as tab-separated rows, NULL as "NULL": the oracle the
// .test files' expected answers are checked against.
//
//	cd bench && go run ./cmd/duck -c "SELECT INTERVAL 2 YEARS"
//	cd bench && go run ./cmd/duck < script.sql     # statements split on ';' outside quotes
//	cd bench && go run ./cmd/duck -types -c "..."  # a header line with column types first
//	cd bench && go run ./cmd/duck -raw -c "..."    # Go values as scanned, not DuckDB's text
//
// Statements run in order on one connection, so SET and CREATE carry over.
// An error is printed as "error: …" and the next statement still runs; the
// exit status is 1 if any statement failed.
package main

import (
	"bufio"
	dsql "database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"
)

func main() {
	cmd := flag.String("c", "", "SQL to run (default: read standard input)")
	types := flag.Bool("types", false, "print a header with column names and types")
	raw := flag.Bool("raw", false, "print Go values as scanned instead of DuckDB's VARCHAR text of each value")
	flag.Parse()
	text := *cmd
	if text == "" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		text = string(b)
	}
	db, err := dsql.Open("duckdb", "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	failed := false
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, stmt := range split(text) {
		if err := run(db, stmt, *types, !*raw, out); err != nil {
			fmt.Fprintf(out, "error: %v\n", err)
			failed = true
		}
	}
	out.Flush()
	if failed {
		os.Exit(1)
	}
}

// split cuts a script at the semicolons outside quotes and -- comments.
func split(text string) []string {
	var stmts []string
	begin := 0
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == ';':
			if s := strings.TrimSpace(text[begin:i]); s != "" {
				stmts = append(stmts, s)
			}
			begin = i + 1
		}
	}
	if s := strings.TrimSpace(text[begin:]); s != "" {
		stmts = append(stmts, s)
	}
	return stmts
}

func run(db *dsql.DB, stmt string, types, text bool, out *bufio.Writer) error {
	var header []*dsql.ColumnType
	if types && text && isQuery(stmt) {
		// The types of the query itself, before the VARCHAR wrapping below.
		r, err := db.Query("SELECT * FROM (" + strings.TrimSuffix(strings.TrimSpace(stmt), ";") + ") LIMIT 0")
		if err != nil {
			return err
		}
		header, err = r.ColumnTypes()
		r.Close()
		if err != nil {
			return err
		}
	}
	if text && isQuery(stmt) {
		// DuckDB's own text form of every value (INTERVAL, LIST, STRUCT, …),
		// as its CLI and sqllogictest print them.
		stmt = "SELECT COLUMNS(*)::VARCHAR FROM (" + strings.TrimSuffix(strings.TrimSpace(stmt), ";") + ")"
	}
	rows, err := db.Query(stmt)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	if header == nil {
		header = cols
	}
	if types {
		for i, c := range header {
			if i > 0 {
				out.WriteString("\t")
			}
			fmt.Fprintf(out, "%s %s", c.Name(), c.DatabaseTypeName())
		}
		out.WriteString("\n")
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			if i > 0 {
				out.WriteString("\t")
			}
			if v == nil {
				out.WriteString("NULL")
			} else if b, ok := v.([]byte); ok {
				fmt.Fprintf(out, "%q", b)
			} else {
				fmt.Fprint(out, v)
			}
		}
		out.WriteString("\n")
	}
	return rows.Err()
}

// isQuery reports whether stmt returns rows that can be wrapped in a
// subquery (SELECT, FROM-first, WITH, VALUES, TABLE).
func isQuery(stmt string) bool {
	f := strings.ToUpper(strings.Fields(stmt + " x")[0])
	switch f {
	case "SELECT", "FROM", "WITH", "VALUES", "TABLE", "(SELECT":
		return true
	}
	return false
}
