package ast

import (
	"strings"
	"unicode/utf8"
)

// Span is the byte range [Start, End) of a node in the text it was parsed
// from (the whole script, not one statement).
type Span struct{ Start, End int }

// Extent returns the span itself; embedding Span gives every node the
// method of Node.
func (s Span) Extent() Span { return s }

// Node is any syntax tree node.
type Node interface{ Extent() Span }

// LineCol returns the 1-based line and column (in runes) of byte offset off
// in text; an offset past the end is read as the end.
func LineCol(text string, off int) (line, col int) {
	off = max(0, min(off, len(text)))
	prefix := text[:off]
	line = 1 + strings.Count(prefix, "\n")
	if nl := strings.LastIndexByte(prefix, '\n'); nl >= 0 {
		prefix = prefix[nl+1:]
	}
	return line, 1 + utf8.RuneCountInString(prefix)
}

// Ident is one identifier as written: Name is unquoted (a quoted
// identifier's doubled quotes undone) and keeps its case; Quoted tells
// "x" from x (DuckDB matches both case-insensitively, but a quoted name
// is never a keyword).
type Ident struct {
	Span
	Name   string
	Quoted bool
}

// Name is a possibly qualified name: t, main.t, memory.main.t.
type Name []*Ident

// Last returns the last part of the name ("t" of main.t).
func (n Name) Last() *Ident { return n[len(n)-1] }

// Span returns the span from the first part to the last.
func (n Name) Span() Span { return Span{n[0].Start, n[len(n)-1].End} }
