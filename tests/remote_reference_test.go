package tests

// python-blosc2 remote references (RemoteCTable.save, RemoteStore.save,
// 4.13–4.14): a .b2z whose embed.b2e holds only a manifest naming a table
// elsewhere. b2sql reads the table it names when it reads that source, and
// refuses the others by name.

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// writeReferenceB2z writes, at path, the archive RemoteCTable.save writes
// for source (remote_store.py: embed.b2e with metalayers b2tree and
// b2remote_store, the manifest under vlmeta b2remote_manifest; STORED zip).
func writeReferenceB2z(t *testing.T, path string, source map[string]any) {
	t.Helper()
	manifest, err := msgpack.Marshal(map[string]any{
		"version": 1, "source": source, "generation": "0123456789abcdef0123456789abcdef",
		"nodes": map[string]any{"": []any{"ctable", nil}},
		"attrs": map[string]any{}, "listed": map[string]any{}, "notice": nil, "metadata": map[string]any{},
		"caches": []any{}, "cache_policy": "memory", "max_cache_bytes": nil, "mutable": false,
	})
	if err != nil {
		t.Fatal(err)
	}
	version, _ := msgpack.Marshal(map[string]any{"version": 1})
	embed := filepath.Join(t.TempDir(), "embed.b2e")
	fw, err := b2.CreateFrame(embed, &b2.FrameOptions{Typesize: 1, Chunksize: 8192,
		Meta:   []b2.Metalayer{{Name: "b2tree", Content: version}, {Name: "b2remote_store", Content: version}},
		VLMeta: []b2.Metalayer{{Name: "b2remote_manifest", Content: manifest}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(embed)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "embed.b2e", Method: zip.Store})
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestRemoteReference(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The sources: a b2z table and a Parquet file served over HTTP, with
	// i = 0 … 4999 and g = i % 7.
	for _, f := range []string{"src.b2z", "src.parquet"} {
		q := "COPY (SELECT i, i % 7 AS g FROM range(5000) t(i)) TO '" + filepath.Join(dir, f) + "'"
		if err := db.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	web := storagetest.NewHTTP(t, dir)
	refs := t.TempDir()
	for name, src := range map[string]map[string]any{
		"b2z.b2z":     {"kind": "b2z", "version": 1, "urlpath": web.Location("src.b2z"), "dataset": "", "assume_immutable": true},
		"pq.b2z":      {"kind": "parquet", "urlpath": web.Location("src.parquet"), "dataset": "", "options": strings.Repeat("0", 64)},
		"local.b2z":   {"kind": "parquet", "urlpath": filepath.Join(dir, "src.parquet"), "dataset": "", "local": true},
		"node.b2z":    {"kind": "b2z", "version": 1, "urlpath": web.Location("src.b2z"), "dataset": "tables/sales"},
		"hdf5.b2z":    {"kind": "hdf5", "urlpath": "https://example.org/t.h5", "dataset": "/tables/t"},
		"chained.b2z": {"kind": "b2z", "version": 1, "urlpath": web.Location("ref.b2z"), "dataset": ""},
	} {
		writeReferenceB2z(t, filepath.Join(refs, name), src)
	}
	writeReferenceB2z(t, filepath.Join(dir, "ref.b2z"), map[string]any{"kind": "b2z", "urlpath": web.Location("src.b2z"), "dataset": ""})
	// count 5000, sum(i) = 12497500; g = 3 holds i = 3, 10, …, 4998: 714 rows.
	for _, ref := range []string{"b2z.b2z", "pq.b2z", "local.b2z"} {
		p := filepath.Join(refs, ref)
		for q, want := range map[string]string{
			"SELECT count(*), sum(i) FROM '" + p + "'":            "5000\t12497500",
			"SELECT count(*) FROM '" + p + "' WHERE g = 3":        "714",
			"SELECT i FROM '" + p + "' WHERE i BETWEEN 10 AND 12": "10\n11\n12",
		} {
			got, err := queryAll(t, db, q)
			if err != nil {
				t.Errorf("%s: %v", q, err)
				continue
			}
			if strings.Join(got, "\n") != want {
				t.Errorf("%s: got %q, want %q", q, strings.Join(got, "\n"), want)
			}
		}
	}
	// Sources b2sql does not read are refused by name, as is a reference
	// to a reference.
	for ref, want := range map[string]string{
		"node.b2z":    `a b2z source at "` + web.Location("src.b2z") + `", dataset "tables/sales"`,
		"hdf5.b2z":    `a hdf5 source at "https://example.org/t.h5"`,
		"chained.b2z": "which is a reference itself",
	} {
		_, err := queryAll(t, db, "SELECT count(*) FROM '"+filepath.Join(refs, ref)+"'")
		t.Logf("%s: %v", ref, err)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), ref) {
			t.Errorf("%s: got %v, want an error naming the file and %q", ref, err, want)
		}
	}
	// A reference fetched from elsewhere never makes b2sql read a local file.
	writeReferenceB2z(t, filepath.Join(dir, "tolocal.b2z"), map[string]any{"kind": "parquet", "urlpath": filepath.Join(dir, "src.parquet"), "dataset": "", "local": true})
	_, err = queryAll(t, db, "SELECT count(*) FROM '"+web.Location("tolocal.b2z")+"'")
	t.Logf("remote reference to a local file: %v", err)
	if err == nil || !strings.Contains(err.Error(), "a parquet source at") {
		t.Errorf("remote reference to a local file: got %v, want a refusal", err)
	}
	// Without remote access the reference does not reach the network.
	off, err := b2sql.Open("", b2sql.WithoutRemote())
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	_, err = queryAll(t, off, "SELECT count(*) FROM '"+filepath.Join(refs, "b2z.b2z")+"'")
	t.Logf("remote off: %v", err)
	if err == nil || !strings.Contains(err.Error(), "b2z.b2z") {
		t.Errorf("remote access off: got %v, want a refusal naming the reference", err)
	}
}
