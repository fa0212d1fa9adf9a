package executor

import (
	"context"
	"sync"
	"time"

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
	// Warm are started together, each on its own goroutine, when the
	// query opens (planner.Warmer: remote scans fetch what they read
	// first). Close waits for them, but no longer than warmWait: a
	// cancelled query must end at once, and a warm still fetching only
	// fills caches.
	Warm []func()

	warming sync.WaitGroup
}

// warmWait bounds how long Close waits for the warms still running.
const warmWait = 50 * time.Millisecond

func (q *QueryRoot) Open(ctx context.Context) error {
	for _, w := range q.Warm {
		q.warming.Add(1)
		go func() {
			defer q.warming.Done()
			w()
		}()
	}
	return q.Operator.Open(ctx)
}

func (q *QueryRoot) Close() error {
	err := q.Operator.Close()
	if len(q.Warm) > 0 {
		done := make(chan struct{})
		go func() {
			q.warming.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(warmWait):
		}
	}
	for _, c := range q.CTEs {
		c.Release()
	}
	q.Memory.Close()
	return err
}
