// Package leakcheck helps tests assert that work they stopped left no
// goroutine behind.
package leakcheck

import (
	"runtime"
	"time"
)

// Goroutines waits up to a second for the goroutine count to fall back to
// before and returns the count then (more than before: a leak).
func Goroutines(before int) int {
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return runtime.NumGoroutine()
}
