package storage_test

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql/storage"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// TestS3SmallObjectOpen: a store that refuses a suffix range longer than
// the object (gofakes3 does) costs one more request at open, a plain GET
// of the object, not a HEAD and a GET; where the store sends the whole
// object for it (as S3 does), opening is one request. Reading the object
// afterwards makes none.
func TestS3SmallObjectOpen(t *testing.T) {
	for _, whole := range []bool{false, true} {
		srv := storagetest.NewS3(t, "b")
		srv.WholeOnLongSuffix.Store(whole)
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
		want := int64(2) // the refused suffix, then a GET
		if whole {
			want = 1
		}
		if got := srv.Requests.Load(); got != want {
			t.Fatalf("whole %v: open made %d requests, want %d", whole, got, want)
		}
		buf := make([]byte, len(data))
		if _, err := src.ReadAt(buf, 0); err != nil || string(buf) != string(data) || src.Size() != int64(len(data)) {
			t.Fatalf("whole %v: read back: %v, size %d", whole, err, src.Size())
		}
		if got := srv.Requests.Load(); got != want {
			t.Fatalf("whole %v: reading the object made %d more requests, want 0", whole, got-want)
		}
		src.Close()
	}
}
