package sql

// DuckDB's SELECT * EXCLUDE (a, b): the star's columns without those
// named (rewrite.go cuts the list out of the text and keeps it by the
// star's ordinal).
