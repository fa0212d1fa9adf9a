package memory

import "sync/atomic"

// pool is memory shared by every query of the process: each Manager
// reserves from it as well as against its own limit, so that queries
// running at once, each within its memory_limit, cannot together take
// more than the process limit (DuckDB's memory_limit bounds a database
// instance, not one query).
type pool struct {
	limit atomic.Int64 // bytes; <= 0: none
	used  atomic.Int64
}

// process is the pool of this process; its limit is DefaultLimit until
// SetProcessLimit changes it.
var process = func() *pool {
	p := &pool{}
	p.limit.Store(DefaultLimit())
	return p
}()

// add reserves n bytes if they fit under the limit (under spillShare of
// it for an operator that can spill).
func (p *pool) add(n int64, canSpill bool) bool {
	for {
		u, l := p.used.Load(), p.limit.Load()
		if canSpill {
			l = spillShare(l)
		}
		if l > 0 && n > 0 && u+n > l {
			return false
		}
		if p.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// SetProcessLimit sets the most bytes the queries of this process may
// reserve together (<= 0: no bound) and returns the previous limit. The
// default is DefaultLimit: 80% of the memory the process may use.
func SetProcessLimit(n int64) int64 { return process.limit.Swap(n) }

// ProcessLimit is the process limit in bytes (<= 0: none).
func ProcessLimit() int64 { return process.limit.Load() }

// ProcessUsed is the bytes the queries of this process hold now.
func ProcessUsed() int64 { return process.used.Load() }
