//go:build !unix

// Package proc reads what the bench commands print beside their timings:
// the process's CPU time and the machine's load.
package proc

import "time"

// CPUTime is 0 where the system does not report it.
func CPUTime() time.Duration { return 0 }

// LoadAvg is "" where the system does not report it.
func LoadAvg() string { return "" }

// PeakRSS is 0 where the system does not report it.
func PeakRSS() int64 { return 0 }
