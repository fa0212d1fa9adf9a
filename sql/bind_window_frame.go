package sql

import (
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/planner"
)

// winFrameWords are the parts of a window frame MySQL's grammar lacks,
// which the rewriter takes out of the text: the GROUPS unit (the frame
// is parsed as ROWS, with the same bounds) and the EXCLUDE clause.
type winFrameWords struct {
	groups  bool
	exclude planner.FrameExclude
	// dist holds a fractional offset of the frame's start (0) or end
	// (1) bound, written as 0 for MySQL's grammar (hasDist says which).
	dist    [2]float64
	hasDist [2]bool
}

// frameBoundStart reports whether t can start a frame extent (after
// ROWS, RANGE or GROUPS), so that a column named groups is left alone.
func frameBoundStart(t token) bool {
	return t.is("BETWEEN") || t.is("UNBOUNDED") || t.is("CURRENT") || t.kind == tkNumber
}

// frameWords rewrites GROUPS (token i) as ROWS, or cuts out EXCLUDE
// CURRENT ROW | GROUP | TIES | NO OTHERS starting at token i, recording
// it for the window whose "(" is token open; it returns the number of
// tokens consumed.
func (w *rewriter) frameWords(i, open int) (int, error) {
	if w.rw.winFrame == nil {
		w.rw.winFrame = map[int]winFrameWords{}
	}
	fw := w.rw.winFrame[open]
	t := w.toks[i]
	if t.is("GROUPS") {
		fw.groups = true
		w.rw.winFrame[open] = fw
		w.tok(t, "ROWS")
		return 1, nil
	}
	at := func(k int) token {
		if k < len(w.toks) {
			return w.toks[k]
		}
		return token{kind: tkOp, off: len(w.src.Text), end: len(w.src.Text)}
	}
	n := 2
	switch next := at(i + 1); {
	case next.is("CURRENT") && at(i+2).is("ROW"):
		fw.exclude, n = planner.ExcludeCurrentRow, 3
	case next.is("GROUP"):
		fw.exclude = planner.ExcludeGroup
	case next.is("TIES"):
		fw.exclude = planner.ExcludeTies
	case next.is("NO") && at(i+2).is("OTHERS"):
		fw.exclude, n = planner.ExcludeNoOthers, 3
	default:
		bad := next
		if next.is("CURRENT") || next.is("NO") {
			bad = at(i + 2)
		}
		return 0, w.errAt(bad, ErrSyntax, syntaxNear(w.src, bad)+" (expected EXCLUDE CURRENT ROW, GROUP, TIES or NO OTHERS)")
	}
	w.rw.winFrame[open] = fw
	for k := i; k < i+n; k++ {
		w.skip(w.toks[k])
	}
	return n, nil
}

// nullsMode is a window call's IGNORE NULLS (ignore) or RESPECT NULLS;
// at is the token index of IGNORE or RESPECT, for errors.
type nullsMode struct {
	ignore bool
	at     int
}

// nullsWords records IGNORE|RESPECT NULLS at token i, written inside the
// call's parentheses before ")" or after them before OVER, for the call
// whose OVER follows.
func (w *rewriter) nullsWords(i int) error {
	over := i + 2
	if over < len(w.toks) && w.toks[over].isOp(")") {
		over++
	}
	if over >= len(w.toks) || !w.toks[over].is("OVER") {
		t := w.toks[i]
		return w.errAt(t, ErrSyntax, strings.ToUpper(t.val)+" NULLS is only valid in a window function call (lag, lead, first_value, last_value, nth_value … OVER)")
	}
	if w.rw.winNullsMode == nil {
		w.rw.winNullsMode = map[int]nullsMode{}
	}
	w.rw.winNullsMode[over] = nullsMode{ignore: w.toks[i].is("IGNORE"), at: i}
	return nil
}

// frameOffset records the fractional number at token i, a bound of the
// frame of the window whose "(" is token open, and writes it as 0. The
// bound is the end when an AND comes between the frame's unit and i.
func (w *rewriter) frameOffset(i, open int) error {
	t := w.toks[i]
	v, err := strconv.ParseFloat(t.val, 64)
	if err != nil {
		return w.errAt(t, ErrSyntax, syntaxNear(w.src, t))
	}
	end := 0
	for k := i - 1; k > open && !(w.toks[k].is("ROWS") || w.toks[k].is("RANGE") || w.toks[k].is("GROUPS")); k-- {
		if w.toks[k].is("AND") {
			end = 1
		}
	}
	if w.rw.winFrame == nil {
		w.rw.winFrame = map[int]winFrameWords{}
	}
	fw := w.rw.winFrame[open]
	fw.dist[end], fw.hasDist[end] = v, true
	w.rw.winFrame[open] = fw
	w.tok(t, "0")
	return nil
}
