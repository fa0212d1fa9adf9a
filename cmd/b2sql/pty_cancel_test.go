package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The runaway joins of issue #17. As the issue found them, on the 1M-row
// demo table with the default memory limit: a cross join of 10^12 pairs
// under an inequality of strings, and an equi-join on a key of 20 values
// (5·10^10 pairs); and over range() with a 200MB limit (10^10 pairs; the
// key takes four values). Ctrl-C brings the prompt back (the joins check
// the context between chunks of pairs), the session goes on, and the
// process did not grow: its peak resident size stays under 500 MB (the
// issue saw 24 GB and a kill).
func TestPTYCtrlCStopsRunawayJoin(t *testing.T) {
	demo1M := []string{"--demo-rows", "1000000"}
	for _, tc := range []struct {
		args []string
		q    string
	}{
		{demo1M, "SELECT count(*) FROM events a, events b WHERE a.title < b.title;"},
		{demo1M, "SELECT count(*) FROM events a JOIN events b ON a.region = b.region;"},
		{append(demoArgs, "--memory-limit", "200MB"), "SELECT count(*) FROM range(100000) a(x), range(100000) b(y) WHERE a.x < b.y;"},
		{append(demoArgs, "--memory-limit", "200MB"), "SELECT count(*) FROM range(100000) a(x) JOIN range(100000) b(y) ON a.x % 4 = b.y % 4;"},
	} {
		s := startPTY(t, nil, tc.args...)
		s.start()
		// The first run writes the 1M-row demo table to the user cache.
		s.expect("> ", 3*timeout)
		s.send(tc.q + "\r")
		// The progress display shows after a second: a bar once the scans
		// know their size, else the time running.
		for deadline := time.Now().Add(timeout); ; time.Sleep(20 * time.Millisecond) {
			if scr := s.screen(); strings.Contains(scr, "running") || strings.Contains(scr, "%") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no progress display within %v:\n%s", tc.q, timeout, s.screen())
			}
		}
		time.Sleep(2 * time.Second) // the issue pressed Ctrl-C after 3 s
		sent := time.Now()
		s.send("\x03")
		s.expect("query cancelled", timeout)
		s.expect("> ", timeout)
		// 100 ms on an idle machine; CI is loaded, so the bound is loose.
		d := time.Since(sent)
		if d > 5*time.Second {
			t.Errorf("%s: cancelling took %v", tc.q, d)
		}
		if hwm, ok := peakRSS(s.cmd.Process.Pid); ok {
			t.Logf("%s: Ctrl-C to prompt %v, peak RSS %d MB", tc.q, d.Round(time.Millisecond), hwm>>20)
			if hwm > 500<<20 {
				t.Errorf("%s: peak RSS %d MB, want at most 500 MB", tc.q, hwm>>20)
			}
		}
		s.send("SELECT 6 * 7 AS answer;\r")
		if got := s.result(); !strings.Contains(got, "42") {
			t.Errorf("%s: session unusable after cancel:\n%s", tc.q, got)
		}
		s.send(".quit\r")
		s.wait(timeout)
	}
}

// peakRSS reads process pid's peak resident size (VmHWM) where /proc has
// it.
func peakRSS(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
