// Package memory is the per-query memory manager: the one place that decides
// whether an operator may hold more data, must spill what it holds, or fails
// the query.
//
// An operator that buffers (sort runs, join builds, hash tables, window
// partitions, materialized CTEs) takes a Reservation from the query's
// Manager and calls Grow before it grows. Grow answers nil (go ahead),
// ErrSpill (the operator said it can spill and a temp directory is set:
// write what you hold to disk, Shrink, and go on; such operators spill once
// the query holds 3/4 of its limit, spillShare, the rest being for what no
// reservation counts), or an *OutOfMemory error
// naming the operator and the figures, which ends the query with a message
// the user can act on. Free returns a reservation's bytes when the operator
// is done; Manager.Close frees whatever a query still holds, whichever way
// it ended.
//
// The limit defaults to 80% of the machine's physical memory or of the
// cgroup (v2 or v1) limit, whichever is lower (DefaultLimit, as DuckDB).
// SetRuntimeBackstop hands the last limit set, less the process's memory
// outside the runtime's count, to the Go runtime's soft limit
// (debug.SetMemoryLimit), so that the collector works harder near it; it is a backstop, never the mechanism: accounting is by
// reservation, not by sampling the heap. While the process's queries hold
// much (gc.go), the collector runs more often, so that the garbage
// resident beside what they hold stays a fraction of it.
//
// Every Manager also reserves from one pool of the process, whose limit
// (SetProcessLimit) defaults to DefaultLimit: queries that run at once,
// each within its memory_limit, cannot together pass it; the one refused
// spills, or fails with an error saying the process's queries hold the
// memory. A query without a limit is never refused, but counts.
//
// A nil *Manager and a nil *Reservation allow everything, so code paths
// without a query (unit tests, internal scans) need no special case.
package memory
