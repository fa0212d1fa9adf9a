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
package executor
