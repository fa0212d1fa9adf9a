package ctable

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/formats/b2"
)

// referenceManifest is what python-blosc2 4.14's RemoteCTable.save stores
// in embed.b2e's vlmeta "b2remote_manifest" for a remote CTable (the
// fields remote_store.py's _load_artifact_manifest and
// _validate_artifact_manifest require), with source as given.
func referenceManifest(source mpMap) []byte {
	ctable := mpMap{{"kind", "ctable"}, {"schema", `{"version": 3, "columns": []}`}}
	return mpAppend(nil, mpMap{
		{"version", int64(1)},
		{"source", source},
		{"generation", "0123456789abcdef0123456789abcdef"},
		{"mutable", false},
		{"nodes", mpMap{{"", []any{"ctable", ctable}}}},
		{"attrs", mpMap{}},
		{"listed", mpMap{}},
		{"metadata", mpMap{}},
		{"caches", []any{}},
	})
}

// writeReference writes a reference archive as a .b2d directory holding
// embed.b2e (python-blosc2 also accepts the directory form) and returns
// its path; zipped returns the same tree as a .b2z of STORED members.
func writeReference(t testing.TB, manifest []byte) (dir, zipped string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "ref.b2d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	vl := []b2.Metalayer{{Name: remoteManifestKey, Content: manifest}}
	if err := emptyFrame(filepath.Join(dir, "embed.b2e"), nil, vl); err != nil {
		t.Fatal(err)
	}
	zipped = filepath.Join(root, "ref.b2z")
	if err := os.WriteFile(zipped, zipBytes(t, dir, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, zipped
}

// referenceZip is a reference archive to a remote b2z table, zipped (a
// fuzz seed).
func referenceZip(t testing.TB) []byte {
	_, zipped := writeReference(t, referenceManifest(mpMap{{"kind", "b2z"}, {"version", int64(1)},
		{"urlpath", "https://example.org/t.b2z"}, {"dataset", ""}, {"assume_immutable", true}}))
	b, err := os.ReadFile(zipped)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRemoteReferenceRefused(t *testing.T) {
	cases := []struct {
		name   string
		source mpMap
		want   []string
	}{
		{"b2z", mpMap{{"kind", "b2z"}, {"version", int64(1)}, {"urlpath", "s3://bucket/sales.b2z"}, {"dataset", "tables/sales"}, {"assume_immutable", true}},
			[]string{`a b2z source at "s3://bucket/sales.b2z", dataset "tables/sales"`}},
		{"caterva2", mpMap{{"kind", "caterva2"}, {"version", int64(1)}, {"urlbase", "https://cat2.cloud/demo/"}, {"path", "@public/t.b2z"}, {"assume_immutable", true}},
			[]string{`a caterva2 source at "https://cat2.cloud/demo/", path "@public/t.b2z"`}},
		{"parquet", mpMap{{"kind", "parquet"}, {"urlpath", "/data/trips.parquet"}, {"dataset", ""}, {"options", strings.Repeat("0", 64)}, {"local", true}},
			[]string{`a parquet source at "/data/trips.parquet"`, "query it directly"}},
	}
	for _, c := range cases {
		dir, zipped := writeReference(t, referenceManifest(c.source))
		for _, p := range []string{dir, zipped} {
			_, err := Open(p)
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, b2.ErrCorrupt) {
				t.Fatalf("%s %s: got %v, want ErrUnsupported and not ErrCorrupt", c.name, p, err)
			}
			msg := err.Error()
			for _, w := range append(c.want, p, "remote reference", "RemoteCTable.save") {
				if !strings.Contains(msg, w) {
					t.Errorf("%s: error %q does not say %q", c.name, msg, w)
				}
			}
		}
	}
}

// A manifest that is there but unreadable is damage, not a feature.
func TestRemoteReferenceBadManifest(t *testing.T) {
	for name, m := range map[string][]byte{
		"truncated": referenceManifest(mpMap{{"kind", "b2z"}, {"urlpath", "s3://b/x.b2z"}})[:20],
		"no source": mpAppend(nil, mpMap{{"version", int64(1)}}),
	} {
		_, zipped := writeReference(t, m)
		if _, err := Open(zipped); !errors.Is(err, b2.ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", name, err)
		}
	}
}

// A local table's embed.b2e (estore_metadata only) is no reference.
func TestLocalTableIsNoReference(t *testing.T) {
	tb, err := Open("testdata/ctable_mixed.b2z")
	if err != nil {
		t.Fatal(err)
	}
	tb.Close()
}
