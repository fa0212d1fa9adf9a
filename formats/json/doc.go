// Package json reads and writes JSON files with DuckDB's options and
// semantics (read_json, read_json_auto, read_ndjson, COPY … TO 'x.json').
//
// A file holds newline-delimited values (one per line), one top-level
// array of values, or values one after the other in any layout
// ("unstructured"); Options.Format says which, or the first bytes tell
// (detectFormat). With records (the default when every sampled value is an
// object) each object is a row and its keys are columns, in the order they
// are first seen in the sample; otherwise each value is one column named
// "json".
//
// Column types are inferred from a sample of values (sample_size, 20480 by
// default): BOOLEAN, BIGINT, DOUBLE for numbers (BIGINT only if every one
// is an integer), DATE and TIME for strings that all are ISO dates or
// times, TIMESTAMP for ISO timestamps with 'T' and 'Z' (DuckDB's 'iso'
// format), VARCHAR for other strings. Objects are STRUCTs of every key
// sampled (a missing one is NULL) and arrays LISTs of their elements'
// merged type (VARCHAR[] when all are empty), to any depth, as DuckDB;
// columns that mix kinds are VARCHAR holding each value's JSON text
// (Column.JSON), DuckDB's JSON type. A VARCHAR inside a nested value
// holds a string's contents and any other value's JSON text. Nested
// values are converted value by value (convert_nested.go).
//
// Values are parsed with github.com/valyala/fastjson, which reuses its
// memory from value to value, so strings are copied into the batch's
// arena. A flat record (scalar values, unescaped keys) is not parsed
// whole: extract.go walks its text once and converts only the scanned
// keys' values, accepting exactly what the parser accepts (anything else
// goes to the parser). An uncompressed newline-delimited file is read in parallel byte
// ranges cut at newlines (a JSON string cannot hold a raw newline, so any
// newline ends a value); other layouts and compressed files are read as
// one stream per file, cut into values by valueEnd, which follows nesting
// and strings. One value may not exceed maximum_object_size (16 MiB).
//
// Errors name the file and the line of the value (ValueError); with
// ignore_errors the value is skipped.
//
// Writer writes one object per row, newline-delimited or as an array
// (ARRAY true), as DuckDB's COPY TO does.
//
// # Files
//
// table.go opens readers (reader.go) that read its plan, the flat-object
// extractor (extract.go) fills the reader's batch, and the converters of
// nested values (convert_nested.go) recurse through the scalar ones
// (convert.go): three pairs of files that need each other
// (tests/filecycles_test.go allows at most 3).
package json
