//go:build b2sql_noaccounting

package memory

// accounting: see accounting.go.
const accounting = false
