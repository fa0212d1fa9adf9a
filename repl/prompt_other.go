//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package repl

import "errors"

// PromptOptions configures an interactive session.
type PromptOptions struct {
	HistoryPath string
	Banner      string
}

// ErrNoTerminal is returned by Prompt when there is no terminal to edit
// lines on; the caller falls back to reading a script.
var ErrNoTerminal = errors.New("no terminal")

// Prompt needs POSIX terminal control (see termState); elsewhere the
// caller reads standard input as a script.
// TODO(repl): a Windows console session (#7).
func (r *Runner) Prompt(opts PromptOptions) error { return ErrNoTerminal }
