//go:build linux || darwin || freebsd || netbsd || openbsd

package repl

import (
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// TestTermStateRestoresAfterPanic: a panic unwinding through the deferred
// Restore leaves the terminal as it was before raw mode.
func TestTermStateRestoresAfterPanic(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("cannot allocate a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	fd := int(tty.Fd())
	before, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { recover() }()
		st, err := saveTerm(fd)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Restore()
		if err := st.makeRaw(); err != nil {
			t.Fatal(err)
		}
		raw, _ := unix.IoctlGetTermios(fd, ioctlGetTermios)
		if raw.Lflag&(unix.ECHO|unix.ICANON|unix.ISIG) != 0 || raw.Oflag&unix.OPOST == 0 {
			t.Errorf("raw mode: lflag %#x oflag %#x", raw.Lflag, raw.Oflag)
		}
		// Raw twice must still restore the original, not the raw mode
		// (go-prompt's bug).
		st.makeRaw()
		panic("boom")
	}()
	after, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Fatalf("not restored:\nbefore %+v\nafter  %+v", before, after)
	}
}
