//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) this process has used so far, in
// all its threads: DuckDB's worker threads and b2sql's goroutines alike.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAvg returns the 1, 5 and 15 minute load averages, or "" where the
// system does not expose them: timings on a loaded machine are noisy.
func loadAvg() string {
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
