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
// HashJoin (hashjoin.go) with its probe, pair output, probe-first, shared-build,
// dictionary and grace (spill) phases and the nested-loop and range joins
// it falls back to; HashAgg (hashagg.go) with its pass-through, flush,
// spill, FILTER, DISTINCT and dictionary-code phases; Window, Sort and SetOp with
// their spill and streaming files; the row store (store_chunked.go) with
// its nested and wide columns; and aggState (aggstate.go), whose update and result
// dispatch calls one file per family of aggregates (aggstate_*.go) that
// reads its fields. Each phase reads the state and the state's driver
// calls each phase, so these files need each other both ways; nothing
// else in the package does (tests/filecycles_test.go allows at most 35
// such pairs). Helpers that kernels share live in files of their own
// (cmp_op.go, arith_op.go, grow.go, date_math.go, …).
package executor
