package planner

// The scalar function vocabulary shared by the binder (sql package), which
// types calls and inserts casts, and the executor, which implements them.
// Arguments always arrive with exactly the types listed; "T" means "any one
// type, the same for all T arguments", "N" a numeric type.
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
//	= <> < <= > >=  T, T                       BOOLEAN
//	and or        BOOLEAN...                   BOOLEAN   three-valued logic
//	not           BOOLEAN                      BOOLEAN
//	is_null, is_not_null  any                  BOOLEAN   never NULL
//	in, not_in    T, T...                      BOOLEAN   SQL NULL semantics (x IN (1, NULL) is NULL when no match)
//	like, not_like, ilike, not_ilike  VARCHAR, VARCHAR  BOOLEAN  % and _ wildcards, backslash escapes
//	||            VARCHAR, VARCHAR             VARCHAR   NULL if either is NULL
//	concat        VARCHAR...                   VARCHAR   NULL arguments are skipped
//	coalesce      T...                         T
//	nullif        T, T                         T
//	lower, upper, trim, ltrim, rtrim, reverse  VARCHAR  VARCHAR
//	length        VARCHAR                      BIGINT    in characters (runes)
//	substring     VARCHAR, BIGINT[, BIGINT]    VARCHAR   1-based start, in characters
//	abs, floor, ceil   N                       N         floor/ceil of integers is identity
//	round         N[, INTEGER]                 N         half away from zero
//	date_part     VARCHAR const, DATE|TIMESTAMP|INTERVAL   BIGINT  (EXTRACT; epoch gives DOUBLE seconds)
//	date_trunc    VARCHAR const, DATE|TIMESTAMP            TIMESTAMP (DATE input → DATE)
//
// Casting is the Cast node, not a Call.
