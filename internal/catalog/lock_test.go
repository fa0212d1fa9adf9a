//go:build unix

package catalog

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// TestLockFileExcludesAndLeavesNothing: writers of one table, each with
// its own open lock file (as separate processes have), hold the lock one
// at a time, and no lock file stays once they are done, although each
// removes it while others wait on it.
func TestLockFileExcludesAndLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.b2d")
	var mu sync.Mutex
	holders, max := 0, 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				unlock, err := LockFile(path)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				holders++
				max = maxInt(max, holders)
				mu.Unlock()
				runtime.Gosched() // let a second holder, if any, in
				mu.Lock()
				holders--
				mu.Unlock()
				unlock()
			}
		}()
	}
	wg.Wait()
	if max != 1 {
		t.Errorf("%d writers held the lock at once", max)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}
