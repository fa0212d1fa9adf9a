package ctable

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// fuzzTableCost is what opening and scanning a fixture-sized table (at
// most a few thousand rows) costs the harness, whatever the fuzzed part.
const fuzzTableCost = 16 << 20

// failed reports whether err is set, failing t when it wraps neither
// sentinel hostile input may produce.
func failed(t *testing.T, err error) bool {
	t.Helper()
	if err != nil && !knownErr(err) {
		t.Fatalf("error without sentinel: %v", err)
	}
	return err != nil
}

// knownErr reports whether err wraps one of the sentinels hostile input may
// produce.
func knownErr(err error) bool {
	return errors.Is(err, b2.ErrCorrupt) || errors.Is(err, ErrUnsupported)
}

// FuzzManifestFrame feeds _meta.b2f frames to the manifest reader: it must
// never panic and every error must wrap ErrCorrupt or ErrUnsupported.
func FuzzManifestFrame(f *testing.F) {
	for _, p := range []string{"testdata/ctable_mixed.b2d/_meta.b2f", "testdata/ctable_stale.b2d/_meta.b2f"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		// A vlmeta may expand to vlmetaSlack (1 MiB) whatever its size,
		// and decoding it takes as much again for each of two block
		// buffers.
		g.Allow(3 << 20)
		fr, err := b2.NewFrame(data, "_meta.b2f")
		if err != nil {
			return // package b2's own fuzzers cover frames
		}
		m, err := parseManifest(fr)
		if err != nil {
			if !knownErr(err) {
				t.Fatalf("error without sentinel: %v", err)
			}
			return
		}
		exerciseManifest(m)
	})
}

// FuzzSchema feeds the schema JSON and the msgpack index catalog straight
// to the manifest interpreter (a fuzzer rarely gets them through a valid
// compressed vlmeta chunk).
func FuzzSchema(f *testing.F) {
	for _, p := range []string{"testdata/ctable_mixed.b2d/_meta.b2f", "testdata/ctable_stale.b2d/_meta.b2f"} {
		fr, err := b2.Open(p)
		if err != nil {
			f.Fatal(err)
		}
		schema, _, _ := fr.VLMeta("schema")
		catalog, _, _ := fr.VLMeta("index_catalog")
		s, _ := mpDecode(schema)
		f.Add(s.(string), catalog)
		fr.Close()
	}
	f.Add(`{"columns": [{"name": "a.b\\.c", "kind": "float32", "null_value": NaN}], "n_rows": -Infinity}`, []byte{0x80})
	f.Fuzz(func(t *testing.T, schema string, catalog []byte) {
		g := fuzzguard.Start(t, len(schema)+len(catalog))
		defer g.Done()
		vals := map[string]any{"kind": "ctable", "version": int64(1), "schema": schema, "value_epoch": int64(1)}
		if c, err := mpDecode(catalog); err == nil {
			vals["index_catalog"] = c
		} else if !knownErr(err) {
			t.Fatalf("msgpack error without sentinel: %v", err)
		}
		m, err := manifestFrom(vals)
		if err != nil {
			if !knownErr(err) {
				t.Fatalf("error without sentinel: %v", err)
			}
			return
		}
		exerciseManifest(m)
	})
}

func exerciseManifest(m *manifest) {
	for i := range m.Cols {
		m.Cols[i].sqlTypes()
		if p, err := colPath(m.Cols[i].Name); err == nil && !validMember(p+".b2nd") {
			panic("column path " + p + " escapes the table")
		}
	}
	for _, si := range catalogIndexes(m, 1000) {
		_ = si.why
	}
	render(m.Catalog)
}

// FuzzZipTable feeds .b2z bytes to the zip directory reader and, when a
// table opens, scans it: never a panic, never a member outside the table.
func FuzzZipTable(f *testing.F) {
	b, err := os.ReadFile("testdata/ctable_mixed.b2z")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(zipBytes(f, "testdata/ctable_stale.b2d", map[string]string{"../x": ""}))
	f.Add(zipBytes(f, "testdata/ctable_stale.b2d", nil))
	f.Add(referenceZip(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		zs, err := newZipStore(data)
		if failed(t, err) {
			return
		}
		for _, n := range zs.names() {
			if !validMember(n) {
				t.Fatalf("member %q accepted", n)
			}
		}
		tb, err := openStore(zs, "fuzz.b2z")
		if failed(t, err) {
			return
		}
		defer tb.Close()
		if tb.nphys > 1<<16 {
			return // hostile extents only cost time, checked elsewhere
		}
		// The scan's rows are the harness's: boxed values of every column.
		g.Allow(fuzzTableCost + int(tb.nphys)*len(tb.Schema())*256)
		tb.Metadata()
		_, err = scanRows(tb, index.ScanSpec{Threads: 2})
		if err != nil && !knownErr(err) {
			t.Fatalf("scan error without sentinel: %v", err)
		}
	})
}

// zipBytes zips a fixture directory with STORED members.
func zipBytes(tb testing.TB, dir string, extra map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Store})
		b, _ := os.ReadFile(p)
		w.Write(b)
		return nil
	})
	for n, c := range extra {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Store})
		w.Write([]byte(c))
	}
	zw.Close()
	return buf.Bytes()
}
