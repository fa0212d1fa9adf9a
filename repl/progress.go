package repl

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/b2sql/b2sql"
)

// Progress is a query that reports how far its scans have got
// (*b2sql.Rows does): units (row groups, chunks) finished out of those to
// read, and rows and bytes scanned so far.
type Progress interface {
	Progress() b2sql.Progress
}

// progressDelay is how long a query runs before a bar appears: shorter
// queries would only flicker.
const progressDelay = time.Second

// progressMeter draws a progress bar on a terminal for one query, from
// progressDelay after it starts until stop, then erases it so the result
// prints on a clean line.
type progressMeter struct {
	w     io.Writer
	delay time.Duration
	rows  atomic.Int64             // rows the renderer has pulled
	src   atomic.Pointer[Progress] // set once the query has a Rows
	quit  chan struct{}
	done  chan struct{}
	once  sync.Once
}

func startProgress(w io.Writer, delay time.Duration) *progressMeter {
	m := &progressMeter{w: w, delay: delay, quit: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

// setSource gives the meter the query's own progress report, if it has one.
func (m *progressMeter) setSource(x any) {
	if p, ok := x.(Progress); ok {
		m.src.Store(&p)
	}
}

// stop erases the bar (if it was drawn) and returns once it is gone; safe
// to call more than once and on a nil meter.
func (m *progressMeter) stop() {
	if m == nil {
		return
	}
	m.once.Do(func() { close(m.quit) })
	<-m.done
}

func (m *progressMeter) run() {
	defer close(m.done)
	start := time.Now()
	t := time.NewTimer(m.delay)
	defer t.Stop()
	select {
	case <-m.quit:
		return
	case <-t.C:
	}
	// The bar is driven from this goroutine only (no spinner ticker of its
	// own), so erasing it cannot race with a redraw. Its description
	// carries the elapsed time since the query started (the bar's own clock
	// starts with the bar) and the rows streamed.
	bar := progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(m.w),
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetWidth(30),
		progressbar.OptionUseANSICodes(true),
	)
	known := false
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		desc := fmt.Sprintf("running %.1fs", time.Since(start).Seconds())
		if n := m.rows.Load(); n > 0 {
			desc += fmt.Sprintf(", %d %s", n, plural(n, "row", "rows"))
		}
		if p := m.src.Load(); p != nil {
			pr := (*p).Progress()
			if total := pr.Units - pr.UnitsSkipped; total > 0 {
				if !known {
					bar.ChangeMax64(total)
					known = true
				}
				bar.Set64(pr.UnitsDone)
			}
			if pr.Rows > 0 {
				desc += fmt.Sprintf(", scanned %d rows, %s", pr.Rows, humanBytes(pr.Bytes))
			}
			if pr.Files > 0 {
				desc += fmt.Sprintf(", files %d/%d", pr.FilesDone, pr.Files-pr.FilesSkipped)
			}
			if pr.Fetched > 0 {
				desc += fmt.Sprintf(", fetched %s in %d %s", humanBytes(pr.Fetched), pr.Requests, plural(pr.Requests, "request", "requests"))
			}
		}
		bar.Describe(desc)
		select {
		case <-m.quit:
			bar.Exit()
			bar.Clear()
			return
		case <-tick.C:
		}
	}
}

// clearingWriter stops the meter before the first byte of a result
// reaches the terminal, so bar and result never share a line.
type clearingWriter struct {
	w io.Writer
	m *progressMeter
}

func (c clearingWriter) Write(p []byte) (int, error) {
	c.m.stop()
	return c.w.Write(p)
}

// humanBytes renders a byte count with a binary unit.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// plural is one or many, as n asks.
func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
