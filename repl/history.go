package repl

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// HistoryLimit bounds the history file: older entries are dropped.
const HistoryLimit = 2000

// History is the list of entered statements and meta-commands, oldest
// first, without duplicates (re-entering one moves it to the end), bounded
// by HistoryLimit and saved to a file after every Add so a killed session
// loses nothing. The zero value keeps history in memory only.
type History struct {
	Path    string
	entries []string
}

// DefaultHistoryPath is $XDG_STATE_HOME/b2sql/history when XDG_STATE_HOME
// is set (history is state, not configuration), otherwise
// os.UserConfigDir()/b2sql/history; "" if neither can be found.
func DefaultHistoryPath() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "b2sql", "history")
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "b2sql", "history")
}

// LoadHistory reads the history file at path; a missing file is an empty
// history. Entries are one per line, with '\' and line breaks escaped.
func LoadHistory(path string) (*History, error) {
	h := &History{Path: path}
	if path == "" {
		return h, nil
	}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var raw []string
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			raw = append(raw, unescapeHistory(line))
		}
	}
	for _, e := range raw {
		h.add(e)
	}
	return h, sc.Err()
}

// Entries returns the entries, oldest first; the slice must not be changed.
func (h *History) Entries() []string { return h.entries }

// Add appends entry (ignoring blank ones), dropping an earlier copy and
// the oldest entries past HistoryLimit, and saves the file.
func (h *History) Add(entry string) error {
	if strings.TrimSpace(entry) == "" {
		return nil
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == entry {
		return nil
	}
	h.add(entry)
	return h.save()
}

func (h *History) add(entry string) {
	for i, e := range h.entries {
		if e == entry {
			h.entries = append(h.entries[:i], h.entries[i+1:]...)
			break
		}
	}
	h.entries = append(h.entries, entry)
	if over := len(h.entries) - HistoryLimit; over > 0 {
		h.entries = append(h.entries[:0], h.entries[over:]...)
	}
}

// save rewrites the whole file through a temporary one and a rename, so a
// crash mid-write never truncates the history.
func (h *History) save() error {
	if h.Path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(h.Path), ".history-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	for _, e := range h.entries {
		w.WriteString(escapeHistory(e))
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), h.Path)
}

// Search returns the index of the newest entry before index from that
// contains query (case-insensitively), or -1.
func (h *History) Search(query string, from int) int {
	q := strings.ToLower(query)
	for i := min(from, len(h.entries)) - 1; i >= 0; i-- {
		if strings.Contains(strings.ToLower(h.entries[i]), q) {
			return i
		}
	}
	return -1
}

var (
	historyEscaper   = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`)
	historyUnescaper = strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\r`, "\r")
)

func escapeHistory(s string) string   { return historyEscaper.Replace(s) }
func unescapeHistory(s string) string { return historyUnescaper.Replace(s) }
