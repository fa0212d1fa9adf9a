package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/sql"
)

// runPrepared runs PREPARE, EXECUTE and DEALLOCATE (ok is false for other
// statements). The prepared statements belong to the session (one
// connection), as in DuckDB; names match case-insensitively.
func (s *Session) runPrepared(ctx context.Context, stmt sql.Statement, args []columnar.Value) (res *Result, ok bool, err error) {
	switch st := stmt.(type) {
	case *sql.Prepare:
		s.mu.Lock()
		if s.prepared == nil {
			s.prepared = map[string]prepared{}
		}
		s.prepared[strings.ToLower(st.Name)] = prepared{st.Src, st.Stmt}
		s.mu.Unlock()
		return done, true, nil
	case *sql.Deallocate:
		s.mu.Lock()
		if st.Name == "" {
			s.prepared = nil
		} else {
			delete(s.prepared, strings.ToLower(st.Name))
		}
		s.mu.Unlock()
		return done, true, nil
	case *sql.Execute:
		res, err := s.execute(ctx, st, args)
		return res, true, err
	}
	return nil, false, nil
}

// execute runs EXECUTE name (values): the values are computed by their
// SELECT, then passed to the prepared statement as its markers' values.
func (s *Session) execute(ctx context.Context, ex *sql.Execute, args []columnar.Value) (*Result, error) {
	s.mu.RLock()
	p, found := s.prepared[strings.ToLower(ex.Name)]
	s.mu.RUnlock()
	if !found {
		return nil, &sql.Error{Pos: ex.NamePos, Kind: sql.ErrUnknownPrepared, Msg: fmt.Sprintf("prepared statement %q does not exist", ex.Name)}
	}
	var vals []columnar.Value
	if ex.Args != nil {
		if sql.NumParams(ex.Args) > 0 || len(args) > 0 {
			return nil, &sql.Error{Pos: ex.NamePos, Kind: sql.ErrParam, Msg: "EXECUTE's values cannot be ? markers"}
		}
		res, err := s.Run(ctx, ex.Args.Source(), ex.Args, nil)
		if err != nil {
			return nil, err
		}
		err = dml.Drive(ctx, s.cat(), res.Plan, func(b *columnar.Batch) error {
			if vals == nil && b.Live() > 0 {
				for _, c := range b.Cols {
					vals = append(vals, c.Value(b.Row(0)))
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if ex.Names != nil {
		ordered, used, err := ArgsByName(p.stmt, vals, ex.Names)
		if err != nil {
			return nil, err
		}
		if err := UnusedArg(ex.Names, used); err != nil {
			return nil, err
		}
		vals = ordered
	} else if ps := sql.Params(p.stmt); len(ps) > 0 && !isNumber(ps[0].Name) {
		return nil, &sql.Error{Pos: ex.NamePos, Kind: sql.ErrParam,
			Msg: fmt.Sprintf("prepared statement %q takes its values by name ($%s := …)", ex.Name, ps[0].Name)}
	}
	if want := NumParams(p.stmt); len(vals) != want {
		return nil, &sql.Error{Pos: ex.NamePos, Kind: sql.ErrParam,
			Msg: fmt.Sprintf("prepared statement %q takes %d values, %d given", ex.Name, want, len(vals))}
	}
	return s.Run(ctx, p.src, p.stmt, vals)
}
