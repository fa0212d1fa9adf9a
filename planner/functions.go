package planner

import "github.com/b2sql/b2sql/function"

// Calls (Call.Fn) name either a function of the registry (package
// function: its entry carries the argument rules, the result type, the
// kernel, a description and examples, and duckdb_functions() lists it;
// the entries live in executor/func_*.go), or one of the operators and
// special forms below, which the executor builds itself (executor/call.go)
// because they evaluate lazily, compare or do arithmetic over every type,
// or take constant part names. Arguments always arrive with exactly the
// types listed; "T" means "any one type, the same for all T arguments",
// "N" a numeric type.
//
//	Fn            args                         result    notes
//	+ - * %       N, N                         N         integers: overflow is an error
//	/             DOUBLE, DOUBLE               DOUBLE    DuckDB: / on integers is float division; x/0 → NULL
//	//            INT, INT                     INT       integer division (truncates); x//0 → NULL
//	neg           N                            N
//	+             DATE, INTEGER|BIGINT         DATE      add days (also INTEGER + DATE order)
//	-             DATE, INTEGER|BIGINT         DATE
//	-             DATE, DATE                   BIGINT    days between
//	-             TIMESTAMP, TIMESTAMP         INTERVAL
//	+ -           TIMESTAMP, INTERVAL          TIMESTAMP
//	+ -           INTERVAL, INTERVAL           INTERVAL  (constant operands fold in the binder, calendar months kept)
//	= <> < <= > >=  T, T                       BOOLEAN
//	and or        BOOLEAN...                   BOOLEAN   three-valued logic
//	not           BOOLEAN                      BOOLEAN
//	is_null, is_not_null  any                  BOOLEAN   never NULL
//	in, not_in    T, T...                      BOOLEAN   SQL NULL semantics (x IN (1, NULL) is NULL when no match)
//	like, not_like, ilike, not_ilike  VARCHAR, VARCHAR  BOOLEAN  % and _ wildcards, backslash escapes
//	||            VARCHAR, VARCHAR             VARCHAR   NULL if either is NULL
//	coalesce      T...                         T         later arguments evaluated only where needed
//	date_part     VARCHAR const, DATE|TIMESTAMP|INTERVAL   BIGINT  (EXTRACT; epoch gives DOUBLE seconds)
//	date_trunc    VARCHAR const, DATE|TIMESTAMP            TIMESTAMP (DATE input → DATE)
//
// The binder rewrites some names into others: mod(a, b) is %, date_add(d,
// i) TIMESTAMP + INTERVAL, log(b, x) ln(x)/ln(b), nanosecond(x)
// date_part('microsecond', x) * 1000, regexp_full_match an anchored
// regexp_matches, and the functions of TIMESTAMP WITH TIME ZONE the
// registry's internal tz_* calls with the session's zone.
//
// Nested values (sql/bind_func_list.go binds DuckDB's names and aliases to
// these; executor/call_list.go, call_list_rows.go):
//
//	list_len      T[]                          BIGINT    (len, length, array_length of a list)
//	cardinality   MAP(K, V)                    UBIGINT
//	list_contains T[], T                       BOOLEAN   NULL elements never match
//	list_position T[], T                       INTEGER   1-based; a NULL value finds the first NULL; NULL if absent
//	list_extract  T[], BIGINT                  T         1-based, negative from the end, NULL out of range
//	list_value    T...                         T[]
//	struct_extract STRUCT, BIGINT const        field     the field's index (the binder resolves the name)
//	map_keys, map_values  MAP(K, V)            K[], V[]
//	map_extract, map_extract_value  MAP(K, V), K  V[], V
//	list_concat   T[]...                       T[]       a NULL list counts as empty
//	list_reverse, list_distinct, flatten  T[] (flatten: T[][])  T[]
//	list_sort     T[][, VARCHAR[, VARCHAR]]    T[]       ASC|DESC, NULLS FIRST|LAST (default ASC, NULLS LAST)
//	list_slice    T[], BIGINT, BIGINT[, BIGINT]  T[]     1-based inclusive, negative from the end, every step-th
//	              (VARCHAR: its characters, no step; x[a:b])
//	list_concat_op  T[], T[]                   T[]       [1] || [2]: NULL when either side is
//	string_index  VARCHAR, BIGINT              VARCHAR   s[i]: character i, '' out of range
//	struct_pack   T...                         STRUCT    the fields in order ({'k': v}, struct_pack(k := v))
//	map_from_lists  K[], V[]                   MAP(K, V) map(keys, values), MAP {k: v}; keys non-NULL and unique
//	list_sum, list_min, list_max, list_avg, list_count  T[]  as the aggregate over the elements
//	list_first, list_last, list_any_value, list_mode  T[]  T   list_aggregate(l, 'first'), …
//	list_string_agg  VARCHAR[][, VARCHAR]      VARCHAR   list_aggregate(l, 'string_agg'[, sep])
//	list_bool_and, list_bool_or  BOOLEAN[]     BOOLEAN
//	list_median, list_product  T[]             DOUBLE
//	list_transform, list_filter  T[], Lambda   U[], T[]  the lambda over each element (and position)
//	list_reduce   T[], Lambda[, A]             A         (acc, x[, i]) -> …, from the first element or A
//	strptime, try_strptime  VARCHAR, VARCHAR[] TIMESTAMP the first format of the list that parses
//	list_has_any, list_has_all  T[], T[]       BOOLEAN
//	string_split, regexp_split_to_array  VARCHAR, VARCHAR  VARCHAR[]
//	list_range, list_generate_series  BIGINT[, BIGINT[, BIGINT]]  BIGINT[]  (range, generate_series in expressions)
//
// Casting is the Cast node, not a Call.

// Volatile reports a function whose value changes from row to row with the
// same arguments (random, uuid), which constant folding must leave alone.
func Volatile(fn string) bool { return function.IsVolatile(fn) }
