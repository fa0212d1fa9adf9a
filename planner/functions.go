package planner

import "github.com/b2sql/b2sql/function"

// The functions of the registry (package function) carry their own
// signatures, type rules and kernels: duckdb_functions() lists them. The
// table below is the rest of the scalar vocabulary shared by the binder
// (sql package), which types calls and inserts casts, and the executor,
// which implements them, until each moves into the registry.
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
//	coalesce      T...                         T
//	nullif        T, T                         T
//	date_part     VARCHAR const, DATE|TIMESTAMP|INTERVAL   BIGINT  (EXTRACT; epoch gives DOUBLE seconds)
//	date_trunc    VARCHAR const, DATE|TIMESTAMP            TIMESTAMP (DATE input → DATE)
//	tz_local, tz_instant, tz_text, tz_parse, try_tz_parse, tz_offset, tz_add, tz_sub, tz_diff, strftime_tz
//	              TIMESTAMP WITH TIME ZONE ⇄ local time in a zone named by the last argument
//	              (executor/call_timezone.go; the binder's casts and calendar functions of instants)
//	||            VARCHAR, VARCHAR             VARCHAR   NULL if either is NULL
//	regexp_matches  VARCHAR, VARCHAR           BOOLEAN   (RE2 syntax, unanchored)
//	regexp_replace  VARCHAR, VARCHAR, VARCHAR[, VARCHAR]  VARCHAR  first match; option 'g' every match; \1 groups
//	                (the binder turns options c i s m n p l into RE2 flags or a quoted
//	                pattern, and regexp_full_match into \A(?:p)\z)
//	concat_ws     VARCHAR, VARCHAR...          VARCHAR   NULL arguments skipped; NULL separator → NULL
//	make_date     BIGINT, BIGINT, BIGINT       DATE      an error for a day that does not exist
//	last_day      DATE|TIMESTAMP               DATE
//	dayname, monthname  DATE|TIMESTAMP         VARCHAR   English names
//	epoch_ms      BIGINT → TIMESTAMP, DATE|TIMESTAMP → BIGINT   milliseconds since 1970
//	interval_of   DOUBLE, DOUBLE[, BIGINT]     INTERVAL  n units of m µs (INTERVAL (n) DAY, to_days(n)); the
//	                                                     optional calendar-month count is for TIMESTAMP ± it
//	current_date                               DATE      UTC
//	date_diff     VARCHAR, DATE|TIMESTAMP, DATE|TIMESTAMP  BIGINT  part boundaries crossed
//	strftime      DATE|TIMESTAMP, VARCHAR      VARCHAR   DuckDB's codes (executor/call_strftime.go); strftime(format, date) binds here too
//	to_timestamp  DOUBLE                       TIMESTAMP epoch seconds
//	strptime, try_strptime  VARCHAR, VARCHAR   TIMESTAMP DuckDB % codes; no match: error (try_: NULL); to_timestamp(s, fmt) binds here
//	add_months    TIMESTAMP, BIGINT            TIMESTAMP day clamped to the month's end; TIMESTAMP ± an INTERVAL literal with months binds here
//	repeat        VARCHAR, BIGINT              VARCHAR   '' for n <= 0
//	translate     VARCHAR, VARCHAR, VARCHAR    VARCHAR   characters of from become those of to, or are dropped
//	bit_length    VARCHAR                      BIGINT
//	url_encode, url_decode  VARCHAR            VARCHAR
//	to_hex        VARCHAR|BLOB|BIGINT|UBIGINT  VARCHAR   (hex); unhex, from_base64 VARCHAR → BLOB; to_base64 BLOB → VARCHAR
//	md5, sha1, sha256  VARCHAR|BLOB            VARCHAR   lower-case hex digest
//	hash          any...                       UBIGINT   deterministic, never NULL
//	levenshtein, damerau_levenshtein, hamming  VARCHAR, VARCHAR  BIGINT  over bytes, as DuckDB
//	jaro_similarity, jaro_winkler_similarity   VARCHAR, VARCHAR  DOUBLE
//	+ -           INTERVAL, INTERVAL           INTERVAL  (constant operands fold in the binder, calendar months kept)
//	interval_mul  INTERVAL, BIGINT|DOUBLE      INTERVAL  INTERVAL * n and n * INTERVAL; interval_div INTERVAL, DOUBLE: / (x/0 → NULL)
//	age           TIMESTAMP, TIMESTAMP         INTERVAL  field-wise, DuckDB's borrowing; age(ts) from today at midnight
//	epoch_us, epoch_ns  DATE|TIMESTAMP         BIGINT
//	make_timestamp  BIGINT µs, or BIGINT×5, DOUBLE seconds  TIMESTAMP
//	date_sub      VARCHAR, DATE|TIMESTAMP, DATE|TIMESTAMP  BIGINT  whole parts (date_diff counts boundaries)
//	yearweek      DATE|TIMESTAMP               BIGINT    ISO year × 100 + ISO week
//	julian        DATE|TIMESTAMP               DOUBLE
//	time_bucket   BIGINT µs, BIGINT months, TIMESTAMP, TIMESTAMP origin  TIMESTAMP  (the binder adds default origins, casts back to DATE)
//	printf        VARCHAR, any...              VARCHAR   C-style %d %5.2f %-8s %x %c %%; a conversion that does not fit is an error
//	format        VARCHAR, any...              VARCHAR   fmtlib-style {} {1} {:>8.2f} {:,} {{ }}
//	like_escape, not_like_escape, ilike_escape, not_ilike_escape  VARCHAR, VARCHAR, VARCHAR  BOOLEAN  escape: '' or one character
//	octet_length  VARCHAR|BLOB                 BIGINT
//	bin           VARCHAR|BLOB|BIGINT          VARCHAR   (to_binary)
//	error         VARCHAR                      NULL      fails the query with the message when evaluated
//	nfc_normalize, strip_accents  VARCHAR      VARCHAR   Unicode NFC; decomposed with combining marks dropped
//	jaccard       VARCHAR, VARCHAR             DOUBLE    over the sets of bytes
//	regexp_escape VARCHAR                      VARCHAR
//	to_base       BIGINT, BIGINT[, BIGINT]     VARCHAR   radix 2–36, zero-padded to the minimum length
//	(nanosecond(x) binds to date_part('microsecond', x) * 1000)
//
// mod(a, b) binds to %, date_add(d, i) to TIMESTAMP + INTERVAL. The
// functions from replace on run row by row (executor/call_more.go).
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
