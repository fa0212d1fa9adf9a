//go:build !unix

package b2sql

// lockFile: without flock, writes are serialized within the process only
// (DB.writes); concurrent writers in other processes are not excluded.
func lockFile(path string) (unlock func(), err error) { return func() {}, nil }
