package tests

// Remote data end to end: Parquet files on an in-process S3 server and an
// HTTP server (storage/storagetest), read through CREATE SECRET, globs and
// read_parquet; the answers are computed from the generating formulas.

import (
	"context"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
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
