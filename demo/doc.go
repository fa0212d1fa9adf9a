// Package demo owns b2sql's built-in demo dataset: a deterministic table of
// synthetic "events" written as Parquet, so that every user (and every
// benchmark) queries exactly the same data.
//
// Generate writes the file; EnsureCached keeps one copy per row count under
// the user cache directory. The same row count always yields the same
// values: the generator uses its own PRNG (SplitMix64) with a fixed seed,
// reseeded per row group, so the result depends neither on the Go version's
// math/rand nor on the number of generating goroutines.
//
// Columns and distributions (N rows, row i):
//
//	id           BIGINT     i: 0 .. N-1, sorted
//	ts           TIMESTAMP  2024-01-01 00:00:00 + i·(365 days / N) ± up to 5 min
//	                        of uniform jitter, whole seconds, never before the
//	                        start: clustered, so each row group spans a narrow
//	                        time range and range filters on ts prune well
//	user_id      INTEGER    uniform in 0 .. 999,999
//	region       SMALLINT   0 .. 19, geometric-like: P(k) ∝ 0.8^k (region 0 about
//	                        20%, region 19 about 0.3%)
//	category     VARCHAR    "cat_000" .. "cat_099", Zipf-like: P(k) ∝ 1/(k+1)^1.1
//	                        (cat_000 about 23%)
//	title        VARCHAR    words drawn uniformly from a fixed 64-word list,
//	                        capitalized, 20 .. 80 bytes, mostly unique
//	price        DOUBLE     uniform cents 0 .. 100000 / 100 (0.00 .. 1000.00,
//	                        two decimals); NULL with probability 1%
//	qty          INTEGER    uniform in 0 .. 100
//	temperature  DOUBLE     normal, mean 20, standard deviation 8, rounded to
//	                        two decimals
//	flag         BOOLEAN    true with probability 30%
//
// Only price is nullable. Row groups hold 122,880 rows (DuckDB's default),
// the file is Snappy-compressed with statistics, so filters on id and ts
// skip row groups.
package demo
