package b2

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelFor runs fn(w, i) for i in [0, n) on up to GOMAXPROCS workers
// (errgroup style: the first error stops new work and is returned). w is
// the worker number in [0, workers), so callers can keep one Decoder and
// scratch buffer per worker and bound memory to one chunk per worker.
func parallelFor(n int, fn func(w, i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if err := fn(0, i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next    atomic.Int64
		failed  atomic.Bool
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(w, i); err != nil {
					errOnce.Do(func() { first = err })
					failed.Store(true)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	return first
}

// workerCount returns how many workers parallelFor would use for n jobs.
func workerCount(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n)) }
