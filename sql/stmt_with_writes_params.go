package sql

// The queries of a WithWrites (stmt_with_writes.go), which share one
// table of markers.

// writeQueries lists the queries of st, a query or a statement that
// writes (nil ones left out by shareParams).
func writeQueries(st Statement) []*Query {
	switch s := st.(type) {
	case *Query:
		return []*Query{s}
	case *Insert:
		qs := []*Query{s.Query, s.Returning}
		if s.Update != nil {
			qs = append(qs, s.Update.Query)
		}
		return qs
	case *Update:
		return []*Query{s.Query, s.Returning}
	case *Delete:
		return []*Query{s.Where, s.Returning}
	}
	return nil
}

// withWritesQuery is the first query of a WithWrites: it holds the
// markers of the whole statement (shareParams).
func withWritesQuery(s *WithWrites) *Query {
	for _, w := range s.Writes {
		for _, q := range writeQueries(w.Stmt) {
			if q.parsed() {
				return q
			}
		}
	}
	for _, q := range writeQueries(s.Main) {
		if q.parsed() {
			return q
		}
	}
	return nil
}
