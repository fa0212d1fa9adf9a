package executor

import (
	"github.com/b2sql/b2sql/executor/memory"
)

// QueryRoot is the top of a query's operator tree. Its Close closes the
// tree, then releases what the query holds beside the tree — its
// materialized CTEs (rows and spill files) — and frees every reservation
// still held in its memory manager, whichever way the query ended. It is
// safe to Close twice and to Open again (a CTE is then computed again).
type QueryRoot struct {
	Operator
	CTEs   []*CTE
	Memory *memory.Manager
}

func (q *QueryRoot) Close() error {
	err := q.Operator.Close()
	for _, c := range q.CTEs {
		c.Release()
	}
	q.Memory.Close()
	return err
}
