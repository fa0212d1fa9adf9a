package storage_test

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql/storage"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// TestS3SmallObjectOpen: a store that refuses a suffix range longer than
// the object (gofakes3 does; S3 sends the whole object) costs one more
// request at open, a plain GET of the object, not a HEAD and a GET.
func TestS3SmallObjectOpen(t *testing.T) {
	srv := storagetest.NewS3(t, "b")
	data := make([]byte, 100<<10)
	for i := range data {
		data[i] = byte(i * 7)
	}
	srv.Put(t, "small.bin", data)
	cfg := &storage.Config{Secrets: []storage.Secret{srv.Secret()}}
	src, err := storage.Open(context.Background(), "s3://b/small.bin", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if got := srv.Requests.Load(); got != 2 {
		t.Fatalf("open made %d requests, want 2 (the refused suffix, then a GET)", got)
	}
	buf := make([]byte, len(data))
	if _, err := src.ReadAt(buf, 0); err != nil || string(buf) != string(data) || src.Size() != int64(len(data)) {
		t.Fatalf("read back: %v, size %d", err, src.Size())
	}
	if got := srv.Requests.Load(); got != 2 {
		t.Fatalf("reading the object made %d more requests, want 0", got-2)
	}
}
