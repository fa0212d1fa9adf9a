//go:build !amd64 || purego

package filter

func SetAVX2(on bool) bool { return false }
