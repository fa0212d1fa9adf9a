package repl

import "golang.org/x/sys/unix"

// The termios ioctls differ in name between Linux and the BSDs.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
