//go:build linux || darwin || freebsd || netbsd || openbsd

package repl

import (
	"errors"
	"sync"
	"unicode/utf8"

	prompt "github.com/c-bata/go-prompt"
	"golang.org/x/sys/unix"
)

// rawInput is the line editor's keyboard: a go-prompt ConsoleParser over
// the terminal that replaces go-prompt's own (see termState for why) and
// fixes two more of its habits:
//
//   - go-prompt turns each read into one key, so a pasted "SELECT 1;\r"
//     would be inserted as text with a literal CR. Read hands out one key
//     or one run of plain text at a time instead.
//   - go-prompt stops reading after Enter but drops what its reader
//     goroutine already fetched. After Enter, Read hands out nothing more
//     until the next Setup, so typed-ahead and pasted lines wait for the
//     next prompt.
type rawInput struct {
	// fd is the terminal, read with plain syscalls. It is taken from the
	// *os.File once: every File.Fd call switches the descriptor back to
	// blocking mode, and a blocking read would keep go-prompt's reader
	// goroutine from ever seeing its stop signal (a hang after Ctrl-D).
	fd    int
	state *termState

	mu      sync.Mutex
	pending []byte
	hold    bool // Enter was handed out; wait for the next Setup
	lastKey byte // first byte of the last key handed out
	// interrupt is called for Ctrl-C; false swallows the key.
	interrupt func() bool
}

var errNoInput = errors.New("no input")

// Setup switches the terminal to raw, non-blocking reads (go-prompt polls).
func (in *rawInput) Setup() error {
	in.mu.Lock()
	in.hold = false
	in.lastKey = 0
	in.mu.Unlock()
	if err := unix.SetNonblock(in.fd, true); err != nil {
		return err
	}
	return in.state.makeRaw()
}

// TearDown restores the saved mode while a statement runs, so Ctrl-C is a
// signal again (it cancels the query) and output is cooked.
func (in *rawInput) TearDown() error {
	err := unix.SetNonblock(in.fd, false)
	if rerr := in.state.Restore(); err == nil {
		err = rerr
	}
	return err
}

// GetWinSize reports the terminal size, 80x24 if it cannot be read
// (go-prompt's own panics).
func (in *rawInput) GetWinSize() *prompt.WinSize {
	ws, err := unix.IoctlGetWinsize(in.fd, unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 {
		return &prompt.WinSize{Row: 24, Col: 80}
	}
	return &prompt.WinSize{Row: ws.Row, Col: ws.Col}
}

// Read returns the next key or run of text.
func (in *rawInput) Read() ([]byte, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.hold {
		return nil, errNoInput
	}
	if len(in.pending) == 0 || !utf8.FullRune(in.pending) {
		buf := make([]byte, 4096)
		n, err := unix.Read(in.fd, buf)
		if n > 0 {
			in.pending = append(in.pending, buf[:n]...)
		} else if len(in.pending) == 0 {
			if err == nil {
				err = errNoInput
			}
			return nil, err
		}
	}
	k := nextKey(in.pending)
	tok := append([]byte(nil), in.pending[:k]...)
	in.pending = in.pending[k:]
	in.lastKey = tok[0]
	switch tok[0] {
	case '\r', '\n':
		in.hold = true
	case 0x03:
		if in.interrupt != nil && !in.interrupt() {
			return nil, errNoInput
		}
	}
	return tok, nil
}

// lastWas reports whether the last key handed out started with b.
func (in *rawInput) lastWas(b byte) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.lastKey == b
}

// nextKey returns the length of the first key in b (len(b) > 0): an escape
// sequence, a control byte, or a run of printable text not ending inside a
// UTF-8 sequence.
func nextKey(b []byte) int {
	c := b[0]
	switch {
	case c == 0x1b:
		if len(b) == 1 {
			return 1
		}
		switch b[1] {
		case '[': // CSI: parameters, then a final byte in 0x40–0x7e
			for i := 2; i < len(b); i++ {
				if b[i] >= 0x40 && b[i] <= 0x7e {
					return i + 1
				}
			}
			return len(b)
		case 'O': // SS3: one more byte (F1–F4, keypad)
			return min(3, len(b))
		}
		return 2 // Alt+key
	case c < 0x20 || c == 0x7f:
		return 1
	}
	i := 0
	for i < len(b) && b[i] >= 0x20 && b[i] != 0x7f {
		i++
	}
	// Keep a rune cut by the read boundary for the next read.
	for j := i; j > 0 && j > i-utf8.UTFMax; j-- {
		if utf8.RuneStart(b[j-1]) {
			if !utf8.FullRune(b[j-1:i]) && j-1 > 0 {
				return j - 1
			}
			break
		}
	}
	return i
}
