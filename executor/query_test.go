package executor

import (
	"context"
	"testing"
	"time"
)

// TestQueryRootWarm: opening a query starts its warms before the tree
// is read; Close waits for warms that end, and not (much) longer than
// warmWait for one still fetching, so that a cancelled query ends at once.
func TestQueryRootWarm(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	q := &QueryRoot{Operator: &Values{}, Warm: []func(){
		func() { close(started) },
		func() { <-release }, // a remote fetch that does not return
	}}
	if err := q.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("Open did not start the warms")
	}
	begin := time.Now()
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d < warmWait || d > warmWait+time.Second {
		t.Fatalf("Close took %v with a warm still running; want about %v", d, warmWait)
	}
}
