//go:build darwin || freebsd || netbsd || openbsd

package repl

import "golang.org/x/sys/unix"

// The termios ioctls differ in name between Linux and the BSDs.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
