package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/sql"
)

// A session's SQL variables (SET VARIABLE, sql/variables.go), kept by
// lower-case name with the name as last set.

// setVariable runs SET VARIABLE: the value of its query's one column in
// its first row (NULL when it has none; a scalar subquery of several rows
// is the binder's error).
func (s *Session) setVariable(ctx context.Context, st *sql.SetVariable, args []columnar.Value) error {
	built, _, err := s.plan(st.Query, false, 0, nil, args)
	if err != nil {
		return err
	}
	v := columnar.NullValue(built.Root.Types()[0])
	found := false
	err = dml.Drive(ctx, s.cat(), built, func(b *columnar.Batch) error {
		if !found && b.Len > 0 {
			v, found = b.Cols[0].Value(b.Row(0)), true
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vars == nil {
		s.vars = map[string]variable{}
	}
	s.vars[strings.ToLower(st.Name)] = variable{name: st.Name, value: v}
	return nil
}

// resetVariable runs RESET VARIABLE (no error when there is none).
func (s *Session) resetVariable(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.vars, strings.ToLower(name))
}

// Variable is the value of the session's variable name (sql.VariableReader).
func (c *bindCatalog) Variable(name string) (columnar.Value, bool) {
	c.sess.mu.RLock()
	defer c.sess.mu.RUnlock()
	v, ok := c.sess.vars[strings.ToLower(name)]
	return v.value, ok
}

// Variables are the session's variables in name order (duckdb_variables()).
func (c *bindCatalog) Variables() []sql.Variable {
	c.sess.mu.RLock()
	defer c.sess.mu.RUnlock()
	out := make([]sql.Variable, 0, len(c.sess.vars))
	for _, v := range c.sess.vars {
		out = append(out, sql.Variable{Name: v.name, Value: v.value})
	}
	slices.SortFunc(out, func(a, b sql.Variable) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return out
}
