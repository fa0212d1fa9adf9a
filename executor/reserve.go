package executor

import (
	"errors"

	"github.com/b2sql/b2sql/executor/memory"
)

// reserveTo grows res to size+ahead bytes, *held being what it holds for
// the table now: size is what the table holds, ahead what its next
// Assign may allocate. It answers spill when the manager refused and the
// refusal is answered by spilling (spillRefusal), or the error that ends
// the query.
func reserveTo(res *memory.Reservation, m *memory.Manager, held *int64, size, ahead int64) (spill bool, err error) {
	if size+ahead <= *held || res == nil {
		return false, nil
	}
	err = res.Grow(size + ahead - *held)
	if err == nil {
		*held = size + ahead
		return false, nil
	}
	if spillRefusal(err, *held, m) {
		return true, nil
	}
	return false, err
}

// spillRefusal reports whether the refusal err of a Grow is answered by
// spilling: ErrSpill, or an operator that holds nothing yet refused its
// first bytes while a temp directory is set (it holds that much and spills
// the rest).
func spillRefusal(err error, held int64, m *memory.Manager) bool {
	var oom *memory.OutOfMemory
	return errors.Is(err, memory.ErrSpill) || errors.As(err, &oom) && held == 0 && m.TempDir() != ""
}
