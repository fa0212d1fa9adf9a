package sql

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestTry(t *testing.T) {
	for _, q := range strings.Split(os.Getenv("Q"), "\n") {
		if q == "" {
			continue
		}
		fmt.Println("===", q)
		st, err := Parse(Source{Text: q})
		if err != nil {
			fmt.Println("parse:", err)
			continue
		}
		qq, ok := st.(*Query)
		if !ok {
			fmt.Printf("%#v\n", st)
			continue
		}
		bd, err := Bind(qq, newCatalog())
		if err != nil {
			fmt.Println("bind:", err)
			continue
		}
		fmt.Print(formatPlan(bd.Root))
		fmt.Println(bd.Names)
	}
}
