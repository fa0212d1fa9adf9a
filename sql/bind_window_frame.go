package sql

import (
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

// nullsMode is a window call's IGNORE NULLS (ignore) or RESPECT NULLS;
// at is the token index of IGNORE or RESPECT, for errors.
type nullsMode struct {
	ignore bool
	at     int
}
