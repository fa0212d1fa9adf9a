//go:build unix

// Package proc reads what the bench commands print beside their timings:
// the process's CPU time and the machine's load.
package proc

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// CPUTime is the CPU time (user + system) this process has used so far, in
// all its threads: DuckDB's worker threads and b2sql's goroutines alike.
// It is less disturbed than wall time by other load on a shared machine.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// LoadAvg returns the 1, 5 and 15 minute load averages, or "" where the
// system does not expose them: timings on a loaded machine are noisy.
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
