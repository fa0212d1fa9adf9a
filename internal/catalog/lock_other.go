//go:build !unix

package catalog

// LockFile: without flock, writes are serialized within the process only
// (Catalog.Lock); concurrent writers in other processes are not excluded.
func LockFile(path string) (unlock func(), err error) { return func() {}, nil }
