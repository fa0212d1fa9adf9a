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
// process hold at least gcLevels[i].from bytes in reservations, the
// collector runs at gcLevels[i].percent (from 256 MiB the heap grows by a
// quarter of what is live before it collects, from 1 GiB by an eighth: a
// 10M-row ORDER BY holding 1.6 GB made 400 MB of garbage a cycle while it
// wrote its output, 200 MB at an eighth), and a level down once they hold
// under half its threshold (back at the previous setting below the
// first). What operators hold in reservations is mostly large
// pointer-free chunks, which a collection marks without scanning, so the
// extra collections cost little. A GOGC set in the environment is the
// user's choice and is left alone.
var gcLevels = []struct {
	from    int64
	percent int
}{{256 << 20, 25}, {1 << 30, 12}}

var gcTune struct {
	level   atomic.Int32 // 0: the previous setting; i: gcLevels[i-1]
	mu      sync.Mutex
	prev    int
	userSet bool
}

func init() { gcTune.userSet = os.Getenv("GOGC") != "" }

// gcLevel is the level for u bytes held at level cur: up to the highest
// whose threshold u reaches, down while u is under half the threshold of
// the level it is at.
func gcLevel(u int64, cur int) int {
	l := cur
	for l < len(gcLevels) && u >= gcLevels[l].from {
		l++
	}
	for l > 0 && u < gcLevels[l-1].from/2 {
		l--
	}
	return l
}

// tuneGC switches the collector for u bytes held by the process's queries.
func tuneGC(u int64) {
	cur := int(gcTune.level.Load())
	if gcTune.userSet || gcLevel(u, cur) == cur {
		return
	}
	gcTune.mu.Lock()
	defer gcTune.mu.Unlock()
	cur = int(gcTune.level.Load())
	want := gcLevel(u, cur)
	switch {
	case want == cur:
		return
	case want == 0:
		debug.SetGCPercent(gcTune.prev)
	case cur == 0:
		gcTune.prev = debug.SetGCPercent(gcLevels[want-1].percent)
	default:
		debug.SetGCPercent(gcLevels[want-1].percent)
	}
	gcTune.level.Store(int32(want))
}
