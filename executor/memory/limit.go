package memory

import (
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// DefaultLimit is 80% of the physical memory or of the cgroup's memory
// limit, whichever is lower (Total); 0 when neither can be read.
func DefaultLimit() int64 { return Total() / 10 * 8 }

// Total is the memory this process may use: the physical memory or the
// cgroup's memory limit, whichever is lower; 0 when neither can be read.
// Percentages of memory_limit ('50%') are of Total.
func Total() int64 {
	totalOnce.Do(func() {
		total = physicalMemory()
		if c := cgroupLimit(); c > 0 && (total <= 0 || c < total) {
			total = c
		}
	})
	return total
}

var (
	totalOnce sync.Once
	total     int64
)

// physicalMemory reads MemTotal from /proc/meminfo (0 where there is none).
func physicalMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

// cgroupLimit reads the memory limit of the process's cgroup, v2 first
// then v1; 0 when there is none ("max", or v1's huge "no limit" value).
func cgroupLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if n := readLimit(p); n > 0 {
			return n
		}
	}
	return 0
}

func readLimit(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return parseLimit(string(b))
}

// parseLimit reads a cgroup limit file's text: bytes, or "max"; v1 writes
// a value near MaxInt64 for no limit.
func parseLimit(s string) int64 {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n >= math.MaxInt64/2 {
		return 0
	}
	return n
}

var backstop struct {
	sync.Mutex
	set int64
}

// SetRuntimeBackstop sets the Go runtime's soft memory limit
// (debug.SetMemoryLimit) from the query limit, so that the collector works
// harder before the process passes it: garbage the operators no longer
// hold is not counted by reservations but is resident until collected.
// The soft limit is the query limit less what the process holds outside
// the runtime's count (nonRuntime), so that the resident set, not only the
// Go heap, stays within memory_limit. The last limit set wins. It is a
// backstop: the reservations, under spillShare of the limit, keep queries
// within it.
func SetRuntimeBackstop(limit int64) {
	if limit <= 0 {
		limit = math.MaxInt64
	} else {
		limit -= min(limit/8, nonRuntime)
	}
	// A tiny query limit (tests use kilobytes) must not make the collector
	// run continuously for the whole process.
	limit = max(limit, 256<<20)
	backstop.Lock()
	defer backstop.Unlock()
	if limit != backstop.set {
		backstop.set = limit
		debug.SetMemoryLimit(limit)
	}
}

// nonRuntime is what the process holds resident beyond the memory the Go
// runtime counts against its soft limit: the pages of the program's code
// and read-only data it has touched. b2sql's resident set running
// `SELECT count(*)` over a Parquet file is 48 MB with a heap of 4 MB.
const nonRuntime = 64 << 20
