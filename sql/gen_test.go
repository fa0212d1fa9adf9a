package sql

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestGen prints Go test cases for the queries in $GEN (one per line).
func TestGen(t *testing.T) {
	for _, q := range strings.Split(os.Getenv("GEN"), "\n") {
		if q == "" {
			continue
		}
		st, err := Parse(Source{Text: q})
		if err != nil {
			fmt.Printf("\t{%q, \"\", %q},\n", q, err.Error())
			continue
		}
		bd, err := Bind(st.(*Query), newCatalog())
		if err != nil {
			fmt.Printf("\t{%q, \"\", %q},\n", q, err.Error())
			continue
		}
		fmt.Printf("\t{%q, `\n%s`, \"\"},\n", q, formatPlan(bd.Root))
	}
}
