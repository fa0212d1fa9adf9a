package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql"
)

// applySettings runs SET for each setting flag given on the command line
// (flag name → its value), so that flags and SET share one parser and one
// error message. A flag's setting is its name with '_' for '-'.
func applySettings(db *b2sql.DB, fs *flag.FlagSet, vals map[string]string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var names []string
	for n := range vals {
		if given[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		stmt := fmt.Sprintf("SET %s = '%s'", strings.ReplaceAll(n, "-", "_"), strings.ReplaceAll(vals[n], "'", "''"))
		if err := db.Exec(context.Background(), stmt); err != nil {
			return fmt.Errorf("--%s: %w", n, err)
		}
	}
	return nil
}
