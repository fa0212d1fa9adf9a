package repl

import (
	"os"
	"testing"
)

var packageTemp string

// tempDirForPackage is a directory shared by the package's tests, removed
// when they end (t.TempDir belongs to one test).
func tempDirForPackage() (string, error) { return packageTemp, nil }

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "repl-test-")
	if err != nil {
		panic(err)
	}
	packageTemp = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
