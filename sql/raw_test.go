package sql

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

func TestRaw(t *testing.T) {
	for _, q := range strings.Split(os.Getenv("Q"), "\n") {
		if q == "" {
			continue
		}
		_, err := sqlparser.ParseWithOptions(context.Background(), q, sqlparser.ParserOptions{AnsiQuotes: true})
		fmt.Printf("%q len=%d → %q\n", q, len(q), strings.ReplaceAll(err.Error(), "\n", " "))
	}
}
