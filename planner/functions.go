package planner

import "github.com/b2sql/b2sql/function"

// Calls (Call.Fn) name a function of the registry (package function) by
// its canonical name: its entry carries the argument rules, the result
// type, the kernel, a description and examples. That covers the named
// functions users write (duckdb_functions() lists them), the operators
// the binder types as calls (= <> < <= > >= + - * / // % neg not like
// not_like ilike not_ilike ||; executor/func_operator.go) and the other
// calls the binder makes itself (struct_pack, tz_local, …):
// those are Internal entries, left out of listings. Arguments always
// arrive with the types the binder gave them.
//
// The rest are special forms, which the executor builds itself
// (executor/call.go) because they are not a kernel over evaluated
// arguments ("T" is any one type, the same for all T arguments):
//
//	Fn            args                         result    notes
//	and or        BOOLEAN...                   BOOLEAN   three-valued logic, short-circuit
//	is_null, is_not_null  any                  BOOLEAN   never NULL
//	in, not_in    T, T...                      BOOLEAN   SQL NULL semantics (x IN (1, NULL) is NULL when no match)
//	coalesce      T...                         T         later arguments evaluated only where needed
//	struct_extract STRUCT, BIGINT const        field     the field's index (the binder resolves the name)
//	map_keys, map_values  MAP(K, V)            K[], V[]  the map's children, not copied
//	list_transform, list_filter  T[], Lambda   U[], T[]  the lambda over each element (and position)
//	list_reduce   T[], Lambda[, A]             A         (acc, x[, i]) -> …, from the first element or A
//
// Casting is the Cast node, not a Call.

// Volatile reports a function whose value changes from row to row with the
// same arguments (random, uuid), which constant folding must leave alone.
func Volatile(fn string) bool { return function.IsVolatile(fn) }
