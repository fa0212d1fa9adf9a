//go:build !b2sql_noaccounting

package memory

// accounting is false only in builds with the tag b2sql_noaccounting,
// where queries run with no manager: no reservation is counted, nothing
// spills and no limit holds. Benchmarks build so to measure what the
// accounting costs (go run -tags b2sql_noaccounting ./cmd/compare); never
// a release.
const accounting = true
