package storage_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/b2sql/b2sql/storage"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// pendingUploads lists the bucket's unfinished multipart uploads.
func pendingUploads(t *testing.T, srv *storagetest.S3) int {
	t.Helper()
	client := s3.New(s3.Options{
		Region: "us-east-1", UsePathStyle: true, BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider(storagetest.KeyID, storagetest.SecretKey, ""),
	})
	out, err := client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: aws.String(srv.Bucket)})
	if err != nil {
		t.Fatal(err)
	}
	return len(out.Uploads)
}

func TestUpload(t *testing.T) {
	srv := storagetest.NewS3(t, "bucket")
	dir := t.TempDir()
	// 12 MiB + 3 bytes of a pattern: three parts of 5 MiB (the last short).
	data := make([]byte, 12<<20+3)
	for i := range data {
		data[i] = byte(i*7 + i>>13)
	}
	big := filepath.Join(dir, "big.bin")
	small := filepath.Join(dir, "small.bin")
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, data[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := srv.Config()
	cfg.PartSize = 5 << 20
	ctx := context.Background()

	t.Run("multipart", func(t *testing.T) {
		srv.Reset()
		st, err := storage.Upload(ctx, "s3://bucket/out/big.bin", big, cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := srv.Get("out/big.bin")
		if !ok || !bytes.Equal(got, data) {
			t.Fatalf("uploaded object differs (%d bytes, want %d)", len(got), len(data))
		}
		// create + 3 parts + complete
		if st.Requests != 5 || st.Bytes != int64(len(data)) || srv.Requests.Load() != 5 {
			t.Errorf("stats %+v, server %d requests; want 5 requests, %d bytes", st, srv.Requests.Load(), len(data))
		}
	})
	t.Run("single put", func(t *testing.T) {
		if _, err := storage.Upload(ctx, "s3://bucket/out/small.bin", small, cfg); err != nil {
			t.Fatal(err)
		}
		if got, _ := srv.Get("out/small.bin"); !bytes.Equal(got, data[:1000]) {
			t.Fatal("small object differs")
		}
	})
	t.Run("failed part aborts, old object intact", func(t *testing.T) {
		srv.Put(t, "out/keep.bin", []byte("old contents"))
		srv.FailPuts.Store(100)
		defer srv.FailPuts.Store(0)
		_, err := storage.Upload(ctx, "s3://bucket/out/keep.bin", big, cfg)
		if err == nil || !strings.Contains(err.Error(), "s3://bucket/out/keep.bin") || !strings.Contains(err.Error(), "part ") {
			t.Fatalf("want an error naming the location and the part, got %v", err)
		}
		if strings.Contains(err.Error(), storagetest.SecretKey) {
			t.Fatalf("error shows the secret: %v", err)
		}
		if got, _ := srv.Get("out/keep.bin"); string(got) != "old contents" {
			t.Fatalf("old object replaced by %d bytes", len(got))
		}
		if n := pendingUploads(t, srv); n != 0 {
			t.Fatalf("%d multipart uploads left behind", n)
		}
	})
	t.Run("cancelled aborts", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := storage.Upload(cctx, "s3://bucket/out/cancel.bin", big, cfg); err == nil {
			t.Fatal("a cancelled upload succeeded")
		}
		if _, ok := srv.Get("out/cancel.bin"); ok {
			t.Fatal("a cancelled upload is visible")
		}
		if n := pendingUploads(t, srv); n != 0 {
			t.Fatalf("%d multipart uploads left behind", n)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		if _, err := storage.Upload(ctx, "https://example.com/x.parquet", small, cfg); !errors.Is(err, storage.ErrNotWritable) {
			t.Errorf("https: %v", err)
		}
		off := *cfg
		off.DisableRemote = true
		if _, err := storage.Upload(ctx, "s3://bucket/out/x.bin", small, &off); !errors.Is(err, storage.ErrRemoteDisabled) {
			t.Errorf("remote disabled: %v", err)
		}
	})
}
