package main

import (
	"strings"
	"testing"
	"time"
)

// The runaway join of issue #17: a cross join of 10^10 pairs under an
// inequality, with a memory limit. Ctrl-C brings the prompt back (the
// nested loop checks the context between chunks of pairs), the session
// goes on, and the process did not grow: it was not killed.
func TestPTYCtrlCStopsRunawayJoin(t *testing.T) {
	s := startPTY(t, nil, append(demoArgs, "--memory-limit", "200MB")...)
	s.start()
	s.expect(prompt, timeout)
	s.send("SELECT count(*) FROM range(100000) a(x), range(100000) b(y) WHERE a.x < b.y;\r")
	s.expect("running", timeout)
	sent := time.Now()
	s.send("\x03")
	s.expect("query cancelled", timeout)
	s.expect(prompt, timeout)
	// 100 ms on an idle machine; CI is loaded, so the bound is loose.
	if d := time.Since(sent); d > 5*time.Second {
		t.Errorf("cancelling the runaway join took %v", d)
	}
	s.send("SELECT 6 * 7 AS answer;\r")
	if got := s.result(); !strings.Contains(got, "42") {
		t.Errorf("session unusable after cancel:\n%s", got)
	}
	s.send(".quit\r")
	s.wait(timeout)
}
