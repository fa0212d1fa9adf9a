//go:build unix

// Package proc reads what the bench commands print beside their timings:
// the process's CPU time and the machine's load.
package proc

import (
	"os"
	"strconv"
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

// PeakRSS is this process's peak resident set size in bytes (0 when
// not known): Linux's VmHWM, which starts afresh at exec. (The rusage
// a parent reads for a child also counts the parent's own resident set
// at the fork, so a child reports its peak itself.)
func PeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v) // "123456 kB"
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}
