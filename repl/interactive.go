package repl

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

// Interactive reads statements from in until EOF, running each when a ';'
// ends it outside quotes and comments. Ctrl-C cancels the running query,
// not the session.
func (r *Runner) Interactive(in io.Reader, prompt string) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var pending strings.Builder
	show := func() {
		if pending.Len() == 0 {
			fmt.Fprint(r.Err, prompt+"> ")
		} else {
			fmt.Fprint(r.Err, strings.Repeat(" ", len(prompt))+"· ")
		}
	}
	show()
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if pending.Len() == 0 && (trimmed == ".quit" || trimmed == ".exit") {
			return
		}
		pending.WriteString(line)
		pending.WriteByte('\n')
		if Complete(pending.String()) {
			script := pending.String()
			pending.Reset()
			r.runCancellable(script)
		}
		show()
	}
	if strings.TrimSpace(pending.String()) != "" {
		r.runCancellable(pending.String())
	}
	fmt.Fprintln(r.Err)
}

func (r *Runner) runCancellable(script string) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			cancel()
		case <-done:
		}
	}()
	r.RunScript(ctx, script)
	close(done)
	signal.Stop(sig)
	cancel()
}

// Complete reports whether text ends with a ';' outside quotes and
// comments, i.e. holds at least one whole statement and nothing after it
// but white space.
func Complete(text string) bool {
	inS, inD, inB, line, block := false, false, false, false, false
	last := byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case line:
			if c == '\n' {
				line = false
			}
			continue
		case block:
			if c == '*' && i+1 < len(text) && text[i+1] == '/' {
				block = false
				i++
			}
			continue
		case inS:
			if c == '\'' {
				inS = false
			}
		case inD:
			if c == '"' {
				inD = false
			}
		case inB:
			if c == '`' {
				inB = false
			}
		case c == '\'':
			inS = true
		case c == '"':
			inD = true
		case c == '`':
			inB = true
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			line = true
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			block = true
			i++
			continue
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			last = c
		}
	}
	return !inS && !inD && !inB && !block && last == ';'
}
