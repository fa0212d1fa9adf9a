package engine

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
)

func TestStorageSettingsAreTheDatabases(t *testing.T) {
	e := New(catalog.New(catalog.Options{}))
	a, b := e.NewSession(Settings{}), e.NewSession(Settings{})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(a.set("s3_region", columnar.StringValue("eu-west-1"), false))
	must(a.set("s3_secret_access_key", columnar.StringValue("hunter2"), false))
	must(a.set("http_retries", columnar.IntValue(columnar.TInt64, 0), false))
	must(a.set("http_retry_backoff", columnar.FloatValue(columnar.TFloat64, 2.5), false))
	for name, want := range map[string]string{
		"s3_region": "eu-west-1", "s3_secret_access_key": "redacted", "s3_url_style": "",
		"http_retries": "0", "http_retry_backoff": "2.5", "http_timeout": "30", "s3_use_ssl": "true",
	} {
		v, err := b.Setting(name) // the other session sees it: database-wide, as DuckDB's
		if err != nil || v.String() != want {
			t.Errorf("%s = %s (%v), want %s", name, v.String(), err, want)
		}
	}
	if cfg := e.Cat.StorageConfig(); cfg.S3.SecretAccessKey != "hunter2" || cfg.HTTP.EffectiveRetries() != 0 {
		t.Fatalf("config %+v", cfg.S3)
	}
	must(b.set("s3_region", columnar.Value{}, true))
	if v, _ := a.Setting("s3_region"); v.String() != "" {
		t.Fatalf("after RESET: %s", v.String())
	}
	if err := a.set("s3_url_style", columnar.StringValue("diagonal"), false); err == nil {
		t.Fatal("s3_url_style = diagonal accepted")
	}
}
