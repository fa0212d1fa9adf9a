package executor

import (
	"errors"

	"github.com/b2sql/b2sql/columnar"
)

// error(message) fails the query with the message when it is evaluated
// (DuckDB's error(), typically in a CASE arm); a NULL message still fails.

func fnError(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.Value{}, errors.New("error() called with a NULL message")
	}
	return columnar.Value{}, errors.New(a[0].S)
}
