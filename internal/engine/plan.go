package engine

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// env is what the statements of internal/dml need from the session.
func (s *Session) env() *dml.Env { return s.envIn(s.cat(), nil) }

// envIn is env over the catalog cat, with the names of a WITH's writes
// standing for their rows (writes; nil: none).
func (s *Session) envIn(c *catalog.Catalog, writes map[string]planner.Table) *dml.Env {
	return &dml.Env{
		Cat: c,
		Bind: func(q *sql.Query, cat planner.ViewCatalog, args []columnar.Value) (*sql.Bound, error) {
			if cat == nil {
				cat = c
			}
			return s.bindIn(q, cat, args, writes)
		},
		Build: func(root planner.Node, analyze bool) (*planner.Built, error) {
			return s.build(root, analyze, 0)
		},
		Zone: s.Zone(),
	}
}

// plan binds, optimizes and builds a query on threads (0: the session's)
// against cat (nil: the database's catalog).
func (s *Session) plan(q *sql.Query, analyze bool, threads int, cat planner.ViewCatalog, args []columnar.Value) (*planner.Built, []string, error) {
	if cat == nil {
		cat = s.cat()
	}
	bound, err := s.bind(q, cat, args)
	if err != nil {
		return nil, nil, err
	}
	built, err := s.build(bound.Root, analyze, threads)
	if err != nil {
		return nil, nil, err
	}
	return built, bound.Names, nil
}

// planIn is plan against cat with the names of a WITH's writes standing
// for their rows (writes; nil: none), on the session's threads.
func (s *Session) planIn(q *sql.Query, cat planner.ViewCatalog, args []columnar.Value, writes map[string]planner.Table, analyze bool) (*planner.Built, []string, error) {
	bound, err := s.bindIn(q, cat, args, writes)
	if err != nil {
		return nil, nil, err
	}
	built, err := s.build(bound.Root, analyze, 0)
	if err != nil {
		return nil, nil, err
	}
	return built, bound.Names, nil
}

// build optimizes and builds a bound plan with the session's settings, on
// threads (0: the session's).
func (s *Session) build(root planner.Node, analyze bool, threads int) (*planner.Built, error) {
	opt, bopts := s.buildOptions(analyze, threads)
	root, changed := planner.Optimize(root, opt)
	built, err := planner.Build(root, bopts)
	if err == nil {
		built.Rules = changed
	}
	return built, err
}

// ensure the catalog satisfies what the binder needs.
var _ planner.ViewCatalog = (*catalog.Catalog)(nil)
