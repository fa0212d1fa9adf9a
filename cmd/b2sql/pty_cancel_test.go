package main

import (
	"strings"
	"testing"
	"time"
)

// The runaway joins of issue #17, with a memory limit: a cross join of
// 10^10 pairs under an inequality, and an equi-join whose key takes four
// values (2.5·10^9 pairs, 25,000 per probe row). Ctrl-C brings the prompt
// back (both joins check the context between chunks of pairs), the
// session goes on, and the process did not grow: it was not killed.
func TestPTYCtrlCStopsRunawayJoin(t *testing.T) {
	for _, q := range []string{
		"SELECT count(*) FROM range(100000) a(x), range(100000) b(y) WHERE a.x < b.y;",
		"SELECT count(*) FROM range(100000) a(x) JOIN range(100000) b(y) ON a.x % 4 = b.y % 4;",
	} {
		s := startPTY(t, nil, append(demoArgs, "--memory-limit", "200MB")...)
		s.start()
		s.expect(prompt, timeout)
		s.send(q + "\r")
		s.expect("running", timeout)
		sent := time.Now()
		s.send("\x03")
		s.expect("query cancelled", timeout)
		s.expect(prompt, timeout)
		// 100 ms on an idle machine; CI is loaded, so the bound is loose.
		if d := time.Since(sent); d > 5*time.Second {
			t.Errorf("%s: cancelling took %v", q, d)
		}
		s.send("SELECT 6 * 7 AS answer;\r")
		if got := s.result(); !strings.Contains(got, "42") {
			t.Errorf("%s: session unusable after cancel:\n%s", q, got)
		}
		s.send(".quit\r")
		s.wait(timeout)
	}
}
