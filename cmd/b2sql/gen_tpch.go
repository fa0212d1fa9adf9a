package main

import (
	"fmt"
	"io"
	"time"

	"github.com/b2sql/b2sql/demo/tpch"
)

// runGenTPCH is `b2sql gen --tpch SF`: the TPC-H tables, one file each.
func runGenTPCH(out string, sf float64, format string, stderr io.Writer) int {
	start := time.Now()
	if err := tpch.Generate(out, sf, tpch.Options{Format: tpch.Format(format)}); err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote TPC-H SF %g (%s) to %s in %s\n", sf, format, out, time.Since(start).Round(time.Millisecond))
	return 0
}
