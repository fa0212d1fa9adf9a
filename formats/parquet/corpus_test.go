package parquet

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// The public Parquet corpus (../shared/parquet-testing, see its README):
// files from writers outside this project, read in place and never copied
// into the repository. PARQUET_TESTING names another copy.

// corpusDir returns the corpus directory, looked for as shared/parquet-testing
// beside the repository or any directory above it (worktrees sit deeper
// than the main checkout), or skips the test.
func corpusDir(t testing.TB) string {
	t.Helper()
	d := findCorpus()
	if d == "" {
		t.Skip("parquet-testing corpus not found (../shared/parquet-testing; set PARQUET_TESTING): skipped")
	}
	return d
}

// findCorpus is corpusDir's search, "" when the corpus is absent.
func findCorpus() string {
	if d := os.Getenv("PARQUET_TESTING"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		d := filepath.Join(dir, "shared", "parquet-testing")
		if st, err := os.Stat(filepath.Join(d, "files")); err == nil && st.IsDir() {
			return d
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// corpusFiles lists the *.parquet files of the corpus subdirectory sub.
func corpusFiles(t testing.TB, sub string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir(t), sub, "*.parquet"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no files in %s: %v", sub, err)
	}
	return paths
}

// corpusRows is DuckDB 1.5.6's count(*) of every file of files/ (DuckDB
// cannot read the LZ4 files, whose counts are the README's, nor
// map_no_value.parquet, whose footer and row group say 3 rows).
var corpusRows = map[string]int64{
	"ARROW-17100.parquet": 5, "alltypes-java.parquet": 2, "alltypes_dictionary.parquet": 2,
	"alltypes_plain.parquet": 8, "alltypes_plain.snappy.parquet": 2, "alltypes_tiny_pages.parquet": 7300,
	"alltypes_tiny_pages_plain.parquet": 7300, "binary.parquet": 12, "binary_truncated_min_max.parquet": 12,
	"blogs.parquet": 500, "byte_array_decimal.parquet": 24, "byte_stream_split.zstd.parquet": 300,
	"byte_stream_split_extended.gzip.parquet": 200, "column_chunk_key_value_metadata.parquet": 0,
	"concatenated_gzip_members.parquet": 513, "crs-geography.parquet": 1,
	"data_index_bloom_encoding_stats.parquet": 14, "data_index_bloom_encoding_with_length.parquet": 14,
	"datapage_v1-corrupt-checksum.parquet": 5120, "datapage_v1-snappy-compressed-checksum.parquet": 5120,
	"datapage_v1-uncompressed-checksum.parquet": 5120, "datapage_v2.snappy.parquet": 5,
	"datapage_v2_empty_datapage.snappy.parquet": 1, "delta_binary_packed.parquet": 200,
	"delta_byte_array.parquet": 1000, "delta_encoding_optional_column.parquet": 100,
	"delta_encoding_required_column.parquet": 100, "delta_length_byte_array.parquet": 1000,
	"dict-page-offset-zero.parquet": 39, "duckdb_brotli.parquet": 7300, "fixed_length_byte_array.parquet": 1000,
	"fixed_length_decimal.parquet": 24, "fixed_length_decimal_legacy.parquet": 24,
	"float16_nonzeros_and_nans.parquet": 8, "float16_zeros_and_nans.parquet": 3,
	"floating_orders_nan_count.parquet": 50, "geospatial.parquet": 196, "hadoop_lz4_compressed.parquet": 4,
	"hadoop_lz4_compressed_larger.parquet": 10000, "incorrect_map_schema.parquet": 1,
	"int32_decimal.parquet": 24, "int32_with_null_pages.parquet": 1000, "int64_decimal.parquet": 24,
	"int96_from_spark.parquet": 6, "list_columns.parquet": 3, "lz4_raw_compressed.parquet": 4,
	"lz4_raw_compressed_larger.parquet": 10000, "map_no_value.parquet": 3, "nan_in_stats.parquet": 2,
	"nation.dict-malformed.parquet": 25, "nested_lists.snappy.parquet": 3, "nested_maps.snappy.parquet": 6,
	"nested_structs.rust.parquet": 1, "non_hadoop_lz4_compressed.parquet": 4, "nonnullable.impala.parquet": 1,
	"null_list.parquet": 1, "nullable.impala.parquet": 7, "nulls.snappy.parquet": 8,
	"old_list_structure.parquet": 1, "overflow_i16_page_cnt.parquet": 40000,
	"page_v2_empty_compressed.parquet": 10, "plain-dict-uncompressed-checksum.parquet": 1000,
	"repeated_no_annotation.parquet": 6, "repeated_primitive_no_list.parquet": 4,
	"rle-dict-snappy-checksum.parquet": 1000, "rle-dict-uncompressed-corrupt-checksum.parquet": 1000,
	"rle_boolean_encoding.parquet": 68, "shredded_variant-case-012.parquet": 1,
	"shredded_variant-case-046.parquet": 1, "single_nan.parquet": 1, "sort_columns.parquet": 6,
	"unknown-logical-type.parquet": 3,
}

// corpusUnsupported are the files of files/ whose every column is of a
// type b2sql does not read: Open must say exactly that, naming the columns
// and their types. None is left (FLOAT16 reads as FLOAT, as in DuckDB).
var corpusUnsupported = map[string]string{}

// scanCorpus scans every column of tb and returns the rows it produced.
func scanCorpus(tb *Table, threads int) (int64, error) {
	r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: allColumns(len(tb.Schema())), Limit: -1, Threads: threads})
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var n int64
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		for _, v := range b.Cols {
			for i := 0; i < b.Len; i++ {
				_ = v.Value(i)
			}
		}
		n += int64(b.Live())
	}
}

// TestCorpusFiles opens every valid file of the corpus (nested columns
// included) and scans it to the end, with the row count DuckDB gives; the
// files no column of which b2sql reads say which columns and types they
// hold.
func TestCorpusFiles(t *testing.T) {
	for _, path := range corpusFiles(t, "files") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			want, ok := corpusRows[name]
			if !ok {
				t.Fatalf("%s is not in corpusRows: add DuckDB's count(*)", name)
			}
			tb, err := Open(path)
			if cols, unsupported := corpusUnsupported[name]; unsupported {
				if err == nil {
					tb.Close()
					t.Fatalf("opened; want an error naming %s", cols)
				}
				if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) ||
					!strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "of a type b2sql reads: "+cols) {
					t.Fatalf("error %q: want unsupported, naming the file and %s", err, cols)
				}
				return
			}
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer tb.Close()
			if tb.RowCount() != want {
				t.Errorf("RowCount = %d, DuckDB counts %d", tb.RowCount(), want)
			}
			for _, threads := range []int{1, 3} {
				n, err := scanCorpus(tb, threads)
				if err != nil {
					t.Fatalf("scan (threads %d): %v", threads, err)
				}
				if n != want {
					t.Errorf("scan (threads %d) gave %d rows, DuckDB counts %d", threads, n, want)
				}
			}
		})
	}
}

// TestCorpusBad opens and scans every file of bad/: each must fail with
// an error that names the file and wraps ErrCorrupt (ErrUnsupported for
// the encrypted ones, which must say so), never through a recovered panic,
// and allocating at most a small multiple of the file's size.
func TestCorpusBad(t *testing.T) {
	// Files of bad/ that are not refused, each with why:
	readable := map[string]string{
		// One dictionary entry, its indices RLE-encoded at bit width 0: all
		// the same value, which is how DuckDB reads it too (checked in
		// TestCorpusValues). It is in bad/ for crashing arrow-go once.
		"ARROW-GH-43605.parquet": "",
	}
	for _, path := range corpusFiles(t, "bad") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			err = openAndScan(path)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			if limit := uint64(badAllocPerByte*st.Size() + badAllocBase); alloc > limit {
				t.Errorf("allocated %d bytes for a %d-byte file (limit %d)", alloc, st.Size(), limit)
			}
			if _, ok := readable[name]; ok {
				if err != nil {
					t.Fatalf("readable file failed: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("opened and scanned without an error")
			}
			msg := err.Error()
			switch {
			case strings.Contains(msg, "panic"):
				t.Fatalf("failed through a recovered panic: %v", err)
			case !strings.Contains(msg, path):
				t.Fatalf("error does not name the file: %v", err)
			case strings.Contains(name, ".encrypted."):
				if !errors.Is(err, ErrUnsupported) || !strings.Contains(msg, "encrypted") {
					t.Fatalf("encrypted file: %v", err)
				}
			case !errors.Is(err, ErrCorrupt):
				t.Fatalf("error does not wrap ErrCorrupt: %v", err)
			}
			t.Logf("%s (allocated %d bytes for %d)", msg, alloc, st.Size())
		})
	}
}

// The allocation bound of a bad file: what Open and a full scan may
// allocate, per byte of the file plus a constant (buffer pools, per-column
// readers and batches).
const (
	badAllocPerByte = 16
	badAllocBase    = 16 << 20
)

// openAndScan opens path and scans every column with one thread.
func openAndScan(path string) error {
	tb, err := Open(path)
	if err != nil {
		return err
	}
	defer tb.Close()
	_, err = scanCorpus(tb, 1)
	return err
}

// corpusText reads every row of path as DuckDB's text of each value, tab
// separated.
func corpusText(t *testing.T, path string) (columnar.Schema, []string, *Table) {
	t.Helper()
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	var out []string
	for _, row := range readAll(t, tb, index.ScanSpec{Cols: allColumns(len(tb.Schema())), Limit: -1, Threads: 1}) {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = v.String()
		}
		out = append(out, strings.Join(cells, "\t"))
	}
	return tb.Schema(), out, tb
}

// TestCorpusValues checks every value of the files this package's fixes
// made readable against DuckDB 1.5.6 (`SELECT * FROM 'x.parquet'`), or,
// for the LZ4 files DuckDB cannot read, against the LZ4_RAW files the
// parquet-testing README says hold the same values, as DuckDB reads them.
func TestCorpusValues(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "files")
	lz4Small := []string{ // DuckDB: SELECT * FROM 'lz4_raw_compressed.parquet'
		"1593604800\tabc\t42.0",
		"1593604800\tdef\t7.7",
		"1593604801\tabc\t42.125",
		"1593604801\tdef\t7.7",
	}
	cases := []struct {
		file     string
		names    []string
		types    []columnar.Type
		rows     []string
		warnings []string
	}{
		{file: "unknown-logical-type.parquet",
			names: []string{"column with known type", "column with unknown type"},
			types: []columnar.Type{columnar.TVarchar, columnar.TBlob},
			rows: []string{
				"known string 1\tunknown string 1",
				"known string 2\tunknown string 2",
				"known string 3\tunknown string 3",
			},
			warnings: []string{`column "column with unknown type": unknown logical type (LogicalType member 2`},
		},
		// DuckDB 1.5.6 cannot read this one ("Out of buffer"): the values
		// agree with the footer's statistics as DuckDB's parquet_metadata
		// gives them (col1 1..5, col2 'a'..'e', col3 1.0..5.0, col4 'a'..'b'
		// from a dictionary, no NULLs) and with pandas' frame of 5 rows.
		{file: "ARROW-17100.parquet", names: []string{"col1", "col2", "col3", "col4"},
			types: []columnar.Type{columnar.TInt8, columnar.TVarchar, columnar.TFloat64, columnar.TVarchar},
			rows:  []string{"1\ta\t1.0\ta", "2\tb\t2.0\ta", "3\tc\t3.0\ta", "4\td\t4.0\tb", "5\te\t5.0\tb"}},
		{file: "datapage_v2_empty_datapage.snappy.parquet",
			names: []string{"value"}, types: []columnar.Type{columnar.TFloat32}, rows: []string{"NULL"}},
		{file: "lz4_raw_compressed.parquet", names: []string{"c0", "c1", "v11"},
			types: []columnar.Type{columnar.TInt64, columnar.TBlob, columnar.TFloat64}, rows: lz4Small},
		{file: "hadoop_lz4_compressed.parquet", names: []string{"c0", "c1", "v11"},
			types: []columnar.Type{columnar.TInt64, columnar.TBlob, columnar.TFloat64}, rows: lz4Small},
		{file: "non_hadoop_lz4_compressed.parquet", names: []string{"c0", "c1", "v11"},
			types: []columnar.Type{columnar.TInt64, columnar.TBlob, columnar.TFloat64}, rows: lz4Small},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			sc, rows, tb := corpusText(t, filepath.Join(dir, tc.file))
			var names []string
			var types []columnar.Type
			for _, f := range sc {
				names, types = append(names, f.Name), append(types, f.Type)
			}
			if !slices.Equal(names, tc.names) || !slices.Equal(types, tc.types) {
				t.Errorf("schema %q %v, want %q %v", names, types, tc.names, tc.types)
			}
			if !slices.Equal(rows, tc.rows) {
				t.Errorf("rows\n%q\nwant (DuckDB)\n%q", rows, tc.rows)
			}
			w := tb.Warnings()
			if len(w) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %q", w, tc.warnings)
			}
			for i := range w {
				if !strings.Contains(w[i], tc.warnings[i]) || !strings.Contains(w[i], tc.file) {
					t.Errorf("warning %q, want the file and %q", w[i], tc.warnings[i])
				}
			}
		})
	}

	// 10,000 UUID strings: the LZ4_RAW file as DuckDB reads it
	// (count(*), count(DISTINCT a), min(a), max(a), sum(length(a)), the
	// first two and the last row), then the Hadoop-framed LZ4 file, whose
	// page is split into several LZ4 blocks, row for row the same.
	_, raw, _ := corpusText(t, filepath.Join(dir, "lz4_raw_compressed_larger.parquet"))
	if len(raw) != 10000 || raw[0] != "c7ce6bef-d5b0-4863-b199-8ea8c7fb117b" ||
		raw[1] != "e8fb9197-cb9f-4118-b67f-fbfa65f61843" || raw[9999] != "85440778-460a-41ac-aa2e-ac3ee41696bf" {
		t.Fatalf("lz4_raw_compressed_larger: %d rows, first %q, last %q", len(raw), raw[:min(2, len(raw))], raw[max(0, len(raw)-1):])
	}
	sorted := slices.Clone(raw)
	slices.Sort(sorted)
	total := 0
	for _, s := range raw {
		total += len(s)
	}
	if sorted[0] != "00087de7-10df-4979-94cf-79279f9745ce" || sorted[9999] != "ffffe6a0-e0c0-4e65-a9d4-f7f4c176aea2" ||
		len(slices.Compact(sorted)) != 10000 || total != 360000 {
		t.Errorf("lz4_raw_compressed_larger: min %q max %q, distinct/length differ from DuckDB's", sorted[0], sorted[len(sorted)-1])
	}
	_, hadoop, _ := corpusText(t, filepath.Join(dir, "hadoop_lz4_compressed_larger.parquet"))
	if !slices.Equal(hadoop, raw) {
		t.Errorf("hadoop_lz4_compressed_larger differs from lz4_raw_compressed_larger (%d rows)", len(hadoop))
	}

	// bad/ARROW-GH-43605.parquet: DuckDB reads 21186 rows of 0 (USMALLINT).
	sc, rows, _ := corpusText(t, filepath.Join(corpusDir(t), "bad", "ARROW-GH-43605.parquet"))
	if len(sc) != 1 || sc[0].Name != "min_fl" || sc[0].Type != columnar.TUint16 || len(rows) != 21186 {
		t.Fatalf("ARROW-GH-43605: schema %v, %d rows; want min_fl USMALLINT, 21186 rows", sc, len(rows))
	}
	for i, r := range rows {
		if r != "0" {
			t.Fatalf("ARROW-GH-43605: row %d is %q, want 0", i, r)
		}
	}
}
