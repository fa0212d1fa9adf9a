// Package repl owns how b2sql talks to a person or a script: running a
// script statement by statement, the interactive loop, and rendering results
// as table, CSV, TSV, JSON, NDJSON or Markdown.
package repl
