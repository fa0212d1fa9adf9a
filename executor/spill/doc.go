// Package spill is the one spill-file layer: operators that the memory
// manager (executor/memory) tells to spill write their rows here and read
// them back later.
//
// A spill file is an Arrow IPC stream (github.com/apache/arrow-go/v18
// arrow/ipc) compressed with LZ4, one record per batch written, typed by
// the physical representation of each column (int64, uint64, float64,
// bool, binary, null): the reader hands back vectors of the logical types
// the writer was given. Files live in a directory of this process,
// "b2sql-spill-<pid>-<n>" under the temp directory, made at the first
// spill and removed when its last file is; each file is removed when its
// operator closes or the query ends. Directories left by a process that is
// no longer running (a crash) are removed the first time this process
// spills to the same temp directory.
//
// Every error names the directory: a full disk, an unwritable directory or
// max_temp_directory_size reached is an *Error the user can act on.
//
// # Files
//
// arrow.go converts a column by type and arrow_nested.go the LIST, STRUCT
// and MAP ones, whose children it converts through arrow.go again: one
// recursion over the type, the one pair of files that need each other
// (tests/filecycles_test.go allows at most 1).
package spill
