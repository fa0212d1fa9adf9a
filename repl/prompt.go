//go:build linux || darwin || freebsd || netbsd || openbsd

package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/b2sql/b2sql"
	prompt "github.com/c-bata/go-prompt"
	"golang.org/x/term"
)

// PromptOptions configures an interactive session.
type PromptOptions struct {
	// HistoryPath is the history file; "" means DefaultHistoryPath(),
	// "-" keeps history in memory only.
	HistoryPath string
	// Banner is printed once before the first prompt.
	Banner string
}

// ErrNoTerminal is returned by Prompt when there is no terminal to edit
// lines on; the caller falls back to reading a script.
var ErrNoTerminal = errors.New("no terminal")

// session is the state of one interactive run of Prompt.
type session struct {
	r     *Runner
	in    *rawInput
	state *termState
	comp  *completer

	mu      sync.Mutex
	pending strings.Builder // the open statement's lines so far
	line    string          // the line being edited, as last seen by the completer
	cancel  context.CancelFunc

	// Ctrl-R: searching through history for query, last shown at index.
	search struct {
		query string
		at    int
		shown string
	}
}

// Prompt runs the interactive session on the controlling terminal until
// .quit or Ctrl-D: a go-prompt line editor with completion and persistent
// history, statements spanning lines until a ';'. Ctrl-C cancels a running
// query (its context reaches the scans) or drops the current input; at an
// empty prompt it does nothing. The terminal's mode is restored on every
// way out, including panics and SIGTERM/SIGHUP/SIGQUIT.
func (r *Runner) Prompt(opts PromptOptions) error {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	defer tty.Close()
	fd := int(tty.Fd()) // once: see rawInput.fd
	state, err := saveTerm(fd)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	// Deferred calls run while a panic unwinds, so this also covers panics
	// on this goroutine.
	defer restoreTerminal(state, tty)

	path := opts.HistoryPath
	if path == "" {
		path = DefaultHistoryPath()
	} else if path == "-" {
		path = ""
	}
	hist, err := LoadHistory(path)
	if err != nil {
		fmt.Fprintf(r.Err, "warning: history: %v\n", err)
	}
	r.history = hist

	s := &session{r: r, state: state}
	s.in = &rawInput{fd: fd, state: state, interrupt: s.interrupt}
	s.comp = newCompleter(r, s.openText)
	s.comp.seen = func(line string) {
		s.mu.Lock()
		s.line = line
		s.mu.Unlock()
	}

	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	stopSigs := make(chan struct{})
	defer close(stopSigs)
	go s.handleSignals(sigs, stopSigs, tty)

	// go-prompt draws on stdout; when stdout is redirected the prompt
	// belongs on the terminal still, so draw on stderr then.
	writer := prompt.NewStdoutWriter()
	if !term.IsTerminal(int(os.Stdout.Fd())) {
		writer = prompt.NewStderrWriter()
	}
	// prompt.New opens /dev/tty for a parser of its own before applying
	// OptionParser; that descriptor is never used (one per session).
	// The executor is unused: Input returns each line to the loop below,
	// which owns running statements, so Ctrl-C reaches them as a signal.
	p := prompt.New(func(string) {}, s.comp.Complete,
		prompt.OptionParser(s.in),
		prompt.OptionWriter(writer),
		prompt.OptionLivePrefix(s.prefix),
		prompt.OptionCompletionWordSeparator(wordSeparators),
		prompt.OptionMaxSuggestion(8),
		prompt.OptionPrefixTextColor(prompt.DarkGreen),
		prompt.OptionPreviewSuggestionTextColor(prompt.DarkBlue),
		prompt.OptionSuggestionBGColor(prompt.LightGray),
		prompt.OptionSuggestionTextColor(prompt.Black),
		prompt.OptionDescriptionBGColor(prompt.DarkGray),
		prompt.OptionDescriptionTextColor(prompt.White),
		prompt.OptionSelectedSuggestionBGColor(prompt.Cyan),
		prompt.OptionSelectedDescriptionBGColor(prompt.Cyan),
		prompt.OptionAddKeyBind(prompt.KeyBind{Key: prompt.ControlR, Fn: s.reverseSearch}),
	)
	if opts.Banner != "" {
		fmt.Fprintln(r.Err, opts.Banner)
	}
	for !r.quit {
		// go-prompt would record every physical line; the history holds
		// whole statements, so hand it ours before each line.
		prompt.OptionHistory(append([]string(nil), hist.Entries()...))(p)
		line := p.Input()
		if line == "" && s.in.lastWas(0x04) { // Ctrl-D on an empty line
			fmt.Fprintln(r.Err)
			break
		}
		s.enter(line)
	}
	return nil
}

// restoreTerminal puts the terminal back as it was and makes sure the
// cursor is visible (go-prompt hides it while drawing).
func restoreTerminal(state *termState, tty io.Writer) {
	state.Restore()
	io.WriteString(tty, "\x1b[?25h")
}

// handleSignals cancels the running query on SIGINT (the terminal is in
// its normal mode while a query runs, so Ctrl-C is a signal then) and on
// SIGTERM, SIGHUP or SIGQUIT restores the terminal and exits, as the
// shell would report it.
func (s *session) handleSignals(sigs <-chan os.Signal, stop <-chan struct{}, tty io.Writer) {
	for {
		select {
		case <-stop:
			return
		case sig := <-sigs:
			if sig == os.Interrupt {
				s.mu.Lock()
				if s.cancel != nil {
					s.cancel()
				}
				s.mu.Unlock()
				continue
			}
			restoreTerminal(s.state, tty)
			code := 1
			if n, ok := sig.(syscall.Signal); ok {
				code = 128 + int(n)
			}
			os.Exit(code)
		}
	}
}

// enter handles one line from the editor.
func (s *session) enter(line string) {
	r := s.r
	s.mu.Lock()
	open := s.pending.String()
	s.line = "" // the next prompt starts empty; the completer has not seen it yet
	s.mu.Unlock()
	if blank(open) && strings.HasPrefix(strings.TrimSpace(line), ".") {
		s.reset()
		r.history.Add(strings.TrimSpace(line))
		s.run(func(ctx context.Context) int {
			if err := r.Meta(ctx, line); err != nil {
				r.printError(line, err)
				return 1
			}
			return 0
		})
		return
	}
	text := open + line + "\n"
	switch {
	case blank(text):
		s.reset()
	case Complete(text):
		s.reset()
		r.history.Add(flatten(text))
		s.run(func(ctx context.Context) int { return r.RunScript(ctx, text) })
	default:
		s.mu.Lock()
		s.pending.WriteString(line + "\n")
		s.mu.Unlock()
	}
}

// run runs fn with a context that Ctrl-C cancels.
func (s *session) run(fn func(context.Context) int) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	fn(ctx)
	s.mu.Lock()
	s.cancel = nil
	s.mu.Unlock()
	cancel()
}

func (s *session) reset() {
	s.mu.Lock()
	s.pending.Reset()
	s.mu.Unlock()
}

// openText is the open statement's text before the current line.
func (s *session) openText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending.String()
}

// prefix is the prompt: the open database's name, or a continuation mark
// of the same width while a statement is open. During Ctrl-R it shows the
// search text.
func (s *session) prefix() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	main := "b2sql " + s.r.Label + txMark(s.r.DB) + "> "
	if s.search.shown != "" && s.line == s.search.shown {
		return fmt.Sprintf("(search %q)> ", s.search.query), true
	}
	if s.pending.Len() > 0 {
		return strings.Repeat(" ", max(len([]rune(main))-3, 0)) + "·> ", true
	}
	return main, true
}

// txMark is the prompt's mark of the DB's open transaction, as psql
// marks it: "*" open, "!" aborted by an error (ROLLBACK ends it), ""
// none.
func txMark(db *b2sql.DB) string {
	if db == nil {
		return ""
	}
	switch open, aborted := db.InTransaction(); {
	case aborted:
		return "!"
	case open:
		return "*"
	}
	return ""
}

// interrupt decides what Ctrl-C at the prompt does: nothing on an empty
// prompt; otherwise the editor clears the line, and an open statement is
// dropped with it.
func (s *session) interrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.line == "" && s.pending.Len() == 0 {
		return false
	}
	s.pending.Reset()
	return true
}

// reverseSearch is Ctrl-R (go-prompt has none): the text on the line is
// the query; each press replaces the line with the next older history
// entry containing it.
func (s *session) reverseSearch(buf *prompt.Buffer) {
	text := buf.Text()
	s.mu.Lock()
	if s.search.shown == "" || text != s.search.shown {
		s.search.query, s.search.at = text, len(s.r.history.Entries())
	}
	query, at := s.search.query, s.search.at
	s.mu.Unlock()
	i := s.r.history.Search(query, at)
	if i < 0 {
		return
	}
	match := s.r.history.Entries()[i]
	buf.DeleteBeforeCursor(len([]rune(buf.Document().TextBeforeCursor())))
	buf.Delete(len([]rune(buf.Document().TextAfterCursor())))
	buf.InsertText(match, false, true)
	s.mu.Lock()
	s.search.at, s.search.shown, s.line = i, match, match
	s.mu.Unlock()
}
