package planner

import (
	"testing"

	"github.com/b2sql/b2sql/executor"
)

// Build converts AggFunc to executor.AggKind by number.
func TestAggAvgMergeNumber(t *testing.T) {
	if executor.AggKind(AggAvgMerge) != executor.AggAvgMerge {
		t.Fatalf("AggAvgMerge is %d, executor's %d", AggAvgMerge, executor.AggAvgMerge)
	}
	if executor.AggKind(AggArgMax) != executor.AggArgMax || executor.AggKind(AggArgMin) != executor.AggArgMin {
		t.Fatal("arg_max/arg_min numbers differ from the executor's")
	}
}
