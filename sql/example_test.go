package sql_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

type table struct{ schema columnar.Schema }

func (t table) Schema() columnar.Schema { return t.schema }
func (t table) Scan(context.Context, index.ScanSpec) (columnar.Reader, error) {
	return nil, errors.New("example table has no data")
}

type catalog map[string]planner.Table

func (c catalog) Table(name string) (planner.Table, bool) { t, ok := c[name]; return t, ok }
func (c catalog) TableNames() []string {
	var out []string
	for n := range c {
		out = append(out, n)
	}
	return out
}
func (c catalog) OpenPath(fn, path string) (planner.Table, error) {
	return nil, fmt.Errorf("no file %s", path)
}

// A script is split into statements; each is parsed, and queries are
// bound against a catalog. Errors carry script positions.
func Example() {
	cat := catalog{"users": table{columnar.Schema{
		{Name: "name", Type: columnar.TVarchar},
		{Name: "city", Type: columnar.TVarchar},
		{Name: "age", Type: columnar.TInt32},
	}}}
	script := "SET threads = 4;\nSELECT city, count(*) AS n FROM users WHERE age > 30 GROUP BY city;\nSELECT nme FROM users"
	for _, src := range sql.Split(script) {
		st, err := sql.Parse(src)
		if err != nil {
			fmt.Println(err)
			continue
		}
		switch st := st.(type) {
		case *sql.Set:
			fmt.Println("set", st.Name, "=", st.Value)
		case *sql.Query:
			b, err := sql.Bind(st, cat)
			if err != nil {
				fmt.Println(err)
				continue
			}
			for i, c := range b.Root.Schema() {
				fmt.Println(b.Names[i], c.Type)
			}
		}
	}
	// Output:
	// set threads = 4
	// city VARCHAR
	// n BIGINT
	// line 3:8: unknown column "nme" (did you mean "name"?)
}
