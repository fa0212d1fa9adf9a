//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// cpuTime is the user + system CPU time of the whole process so far (every
// b2sql worker included): less disturbed than wall time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAvg is the 1, 5 and 15 minute load averages, printed with the
// figures because other load distorts wall times.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
