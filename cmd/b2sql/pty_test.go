//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/b2sql/b2sql/demo"
)

// These tests run the b2sql program — this test binary re-executed with
// B2SQL_TEST_MAIN=1, which makes it call main — on a pseudo-terminal and
// type at it like a person.

func TestMain(m *testing.M) {
	if os.Getenv("B2SQL_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// ptySession is b2sql running on a pseudo-terminal.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File // our end: what we type, what it prints
	tty  *os.File // its end, kept open to read the terminal's mode
	mu   sync.Mutex
	out  bytes.Buffer
	mark int // expect looks at output after this offset
	done chan struct{}
}

// startPTY starts b2sql with args on a new pseudo-terminal, skipping the
// test if none can be allocated.
func startPTY(t *testing.T, env []string, args ...string) *ptySession {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("cannot allocate a pseudo-terminal: %v", err)
	}
	pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160})
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "B2SQL_TEST_MAIN=1", "TERM=xterm", "XDG_STATE_HOME="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	s := &ptySession{t: t, cmd: cmd, ptmx: ptmx, tty: tty, done: make(chan struct{})}
	return s
}

func (s *ptySession) start() {
	s.t.Helper()
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := s.ptmx.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				close(s.done)
				return
			}
		}
	}()
	s.t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
		s.ptmx.Close()
		s.tty.Close()
	})
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]`)

// screen is everything printed since the last mark, escape sequences
// removed.
func (s *ptySession) screen() string {
	return s.clean()[s.mark:]
}

func (s *ptySession) clean() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.ReplaceAllString(s.out.String(), "")
}

// expect waits until the output since the last mark contains want, moves
// the mark just past it, and returns the output up to and including it.
func (s *ptySession) expect(want string, timeout time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		all := s.clean()
		if s.mark > len(all) {
			s.mark = len(all)
		}
		if i := strings.Index(all[s.mark:], want); i >= 0 {
			got := all[s.mark : s.mark+i+len(want)]
			s.mark += i + len(want)
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no %q within %v; output since last match:\n%s", want, timeout, all[s.mark:])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *ptySession) send(keys string) {
	s.t.Helper()
	if _, err := s.ptmx.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
}

// result waits for a table to end and the prompt to be back (in raw
// mode, so keys sent next reach the line editor, not the cooked terminal).
func (s *ptySession) result() string {
	s.t.Helper()
	got := s.expect("┘", timeout)
	s.expect("> ", timeout)
	return got
}

// wait waits for b2sql to exit and returns its exit status.
func (s *ptySession) wait(timeout time.Duration) int {
	s.t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(timeout):
		s.cmd.Process.Kill()
		s.t.Fatalf("b2sql did not exit within %v; output:\n%s", timeout, s.screen())
	}
	return s.cmd.ProcessState.ExitCode()
}

// termMode is the terminal's mode two ways: the raw termios, and what
// stty -a says (when stty exists), for a readable diff.
func (s *ptySession) termMode() (unix.Termios, string) {
	s.t.Helper()
	tio, err := unix.IoctlGetTermios(int(s.tty.Fd()), ioctlGetTermios)
	if err != nil {
		s.t.Fatal(err)
	}
	stty := ""
	if path, err := exec.LookPath("stty"); err == nil {
		c := exec.Command(path, "-a")
		c.Stdin = s.tty
		b, err := c.Output()
		if err != nil {
			s.t.Fatalf("stty -a: %v", err)
		}
		stty = string(b)
	}
	return *tio, stty
}

const (
	prompt  = "b2sql demo> "
	timeout = 20 * time.Second // generous: CI machines can be loaded
)

// demoArgs opens a small demo table, generated once into the user cache.
var demoArgs = []string{"--demo-rows", "1000"}

func TestPTYMultiLineQuery(t *testing.T) {
	s := startPTY(t, nil, demoArgs...)
	s.start()
	s.expect(prompt, timeout)
	s.send("SELECT category,\r")
	s.expect("·> ", timeout)
	s.send("  count(*) AS n\r")
	s.send("FROM events GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3;\r")
	got := s.result()
	for _, want := range []string{"│ category │", "│ VARCHAR  │  BIGINT │", "┌", "└"} {
		if !strings.Contains(strings.ReplaceAll(got, "  ", " "), strings.ReplaceAll(want, "  ", " ")) && !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if !regexp.MustCompile(`│\s+\d+ │`).MatchString(got) {
		t.Errorf("counts are not right-aligned numbers:\n%s", got)
	}
	// Ctrl-C drops an open statement: what follows starts afresh.
	s.send("SELECT oops\r")
	s.expect("·> ", timeout)
	s.send("\x03")
	s.expect(prompt, timeout)
	s.send("SELECT 6 * 7 AS answer;\r")
	if got := s.result(); !strings.Contains(got, "42") || strings.Contains(got, "Error") {
		t.Errorf("statement after Ctrl-C:\n%s", got)
	}
	// .open re-opens the database and the prompt names it.
	dir := t.TempDir()
	if err := demo.Generate(filepath.Join(dir, "small.parquet"), 100); err != nil {
		t.Fatal(err)
	}
	s.send(".open " + dir + "\r")
	s.expect("tables: small", timeout)
	s.expect("b2sql "+dir+"> ", timeout)
	s.send("SELECT count(*) AS n FROM small;\r")
	if got := s.result(); !strings.Contains(got, "100") {
		t.Errorf("query after .open:\n%s", got)
	}
	s.send(".quit\r")
	if code := s.wait(timeout); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestPTYTabCompletesTableAndColumn(t *testing.T) {
	s := startPTY(t, nil, demoArgs...)
	s.start()
	s.expect(prompt, timeout)
	// "eve" + Tab selects the table, "e.regi" + Tab the qualified column;
	// the next key typed accepts the selection.
	s.send("SELECT count(*) AS n FROM eve\t e WHERE e.regi\t IS NOT NULL;\r")
	got := s.result()
	if !strings.Contains(got, "1000") {
		t.Fatalf("completed query did not count 1000 rows:\n%s", got)
	}
	if !strings.Contains(got, "FROM events e WHERE e.region IS NOT NULL;") {
		t.Errorf("line was not completed as expected:\n%s", got)
	}
	s.send("\x04")
	if code := s.wait(timeout); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// slowTable makes a glob over many copies (symlinks) of one Parquet file:
// counting its distinct titles takes seconds, long enough to interrupt.
func slowTable(t *testing.T) string {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.parquet")
	if err := demo.Generate(src, 200_000); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if err := os.Symlink(src, filepath.Join(dir, fmt.Sprintf("part%03d.parquet", i))); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "part*.parquet")
}

func TestPTYCtrlCCancelsQuery(t *testing.T) {
	glob := slowTable(t)
	s := startPTY(t, nil, demoArgs...)
	s.start()
	s.expect(prompt, timeout)
	s.send(fmt.Sprintf("SELECT count(DISTINCT title) FROM '%s';\r", glob))
	// The progress bar shows after a second on a terminal.
	s.expect("running", timeout)
	sent := time.Now()
	s.send("\x03")
	s.expect("query cancelled", timeout)
	s.expect(prompt, timeout)
	if d := time.Since(sent); d > 10*time.Second {
		t.Errorf("cancelling took %v", d)
	}
	s.send("SELECT 6 * 7 AS answer;\r")
	if got := s.result(); !strings.Contains(got, "42") {
		t.Errorf("session unusable after cancel:\n%s", got)
	}
	s.send(".quit\r")
	s.wait(timeout)
}

func TestPTYTerminalRestored(t *testing.T) {
	cases := []struct {
		name string
		quit func(s *ptySession)
		code int
	}{
		{".quit", func(s *ptySession) { s.send(".quit\r") }, 0},
		{"ctrl-d", func(s *ptySession) { s.send("\x04") }, 0},
		{"ctrl-d in a statement", func(s *ptySession) { s.send("SELECT\r"); s.expect("·> ", timeout); s.send("\x04") }, 0},
		{"sigterm", func(s *ptySession) { s.cmd.Process.Signal(syscall.SIGTERM) }, 128 + int(syscall.SIGTERM)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startPTY(t, nil, demoArgs...)
			before, beforeStty := s.termMode()
			s.start()
			s.expect(prompt, timeout)
			// Ctrl-C at an empty prompt does nothing: no new prompt, no exit.
			s.send("\x03")
			time.Sleep(100 * time.Millisecond)
			if got := s.screen(); strings.Contains(got, "b2sql demo>") {
				t.Errorf("Ctrl-C at an empty prompt redrew the prompt: %q", got)
			}
			if during, _ := s.termMode(); during == before {
				t.Errorf("the terminal is not in raw mode at the prompt")
			}
			tc.quit(s)
			if code := s.wait(timeout); code != tc.code {
				t.Errorf("exit status %d, want %d", code, tc.code)
			}
			after, afterStty := s.termMode()
			if after != before {
				t.Errorf("terminal mode not restored:\nbefore %+v\nafter  %+v", before, after)
			}
			if afterStty != beforeStty {
				t.Errorf("stty -a differs:\nbefore:\n%s\nafter:\n%s", beforeStty, afterStty)
			}
		})
	}
}

func TestPTYHistoryPersists(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history")
	args := append([]string{"--history", hist}, demoArgs...)
	s := startPTY(t, nil, args...)
	s.start()
	s.expect(prompt, timeout)
	s.send("SELECT 6 * 7\r")
	s.send("  AS answer;\r")
	s.result()
	s.send(".quit\r")
	s.wait(timeout)
	b, err := os.ReadFile(hist)
	if err != nil || !strings.Contains(string(b), "SELECT 6 * 7 AS answer;") {
		t.Fatalf("history file %q, %v", b, err)
	}

	s = startPTY(t, nil, args...)
	s.start()
	s.expect(prompt, timeout)
	s.send(".quit") // typed, then replaced by the older entry
	s.send("\x1b[A\x1b[A\r")
	if got := s.result(); !strings.Contains(got, "42") {
		t.Fatalf("Up did not recall the statement:\n%s", got)
	}
	// Ctrl-R: type a fragment, search for it.
	s.send("6 *\x12\r")
	if got := s.result(); !strings.Contains(got, "42") {
		t.Fatalf("Ctrl-R did not find the statement:\n%s", got)
	}
	s.send("\x04")
	s.wait(timeout)
}
