package main

import (
	"fmt"
	"io"

	"github.com/b2sql/b2sql/formats/b2"
)

func runInspect(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: b2sql inspect FILE")
		return 2
	}
	if err := b2.Inspect(stdout, args[0]); err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	return 0
}
