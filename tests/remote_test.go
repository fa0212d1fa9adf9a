package tests

// Remote data end to end: Parquet files on an in-process S3 server and an
// HTTP server (storage/storagetest), read through CREATE SECRET, globs and
// read_parquet; the answers are computed from the generating formulas.

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/storage/storagetest"
)

func TestRemoteParquetS3AndHTTP(t *testing.T) {
	dir := t.TempDir()
	// 3000 rows in row groups of 100: id = i, g = i % 7, s = 'k' || i%100.
	path := writeFixture(t, dir, "ev", 3000, "id BIGINT seq", "g INTEGER mod 7", "s VARCHAR i%100 prefix=k pad=3")
	s3 := storagetest.NewS3(t, "bucket")
	s3.PutFile(t, "data/part=1/ev.parquet", path)
	s3.PutFile(t, "data/part=2/ev.parquet", path)
	web := storagetest.NewHTTP(t, dir)

	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(context.Background(), s3.CreateSecret()); err != nil {
		t.Fatal(err)
	}
	// sum(id) over 0..2999 = 4498500; ids with g = 3: 3, 10, …, 2998 (429 of them).
	for _, c := range []struct{ q, want string }{
		{"SELECT count(*), sum(id) FROM 's3://bucket/data/part=1/ev.parquet'", "3000\t4498500"},
		{"SELECT count(*), sum(id) FROM '" + web.Location("ev.parquet") + "'", "3000\t4498500"},
		{"SELECT count(*) FROM read_parquet('s3://bucket/data/*/ev.parquet') WHERE g = 3", "858"},
		{"SELECT count(*) FROM 's3://bucket/data/**/*.parquet'", "6000"},
		{"SELECT id, s FROM 's3://bucket/data/part=2/ev.parquet' WHERE id = 2345", "2345\tk045"},
		{"SELECT s, count(*) FROM '" + web.Location("ev.parquet") + "' WHERE id < 250 GROUP BY s ORDER BY s LIMIT 2", "k000\t3\nk001\t3"},
	} {
		got, err := queryAll(t, db, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, strings.Join(got, "\n"), c.want)
		}
	}
	// A wrong secret: a clear error naming the location, without the secret.
	wrong := strings.NewReplacer(storagetest.KeyID, "AKIDWRONG", storagetest.SecretKey, "wrong-secret-xyz").Replace(s3.CreateSecret())
	if err := db.Exec(context.Background(), wrong); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("CREATE SECRET of an existing name: %v", err)
	}
	if err := db.Exec(context.Background(), strings.Replace(wrong, "CREATE SECRET", "CREATE OR REPLACE SECRET", 1)); err != nil {
		t.Fatal(err)
	}
	_, err = queryAll(t, db, "SELECT count(*) FROM 's3://bucket/data/part=1/ev.parquet'")
	if err == nil || strings.Contains(err.Error(), "wrong-secret-xyz") || !strings.Contains(err.Error(), "access denied") ||
		!strings.Contains(err.Error(), "s3://bucket/data/part=1/ev.parquet") {
		t.Fatalf("wrong secret: want access denied naming the location, without the secret: %v", err)
	}
	if err := db.Exec(context.Background(), "DROP SECRET storagetest"); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(context.Background(), "DROP SECRET storagetest"); err == nil {
		t.Fatal("DROP SECRET of a dropped secret succeeded")
	}
	if err := db.Exec(context.Background(), "DROP SECRET IF EXISTS storagetest"); err != nil {
		t.Fatal(err)
	}
}

func TestCreateSecretErrors(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for q, want := range map[string]string{
		"CREATE SECRET (KEY_ID 'a')":                         "TYPE is required",
		"CREATE SECRET (TYPE ftp)":                           "unknown secret type",
		"CREATE SECRET (TYPE s3, URL_STYLE 'sideways')":      "expected 'vhost' or 'path'",
		"CREATE SECRET (TYPE s3, KEY_ID 'a', KEY_ID 'b')":    "given twice",
		"CREATE SECRET (TYPE s3, COLOUR 'blue')":             "unknown option",
		"CREATE PERSISTENT SECRET (TYPE s3)":                 "persistent secrets are not stored",
		"CREATE SECRET x (TYPE s3, SECRET 'hunter2' KEY_ID)": "syntax error",
		"SET s3_url_style = 'diagonal'":                      "expected 'vhost' or 'path'",
	} {
		err := db.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: got %v, want an error with %q", q, err, want)
		}
	}
	for _, q := range []string{
		"CREATE SECRET (TYPE s3, PROVIDER credential_chain, CHAIN 'env;config', REGION 'eu-west-1')",
		"CREATE OR REPLACE TEMPORARY SECRET s (TYPE s3, KEY_ID 'k', SECRET 's', SCOPE ['s3://a/', 's3://b/'], USE_SSL false)",
		"CREATE SECRET IF NOT EXISTS s (TYPE s3)",
		"CREATE SECRET h (TYPE http, BEARER_TOKEN 't', SCOPE 'https://example.com/')",
		"SET s3_region = 'eu-west-1'", "SET s3_endpoint = 'localhost:9000'", "SET s3_url_style = 'path'",
		"SET s3_use_ssl = false", "SET s3_access_key_id = 'k'", "SET s3_secret_access_key = 's'",
		"SET http_timeout = 10", "SET http_retries = 5", "SET http_retry_wait_ms = 50", "SET http_retry_backoff = 2.5",
	} {
		if err := db.Exec(context.Background(), q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	for _, q := range []string{"RESET s3_region", "DROP SECRET __default_s3", "DROP TEMPORARY SECRET s"} {
		if err := db.Exec(context.Background(), q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

func TestRemoteCopyTo(t *testing.T) {
	s3 := storagetest.NewS3(t, "bucket")
	web := storagetest.NewHTTP(t, t.TempDir())
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Exec(ctx, s3.CreateSecret()); err != nil {
		t.Fatal(err)
	}
	// 300000 rows of ~80 bytes: a CSV over the 16 MiB part size, sent as a
	// multipart upload. sum(i) over 0..299999 = 44999850000.
	// The objects are read back locally and in place.
	local := t.TempDir()
	fetch := func(key string) string {
		data, ok := s3.Get(key)
		if !ok {
			t.Fatalf("%s missing", key)
		}
		p := filepath.Join(local, filepath.Base(key))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ copy, read, want string }{
		{"COPY (SELECT i, i % 7 AS g FROM range(100000) t(i)) TO 's3://bucket/out/a.parquet'",
			"SELECT count(*), sum(i), sum(g) FROM 's3://bucket/out/a.parquet'", "100000\t4999950000\t299995"},
		{"COPY (SELECT i, repeat('x', 70) AS pad FROM range(300000) t(i)) TO 's3://bucket/out/big.csv'",
			"SELECT count(*), sum(i), min(length(pad)) FROM 's3://bucket/out/big.csv'", "300000\t44999850000\t70"},
		{"COPY (SELECT i FROM range(10) t(i)) TO 's3://bucket/out/j.json' (FORMAT json)",
			"SELECT sum(i) FROM read_json('s3://bucket/out/j.json')", "45"},
		{"COPY (SELECT i, 'v' || i AS s FROM range(5000) t(i)) TO 's3://bucket/out/t.b2z'",
			"SELECT count(*), max(s) FROM 's3://bucket/out/t.b2z'", "5000\tv999"},
	} {
		if err := db.Exec(ctx, c.copy); err != nil {
			t.Errorf("%s: %v", c.copy, err)
			continue
		}
		loc := c.read[strings.Index(c.read, "'")+1 : strings.LastIndex(c.read, "'")]
		reads := []string{strings.Replace(c.read, loc, fetch(strings.TrimPrefix(loc, "s3://bucket/")), 1)}
		reads = append(reads, c.read) // in place
		for _, q := range reads {
			got, err := queryAll(t, db, q)
			if err != nil || strings.Join(got, "\n") != c.want {
				t.Errorf("%s: got %q, %v; want %q", q, got, err, c.want)
			}
		}
	}
	if _, ok := s3.Get("out/big.csv"); !ok {
		t.Fatal("out/big.csv missing")
	}
	// A failing upload leaves the old object and no parts; the error names
	// the location and not the secret.
	s3.FailPuts.Store(1000)
	err = db.Exec(ctx, "COPY (SELECT i, repeat('y', 70) AS pad FROM range(300000) t(i)) TO 's3://bucket/out/big.csv'")
	s3.FailPuts.Store(0)
	if err == nil || !strings.Contains(err.Error(), "s3://bucket/out/big.csv") || strings.Contains(err.Error(), storagetest.SecretKey) {
		t.Fatalf("failed upload: %v", err)
	}
	got, err := queryAll(t, db, "SELECT count(*), min(pad) FROM '"+fetch("out/big.csv")+"'")
	if err != nil || len(got) != 1 || !strings.HasSuffix(got[0], "\t"+strings.Repeat("x", 70)) {
		t.Fatalf("after a failed upload the old object should remain: %q, %v", got, err)
	}
	for q, want := range map[string]string{
		"COPY (SELECT 1) TO '" + web.Location("x.parquet") + "'": "writing over HTTP(S) is not supported",
		"COPY (SELECT 1) TO 's3://bucket/out/t.b2d'":             "write a .b2z",
		"COPY (SELECT 1) TO 's3://bucket/out/'":                  "name an object",
	} {
		if err := db.Exec(ctx, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", q, err, want)
		}
	}
	plan, err := queryAll(t, db, "EXPLAIN COPY (SELECT 1) TO 's3://bucket/out/e.parquet'")
	if err != nil || strings.Contains(strings.Join(plan, "\n"), storagetest.SecretKey) {
		t.Errorf("EXPLAIN COPY TO s3: %q, %v", plan, err)
	}
	if _, ok := s3.Get("out/e.parquet"); ok {
		t.Error("EXPLAIN wrote the object")
	}
}

// TestRemoteBlosc2 reads CTables (.b2z, and .b2d as one object per member)
// and a b2nd array from S3 and HTTP: the answers equal the local ones and
// the formulas, and a FULL-index lookup fetches the index and the blocks
// it names, not the columns.
func TestRemoteBlosc2(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	local, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// k = (i*7919) % 1000000 is a permutation of 0..999999 (7919 is prime
	// to 1000000); r is random, so that the file does not shrink to nothing.
	for _, q := range []string{
		"CREATE TABLE tz WITH (FORMAT b2z) AS SELECT i AS id, (i*7919)%1000000 AS k, 'v' || (i%100) AS s, i*0.5 AS x, random() AS r FROM range(1000000) t(i)",
		"CREATE INDEX ON tz USING FULL (k)",
		"CREATE TABLE td WITH (FORMAT b2d) AS SELECT i AS id, (i*7919)%200000 AS k, i%7 AS g FROM range(50000) t(i)",
		"CREATE INDEX ON td USING FULL (k)",
	} {
		if err := local.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	local.Close()
	// arr.b2nd: v = 3*i for i in 0..99999, little-endian int64.
	arr := make([]byte, 8*100000)
	for i := range 100000 {
		binary.LittleEndian.PutUint64(arr[8*i:], uint64(3*i))
	}
	if err := b2.WriteArray(filepath.Join(dir, "arr.b2nd"), "<i8", []int64{100000}, arr, nil); err != nil {
		t.Fatal(err)
	}
	s3 := storagetest.NewS3(t, "bucket")
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			s3.PutFile(t, "b2/"+filepath.ToSlash(rel), p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	web := storagetest.NewHTTP(t, dir)
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(ctx, s3.CreateSecret()); err != nil {
		t.Fatal(err)
	}
	where := map[string]func(string) string{
		"local": func(f string) string { return filepath.Join(dir, f) },
		"s3":    func(f string) string { return "s3://bucket/b2/" + f },
		"http":  func(f string) string { return web.Location(f) },
	}
	// sum(id) of 0..999999 = 499999500000; sum(x) = that / 2.
	queries := []struct{ file, q, want string }{
		{"tz.b2z", "SELECT count(*), sum(id), sum(x) FROM '%s'", "1000000\t499999500000\t249999750000.0"},
		{"tz.b2z", "SELECT id, k, s FROM '%s' WHERE k = 123457", ""},
		{"tz.b2z", "SELECT count(*) FROM '%s' WHERE s = 'v42' AND id < 10000", "100"},
		{"tz.b2z", "SELECT id, r FROM '%s' ORDER BY r DESC LIMIT 3", ""},
		{"td.b2d", "SELECT g, count(*) FROM '%s' GROUP BY g ORDER BY g LIMIT 2", "0\t7143\n1\t7143"},
		{"td.b2d", "SELECT id FROM '%s' WHERE k = 7919", "1"},
		{"arr.b2nd", "SELECT count(*), sum(arr), max(arr) FROM '%s'", "100000\t14999850000\t299997"},
		{"tz.b2z", "SELECT count(*) FROM b2_metadata('%s')", ""},
	}
	for _, c := range queries {
		var first string
		for _, w := range []string{"local", "s3", "http"} {
			q := fmt.Sprintf(c.q, where[w](c.file))
			got, err := queryAll(t, db, q)
			if err != nil {
				t.Errorf("%s: %v", q, err)
				continue
			}
			g := strings.Join(got, "\n")
			if w == "local" {
				first = g
				if c.want != "" && g != c.want {
					t.Errorf("%s: got %q, want %q", q, g, c.want)
				}
			} else if g != first {
				t.Errorf("%s: got %q, local %q", q, g, first)
			}
		}
	}
	// A FULL-index lookup on the remote .b2z: the index and the blocks it
	// names, a small share of the file.
	for _, w := range []string{"s3", "http"} {
		loc := where[w]("tz.b2z")
		s3.Reset()
		web.Reset()
		plan, err := queryAll(t, db, "EXPLAIN ANALYZE SELECT id, s, r FROM '"+loc+"' WHERE k = 123457")
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, "full index lookup on k") {
			t.Errorf("%s: the lookup does not use the FULL index:\n%s", w, text)
		}
		bytes := s3.Bytes.Load() + web.Bytes.Load()
		size := fileSize(t, filepath.Join(dir, "tz.b2z"))
		t.Logf("%s FULL lookup: %d requests, %d of %d bytes\n%s", w, s3.Requests.Load()+web.Requests.Load(), bytes, size, text)
		// The zip directory, then per member opened (_meta, _valid_rows,
		// the index, the three columns) its header and tail, and the
		// index's and columns' blocks the lookup names: a few 64 KiB
		// reads, where column r alone stores 8 MB.
		if reqs := s3.Requests.Load() + web.Requests.Load(); float64(bytes) > 0.1*float64(size) || reqs > 16 {
			t.Errorf("%s: FULL lookup fetched %d of %d bytes in %d requests", w, bytes, size, reqs)
		}
	}
}

// TestRemoteTextAndHive reads CSV (plain and gzip) and NDJSON in place
// from S3 and HTTP, with options, and hive-partitioned globs of CSV,
// JSON and Parquet on S3.
func TestRemoteTextAndHive(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	local, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	// Part p holds i in [p*1000, p*1000+1000); g = i % 3.
	for p := range 3 {
		sub := filepath.Join(dir, fmt.Sprintf("data/part=%d", p))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		sel := fmt.Sprintf("SELECT i, i %% 3 AS g, 'name ' || i AS s FROM range(%d, %d) t(i)", p*1000, p*1000+1000)
		for _, f := range []string{"x.csv", "x.ndjson", "x.parquet"} {
			if err := local.Exec(ctx, "COPY ("+sel+") TO '"+filepath.Join(sub, f)+"'"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := local.Exec(ctx, "COPY (SELECT i, i*2 AS d FROM range(200000) t(i)) TO '"+filepath.Join(dir, "big.csv.gz")+"'"); err != nil {
		t.Fatal(err)
	}
	if err := local.Exec(ctx, "COPY (SELECT i, 'a|b' AS s FROM range(10) t(i)) TO '"+filepath.Join(dir, "pipe.txt")+"' (DELIMITER ';')"); err != nil {
		t.Fatal(err)
	}
	local.Close()
	s3 := storagetest.NewS3(t, "bucket")
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			s3.PutFile(t, filepath.ToSlash(rel), p)
		}
		return err
	})
	web := storagetest.NewHTTP(t, dir)
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(ctx, s3.CreateSecret()); err != nil {
		t.Fatal(err)
	}
	// sum over 0..2999 = 4498500; part 1 sums 1000..1999 = 1499500.
	// big: sum(i) over 0..199999 = 19999900000, sum(d) twice that.
	cases := []struct{ q, want string }{
		{"SELECT count(*), sum(i) FROM '%s/data/part=1/x.csv'", "1000\t1499500"},
		{"SELECT count(*), sum(i), max(s) FROM read_ndjson('%s/data/part=2/x.ndjson')", "1000\t2499500\tname 2999"},
		{"SELECT count(*), sum(i), sum(d) FROM '%s/big.csv.gz'", "200000\t19999900000\t39999800000"},
		{"SELECT sum(i), min(s) FROM read_csv('%s/pipe.txt', delim = ';', header = true)", "45\ta|b"},
		{"SELECT i, s FROM read_csv_auto('%s/data/part=0/x.csv') WHERE i = 777", "777\tname 777"},
	}
	hive := []struct{ q, want string }{
		{"SELECT part, count(*), sum(i) FROM read_csv('s3://bucket/data/*/x.csv') GROUP BY part ORDER BY part", "0\t1000\t499500\n1\t1000\t1499500\n2\t1000\t2499500"},
		{"SELECT part, sum(g) FROM read_json('s3://bucket/data/*/x.ndjson') WHERE part = 2 GROUP BY part", "2\t1001"},
		{"SELECT count(*), sum(i) FROM 's3://bucket/data/**/x.parquet' WHERE part >= 1", "2000\t3999000"},
		{"SELECT count(*), max(filename) FROM read_parquet('s3://bucket/data/part=*/x.parquet', filename = true)", "3000\ts3://bucket/data/part=2/x.parquet"},
	}
	for _, base := range []string{"s3://bucket", web.URL, dir} {
		for _, c := range cases {
			q := fmt.Sprintf(c.q, base)
			got, err := queryAll(t, db, q)
			if err != nil || strings.Join(got, "\n") != c.want {
				t.Errorf("%s: got %q, %v; want %q", q, got, err, c.want)
			}
		}
	}
	for _, c := range hive {
		got, err := queryAll(t, db, c.q)
		if err != nil || strings.Join(got, "\n") != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.q, got, err, c.want)
		}
	}
	// A remote CSV scan shows its requests and bytes.
	plan, err := queryAll(t, db, "EXPLAIN ANALYZE SELECT count(*) FROM 's3://bucket/big.csv.gz'")
	if err != nil || !strings.Contains(strings.Join(plan, "\n"), "remote: ") {
		t.Errorf("EXPLAIN ANALYZE of a remote CSV: %q, %v", plan, err)
	}
	// So does a many-file scan over S3, next to the files its partition
	// predicate left unopened; its requests are the server's, less the
	// glob's listing.
	for _, f := range []string{"x.parquet", "x.csv", "x.ndjson"} {
		s3.Reset()
		plan, err = queryAll(t, db, "EXPLAIN ANALYZE SELECT count(*) FROM 's3://bucket/data/*/"+f+"' WHERE part >= 1")
		text := strings.Join(plan, "\n")
		var reqs int64
		if i := strings.Index(text, "remote: "); i >= 0 {
			fmt.Sscanf(text[i:], "remote: %d", &reqs)
		}
		if err != nil || !strings.Contains(text, "files: 3 total, 1 skipped") || reqs <= 0 || reqs >= s3.Requests.Load() {
			t.Errorf("EXPLAIN ANALYZE of a hive glob of %s on S3 (%d requests at the server): %q, %v", f, s3.Requests.Load(), plan, err)
		}
	}
}

// TestRemoteAccessLimits: the embedder can turn remote access off or
// allow-list hosts (WithRoot alone reads no server), and a credential only
// ever goes to the host its secret is scoped to.
func TestRemoteAccessLimits(t *testing.T) {
	dir := t.TempDir()
	path := writeFixture(t, dir, "ev", 100, "id BIGINT seq")
	s3 := storagetest.NewS3(t, "bucket")
	s3.PutFile(t, "ev.parquet", path)
	web := storagetest.NewHTTP(t, dir)
	ctx := context.Background()
	loc := "s3://bucket/ev.parquet"
	run := func(db *b2sql.DB, q string) error {
		_, err := queryAll(t, db, q)
		return err
	}
	for _, c := range []struct {
		name string
		opts []b2sql.Option
		ok   bool
	}{
		{"default", nil, true},
		{"WithoutRemote", []b2sql.Option{b2sql.WithoutRemote()}, false},
		{"WithRoot", []b2sql.Option{b2sql.WithRoot(dir)}, false},
		{"WithRoot and hosts", []b2sql.Option{b2sql.WithRoot(dir), b2sql.WithRemoteHosts("127.0.0.1")}, true},
		{"other hosts", []b2sql.Option{b2sql.WithRemoteHosts("*.example.com", "data.example.org")}, false},
	} {
		db, err := b2sql.Open("", c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Exec(ctx, s3.CreateSecret()); err != nil {
			t.Fatal(err)
		}
		s3.Reset()
		web.Reset()
		for _, l := range []string{loc, web.Location("ev.parquet")} {
			err := run(db, "SELECT count(*) FROM '"+l+"'")
			switch {
			case c.ok && err != nil:
				t.Errorf("%s: %s: %v", c.name, l, err)
			case !c.ok && (err == nil || !strings.Contains(err.Error(), "remote access is disabled")):
				t.Errorf("%s: %s: want remote access refused, got %v", c.name, l, err)
			}
		}
		if !c.ok && s3.Requests.Load()+web.Requests.Load() != 0 {
			t.Errorf("%s: a refused location reached the server", c.name)
		}
		db.Close()
	}

	// Credentials stay in their scope. Another S3-compatible server sees
	// the session's own key, never the secret's; a bearer token is sent
	// to its scope only, and not along a redirect to another host.
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusForbidden)
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-in-scope" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirect.Close()
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		s3.CreateSecret(),
		"CREATE SECRET h (TYPE http, BEARER_TOKEN 'tok-in-scope', SCOPE '" + redirect.URL + "/')",
		"SET s3_endpoint = '" + other.URL + "'", "SET s3_url_style = 'path'",
		"SET s3_access_key_id = 'AKIDSESSION'", "SET s3_secret_access_key = 'session-secret'",
	} {
		if err := db.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"s3://elsewhere/ev.parquet", redirect.URL + "/ev.parquet", other.URL + "/ev.parquet"} {
		if err := run(db, "SELECT count(*) FROM '"+l+"'"); err == nil {
			t.Errorf("%s: read from a server that refuses everything", l)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 3 {
		t.Fatalf("the other server saw %d requests, want the S3 one, the redirected one and the direct one", len(seen))
	}
	for _, a := range seen {
		if strings.Contains(a, storagetest.KeyID) || strings.Contains(a, "tok-in-scope") {
			t.Errorf("a credential left its scope: %q", a)
		}
	}
	if !strings.Contains(seen[0], "Credential=AKIDSESSION/") {
		t.Errorf("the S3 request outside the secret's scope was not signed with the session's key: %q", seen[0])
	}
}
