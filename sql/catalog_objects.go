package sql

import "github.com/b2sql/b2sql/columnar"

// What the catalog tells the binder of its sequences, indexes and named
// types, for duckdb_sequences(), duckdb_indexes() and duckdb_types()
// (bind_catalog_objects.go).

// ObjectLister is a catalog that lists its sequences, indexes and types.
type ObjectLister interface {
	Sequences() []SequenceInfo
	Indexes() []IndexInfo
	Types() []TypeInfo
}

// SequenceInfo is a CREATE SEQUENCE's sequence and its state.
type SequenceInfo struct {
	Schema, Name          string
	Temp                  bool
	Start, Incr, Min, Max int64
	Cycle                 bool
	Next                  int64 // what nextval answers next
	Used                  bool  // nextval has answered: Last holds its last answer
	Last                  int64
	Comment               string
}

// IndexInfo is a CREATE INDEX's index. Name is "" for a CTable's unnamed
// index; Kind is the CTable index kind ("full", "summary", …), "" on an
// in-memory table.
type IndexInfo struct {
	Schema, Name, Table string
	Unique              bool
	Columns             []string
	Kind                string
	Comment             string
}

// TypeInfo is a CREATE TYPE's type.
type TypeInfo struct {
	Schema, Name string
	Type         columnar.Type
	Comment      string
}

// objects is the catalog's lister (NoObjects when it keeps no list).
func (b *binder) objects() ObjectLister {
	if ol, ok := b.cat.(ObjectLister); ok {
		return ol
	}
	return NoObjects
}
