// Package executor owns the physical operators and the vectorized kernels
// that run a query. Operators pull column batches from their children:
//
//	Open(ctx)  starts I/O (Build in the planner does none, so EXPLAIN is free)
//	Next(ctx)  returns a batch with at least one live row, or (nil, io.EOF)
//	Close()    releases resources; safe after a failed Open and safe twice
//
// The batch contract (see columnar.Batch): a batch returned by Next belongs
// to the operator that produced it and stays valid only until the next call
// to Next on that operator. Rows [0, Len) exist; when Sel is non-nil only the
// listed rows are live. Consumers copy what they keep.
//
// Expressions are compiled once per query into Expr trees whose kernels are
// chosen by type when the tree is built: inner loops run over plain slices
// with no interface call or boxing per value.
//
// # Files
//
// An operator is one state type whose phases are in files of their own:
// HashJoin (hashjoin.go) with its probe, probe-first, shared-build and
// grace (spill) phases and the nested-loop and range joins it falls back
// to; HashAgg (hashagg.go) with its pass-through, spill, FILTER and
// dictionary-code phases; Window, Sort and SetOp with their spill files;
// and aggState (aggstate.go), whose update and result dispatch calls one
// file per family of aggregates (aggstate_*.go) that reads its fields.
// Each phase reads the state and the state's driver calls each phase, so
// these files need each other both ways. The remaining pairs are kernel
// files that share a small helper with a sibling (cast and cast_enum,
// kernel_cmp and kernel_cmp_nested, kernel_logic and kernel_case_codes, the
// list sorting calls, the quantile and mode states, the row stores); they
// go as the kernels are regrouped by family. tests/filecycles_test.go
// allows at most 48 such pairs.
package executor
