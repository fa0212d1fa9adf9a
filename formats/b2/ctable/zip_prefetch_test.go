package ctable

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/storage"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// TestLocalHeaders: the offsets read from the central directory are where
// each member's local header is (its signature and name are there), for a
// plain zip and for one past 65,535 entries (whose end record is zip64's).
func TestLocalHeaders(t *testing.T) {
	for _, n := range []int{3, 70_000} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i := range n {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("m/%d", i), Method: zip.Store, Extra: make([]byte, 4*(i%3))})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(bytes.Repeat([]byte{byte(i)}, i%50))
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		hdrs := localHeaders(bytes.NewReader(data), int64(len(data)))
		if len(hdrs) != n {
			t.Fatalf("%d members: %d offsets", n, len(hdrs))
		}
		for name, off := range hdrs {
			if binary.LittleEndian.Uint32(data[off:]) != 0x04034b50 || string(data[off+30:off+30+int64(len(name))]) != name {
				t.Fatalf("%d members: %q at %d is not its local header", n, name, off)
			}
		}
	}
	if localHeaders(bytes.NewReader([]byte("not a zip at all")), 16) != nil {
		t.Fatal("offsets from a file that is no zip")
	}
}

// TestRemoteMemberOpenFetchedAhead: opening a member of a remote .b2z
// fetches its head and tail windows in one round (prefetchMember); the
// open then reads everything from what that fetched.
func TestRemoteMemberOpenFetchedAhead(t *testing.T) {
	// 100,000 pseudo-random DOUBLEs: a column member of about 800 KB, far
	// larger than the windows, so that its head and tail are apart.
	dir := filepath.Join(t.TempDir(), "r.b2d")
	w, err := Create(dir, columnar.Schema{{Name: "x", Type: columnar.TFloat64}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TFloat64}, 100_000)
	b.Len = 100_000
	for i := range b.Len {
		b.Cols[0].Floats[i] = float64(uint64(i)*0x9E3779B97F4A7C15>>11) / (1 << 53)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := zipBytes(t, dir, nil)
	srv := storagetest.NewS3(t, "b")
	srv.Put(t, "t.b2z", data)
	src, err := storage.Open(context.Background(), "s3://b/t.b2z", &storage.Config{Secrets: []storage.Secret{srv.Secret()}, TailPrefetch: 1})
	if err != nil {
		t.Fatal(err)
	}
	z := &zipStore{file: src, size: src.Size(), release: src.Close}
	defer z.close()
	if z.members, err = readZipDir(src, src.Size(), true); err != nil {
		t.Fatal(err)
	}
	z.headers = localHeaders(src, src.Size())
	opened := 0
	for name, m := range z.members {
		if !m.stored || m.size < 4*memberWindow {
			continue
		}
		z.prefetchMember(name, m)
		before := srv.Requests.Load()
		f, err := z.frame(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.Close()
		if got := srv.Requests.Load() - before; got != 0 {
			t.Fatalf("%s: the open made %d requests after its windows were fetched", name, got)
		}
		opened++
	}
	if opened == 0 {
		t.Fatal("no member larger than the windows")
	}
}
