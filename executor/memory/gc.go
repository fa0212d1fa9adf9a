package memory

import (
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// The collector while queries hold much. With the default GOGC=100 the Go
// heap grows to twice what was live at the last collection before the next
// one: a query holding 1 GB of stored rows (a sort's store, an aggregate's
// partitions) then has up to another 1 GB of garbage resident beside it,
// twice what the same data costs DuckDB. So while the queries of the
// process hold at least gcTightFrom bytes in reservations, the collector
// runs at gcTightPercent (the heap grows by a quarter of what is live
// before it collects), and back at the previous setting once they hold
// under half that. What operators hold in reservations is mostly large
// pointer-free chunks, which a collection marks without scanning, so the
// extra collections cost little. A GOGC set in the environment is the
// user's choice and is left alone.
const (
	gcTightFrom    = 256 << 20
	gcTightPercent = 25
)

var gcTune struct {
	tight   atomic.Bool
	mu      sync.Mutex
	prev    int
	userSet bool
}

func init() { gcTune.userSet = os.Getenv("GOGC") != "" }

// tuneGC switches the collector for u bytes held by the process's queries.
func tuneGC(u int64) {
	tight := gcTune.tight.Load()
	want := u >= gcTightFrom || tight && u >= gcTightFrom/2
	if want == tight || gcTune.userSet {
		return
	}
	gcTune.mu.Lock()
	defer gcTune.mu.Unlock()
	if gcTune.tight.Load() == want {
		return
	}
	if want {
		gcTune.prev = debug.SetGCPercent(gcTightPercent)
	} else {
		debug.SetGCPercent(gcTune.prev)
	}
	gcTune.tight.Store(want)
}
