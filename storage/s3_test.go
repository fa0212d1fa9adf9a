package storage

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

const (
	testKeyID  = "AKIDTESTKEY"
	testSecret = "s3cr3t-value-never-printed"
)

// fakeS3 is an in-process S3 server (gofakes3) on 127.0.0.1 that checks the
// access key of every request (gofakes3 itself does not) and counts them.
type fakeS3 struct {
	url      string
	requests atomic.Int64
	fail5xx  atomic.Int64
}

func newFakeS3(t *testing.T, objects map[string][]byte) *fakeS3 {
	t.Helper()
	// Never let the SDK look for instance credentials in a test.
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	backend := s3mem.New()
	faker := gofakes3.New(backend)
	f := &fakeS3{}
	inner := faker.Server()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		if !strings.Contains(r.Header.Get("Authorization"), "Credential="+testKeyID+"/") {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>`))
			return
		}
		if r.Method == http.MethodGet && r.Header.Get("Range") != "" && f.fail5xx.Load() > 0 {
			f.fail5xx.Add(-1)
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`<Error><Code>InternalError</Code><Message>try again</Message></Error>`))
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	f.url = ts.URL
	cfg := f.config(testKeyID, testSecret)
	client, err := cfg.newS3Client(context.Background(), cfg.s3Params(s3Location{scheme: "s3"}, "s3://bucket/"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("bucket")}); err != nil {
		t.Fatal(err)
	}
	for k, v := range objects {
		if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("bucket"), Key: aws.String(k), Body: bytes.NewReader(v)}); err != nil {
			t.Fatal(err)
		}
	}
	f.requests.Store(0)
	return f
}

// config is a session with a secret scoped to the fake server.
func (f *fakeS3) config(keyID, secret string) *Config {
	return &Config{
		HTTP: fastRetries(),
		Secrets: []Secret{{
			Name: "test", Type: "s3", KeyID: keyID, Secret: secret,
			Endpoint: f.url, URLStyle: "path", Region: "us-east-1",
		}},
	}
}

func TestS3ReadsRanges(t *testing.T) {
	data := pattern(5<<20 + 3)
	f := newFakeS3(t, map[string][]byte{"dir/x.parquet": data})
	src, err := Open(context.Background(), "s3://bucket/dir/x.parquet", f.config(testKeyID, testSecret))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Size() != int64(len(data)) {
		t.Fatalf("size %d, want %d", src.Size(), len(data))
	}
	if got := f.requests.Load(); got != 1 {
		t.Fatalf("open made %d requests, want 1 (a suffix GET)", got)
	}
	for _, c := range []struct{ off, n int64 }{{0, 10}, {1 << 20, 1 << 20}, {int64(len(data)) - 100, 100}} {
		buf := make([]byte, c.n)
		if _, err := src.ReadAt(buf, c.off); err != nil || string(buf) != string(data[c.off:c.off+c.n]) {
			t.Fatalf("ReadAt(%d, %d): %v", c.off, c.n, err)
		}
	}
	f.fail5xx.Store(1)
	buf := make([]byte, 10)
	if _, err := src.ReadAt(buf, 3<<20); err != nil || string(buf) != string(data[3<<20:3<<20+10]) {
		t.Fatalf("read with one 500 first: %v", err)
	}
	if src.Stats().Retries != 1 {
		t.Fatalf("stats %+v: want 1 retry", src.Stats())
	}
}

func TestS3SmallObjectAndMissingKey(t *testing.T) {
	f := newFakeS3(t, map[string][]byte{"small": []byte("hello")})
	cfg := f.config(testKeyID, testSecret)
	src, err := Open(context.Background(), "s3://bucket/small", cfg)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := src.ReadAt(buf, 0); err != nil || string(buf) != "hello" {
		t.Fatalf("small object: %q %v", buf, err)
	}
	_, err = Open(context.Background(), "s3://bucket/nope.parquet", cfg)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "s3://bucket/nope.parquet") {
		t.Fatalf("want not-exist naming the key, got %v", err)
	}
}

func TestS3WrongSecretIsClearAndRedacted(t *testing.T) {
	f := newFakeS3(t, map[string][]byte{"x": []byte("data")})
	_, err := Open(context.Background(), "s3://bucket/x", f.config("AKIDWRONG", "wrong-secret-value"))
	if !errors.Is(err, ErrAccessDenied) {
		t.Fatalf("want ErrAccessDenied, got %v", err)
	}
	if strings.Contains(err.Error(), "wrong-secret-value") {
		t.Fatalf("the secret is in the error: %v", err)
	}
	if !strings.Contains(err.Error(), "InvalidAccessKeyId") || !strings.Contains(err.Error(), "s3://bucket/x") {
		t.Fatalf("error should say what and where: %v", err)
	}
	s := Secret{Name: "s", Type: "s3", KeyID: "AKID", Secret: "hunter2"}
	if strings.Contains(s.String(), "hunter2") || strings.Contains(s.String(), "AKID") {
		t.Fatalf("Secret.String leaks: %s", s)
	}
}

func TestS3Glob(t *testing.T) {
	objs := map[string][]byte{
		"data/region=1/a.parquet": []byte("1"), "data/region=1/b.csv": []byte("2"),
		"data/region=2/c.parquet": []byte("3"), "data/top.parquet": []byte("4"),
		"other/d.parquet": []byte("5"),
	}
	f := newFakeS3(t, objs)
	cfg := f.config(testKeyID, testSecret)
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"s3://bucket/data/*/*.parquet", []string{"s3://bucket/data/region=1/a.parquet", "s3://bucket/data/region=2/c.parquet"}},
		{"s3://bucket/data/**/*.parquet", []string{"s3://bucket/data/region=1/a.parquet", "s3://bucket/data/region=2/c.parquet", "s3://bucket/data/top.parquet"}},
		{"s3://bucket/data/region={1,2}/*.{csv,parquet}", []string{"s3://bucket/data/region=1/a.parquet", "s3://bucket/data/region=1/b.csv", "s3://bucket/data/region=2/c.parquet"}},
		{"s3://bucket/*/d.parquet", []string{"s3://bucket/other/d.parquet"}},
	} {
		got, err := Glob(context.Background(), c.pattern, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("Glob(%s) = %v, want %v", c.pattern, got, c.want)
		}
	}
}

func TestSecretScopes(t *testing.T) {
	cfg := &Config{Secrets: []Secret{
		{Name: "all", Type: "s3", KeyID: "A"},
		{Name: "bucket", Type: "s3", KeyID: "B", Scope: []string{"s3://bucket"}},
		{Name: "deep", Type: "s3", KeyID: "C", Scope: []string{"s3://bucket/private/"}},
		{Name: "gcs", Type: "gcs", KeyID: "G"},
	}}
	for loc, want := range map[string]string{
		"s3://other/x": "all", "s3://bucket/x": "bucket", "s3://bucket/private/x": "deep", "gs://b/x": "gcs",
	} {
		l, _ := parseS3(loc)
		if s := cfg.SecretFor(loc, l.secretTypes()...); s == nil || s.Name != want {
			t.Errorf("SecretFor(%s) = %v, want %s", loc, s, want)
		}
	}
	// gs:// goes to Google's S3 interoperability endpoint, path style.
	p := cfg.s3Params(s3Location{scheme: "gs"}, "gs://b/x")
	if p.endpointURL() != "https://storage.googleapis.com" || p.urlStyle != "path" || p.keyID != "G" {
		t.Fatalf("gs params %+v", p)
	}
}
