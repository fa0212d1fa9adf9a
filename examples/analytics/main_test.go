package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/b2sql/b2sql/demo"
)

// TestRun runs every report over a 10,000-row demo table and checks what
// follows from the table's definition: its row count, and that the price
// report sees every row once (non-NULL prices plus NULLs = rows).
func TestRun(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Generate(filepath.Join(dir, "events.parquet"), 10_000); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), &out, dir, 2); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !regexp.MustCompile(`(?m)^events\s+10000$`).MatchString(text) {
		t.Errorf("overview lacks \"events 10000\":\n%s", text)
	}
	m := regexp.MustCompile(`(?m)^prices\s+nulls\s+mean\n(\d+)\s+(\d+)\s+\d+\.\d\d$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no price line:\n%s", text)
	}
	prices, _ := strconv.Atoi(m[1])
	nulls, _ := strconv.Atoi(m[2])
	if prices+nulls != 10_000 || nulls == 0 {
		t.Errorf("prices %d + nulls %d, want 10000 with some NULLs", prices, nulls)
	}
	if n := len(regexp.MustCompile(`(?m)^cat_\d{3}\s`).FindAllString(text, -1)); n != 5 {
		t.Errorf("%d category lines, want 5:\n%s", n, text)
	}
	t.Log("\n" + text)
}

func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Generate(filepath.Join(dir, "events.parquet"), 1000); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := run(ctx, &bytes.Buffer{}, dir, 1); err != context.Canceled {
		t.Errorf("run under a cancelled context: %v, want context.Canceled", err)
	}
}
