// Package function is b2sql's function registry: one entry (a Set) per SQL
// function name, in the spirit of DuckDB's function sets. An entry holds
// everything the engine knows about the function:
//
//   - its name, aliases, kind (scalar, aggregate, table) and categories;
//   - its overloads: the arguments (each with the rule the binder converts
//     it by), the return-type rule and the kernel factory the executor
//     builds the call with;
//   - its stability (VOLATILE functions are never folded or pushed down);
//   - a one-line description and examples that run.
//
// Who reads it:
//
//	sql       binds a call: looks the name up, picks the overload by the
//	          arguments' types (Set.Choose), converts each argument, adds the
//	          session's defaults (Default), types the result (bind_func_call.go)
//	executor  builds the same overload's kernel (Set.Choose on the
//	          converted types)
//	planner   asks Volatile before folding or moving a call
//	repl      completes names and shows signatures
//	SQL       SELECT * FROM duckdb_functions() lists it, with DuckDB's columns
//
// Most entries are typed by their argument rules alone. A CustomBind entry
// is typed by its hook in the binder (sql/bind_func_hooks.go: constant
// part names, DECIMAL scales, unified argument types, nested element
// types), which may then fall back to the rules; sql's TestBindHooks keeps
// the hooks and the CustomBind entries the same names. An Internal entry
// is a call the binder makes itself (the operators = + || …, tz_local,
// list_string_agg, …), which users cannot write and listings leave out; tests/
// runs every other entry's examples.
//
// The entries are written next to their kernels: in the executor's family
// files (executor/func_string.go, func_math.go, func_date.go, func_list.go,
// func_cond.go, func_uuid.go, func_enum.go, func_geometry.go,
// func_aggregate.go, func_operator.go, func_internal.go), beside a kernel
// with a file of its own (call_*.go, kernel_*.go, sequence.go), and for
// the table functions and current_setting in sql, whose binder computes
// them (bind_func_table.go, bind_settings.go); all are registered at
// package initialization: every program that binds SQL links the
// executor, so the registry is complete before the first statement binds.
// To add a function, add its entry to its family's file; the binder, the
// executor, the REPL and duckdb_functions() then know it. The few calls
// that are not a kernel over evaluated arguments (AND, IN, COALESCE,
// lambdas; planner's functions.go lists them) are special forms of
// executor.NewCall.
//
// The package is a leaf over columnar: kernels are expressed over
// columnar vectors, so that the binder (sql) can read the registry without
// building anything.
package function
