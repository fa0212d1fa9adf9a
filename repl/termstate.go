//go:build linux || darwin || freebsd || netbsd || openbsd

package repl

import (
	"sync"

	"golang.org/x/sys/unix"
)

// termState is a terminal's mode saved before the line editor touches it,
// so every way out of the session — return, .quit, Ctrl-D, a panic
// unwinding through the deferred Restore, SIGTERM — can put it back.
// go-prompt v0.2.6 cannot be trusted with this: its raw-mode setup edits
// the very termios copy it later "restores" (so echo and line buffering
// stay off after exit, c-bata/go-prompt#228, #233), and it never restores
// on a signal (#266). The session therefore does raw mode itself (rawInput)
// and keeps the original here.
type termState struct {
	fd   int
	orig unix.Termios
	mu   sync.Mutex
}

// saveTerm records fd's current mode.
func saveTerm(fd int) (*termState, error) {
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	return &termState{fd: fd, orig: *t}, nil
}

// Restore puts the saved mode back; safe to call any number of times and
// from a signal-handling goroutine.
func (s *termState) Restore() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.orig
	return unix.IoctlSetTermios(s.fd, ioctlSetTermios, &t)
}

// makeRaw switches fd to the mode line editing needs, derived from the
// saved mode (never from the current one, which may already be raw): no
// echo, no line buffering, no signals from Ctrl-C/Ctrl-Z (they arrive as
// keys), 8-bit input. Output processing stays on so "\n" still returns
// the carriage, which go-prompt's renderer relies on.
func (s *termState) makeRaw() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.orig
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(s.fd, ioctlSetTermios, &t)
}
