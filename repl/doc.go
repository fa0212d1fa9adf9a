// Package repl owns how b2sql talks to a person or a script.
//
// A Runner runs scripts (RunScript: statements and dot meta-commands in
// order, errors printed with a caret under the position) and renders
// results (Output: table, csv, tsv, json, ndjson, markdown, line). Prompt
// is the interactive session on a terminal. One concept per file:
//
//	script.go     Runner, RunScript, running one query with timer and progress
//	meta.go       .help .tables .schema .describe .open .read .mode .output …
//	render.go     delimited, JSON and line formats
//	grid.go       the box table: type-aware alignment, width fitting, "… N more rows"
//	progress.go   the progress bar, and the Progress interface the API will feed
//	prompt.go     the go-prompt session: prompts, multi-line input, Ctrl-C/Ctrl-D, Ctrl-R
//	rawinput.go   go-prompt's keyboard: raw mode, one key per read, no lost type-ahead
//	termstate.go  the terminal mode saved and restored on every way out
//	complete.go   completion: keywords, tables, columns, functions, paths, meta-commands
//	functions.go  the function and keyword lists completion offers
//	history.go    the bounded, deduplicated, persisted history
//	sqlscan.go    where quotes and comments are: statement ends, blank input
//
// Non-interactive use (a pipe, a file, CI) gets no prompt, no colours and
// no progress bar: cmd/b2sql only turns those on when it sees a terminal.
package repl
