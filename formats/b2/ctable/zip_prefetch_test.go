package ctable

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
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

// TestRemoteFullScanReadsAheadAtOnce: a scan that reads every block of a
// remote .b2z column asks for the column's chunk bytes before its first
// read, in requests of the storage layer's largest size, instead of
// finding the run after three small reads and growing windows from 512
// KiB (each a round trip over a distant server).
func TestRemoteFullScanReadsAheadAtOnce(t *testing.T) {
	// 2,000,000 pseudo-random DOUBLEs in [0, 1) (their exponent bytes
	// compress, the rest not): a member of about 11 MB.
	const n = 2_000_000
	dir := filepath.Join(t.TempDir(), "r.b2d")
	w, err := Create(dir, columnar.Schema{{Name: "x", Type: columnar.TFloat64}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TFloat64}, n)
	b.Len = n
	want := 0.0
	for i := range b.Len {
		b.Cols[0].Floats[i] = float64(uint64(i)*0x9E3779B97F4A7C15>>11) / (1 << 53)
		want += b.Cols[0].Floats[i]
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	srv := storagetest.NewS3(t, "b")
	srv.Put(t, "t.b2z", zipBytes(t, dir, nil))
	src, err := storage.Open(context.Background(), "s3://b/t.b2z", &storage.Config{Secrets: []storage.Secret{srv.Secret()}})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := OpenZipSource(src)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	var requests []string
	var mu sync.Mutex
	srv.SetTrace(func(r storagetest.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests = append(requests, fmt.Sprintf("%s (%d bytes)", r.Range, r.Bytes))
	})
	rd, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0}, Limit: -1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, rows := 0.0, 0
	for {
		bt, err := rd.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range bt.Live() {
			got += bt.Cols[0].Floats[bt.Row(i)]
			rows++
		}
	}
	rd.Close()
	if rows != n || math.Abs(got-want) > 1e-6*want {
		t.Fatalf("scan: %d rows, sum %v; want %d, %v", rows, got, n, want)
	}
	// The member's first window (its tail came with the zip's), then its
	// 11 MB of chunk bytes as one 8 MiB request and the rest: 3 requests.
	// Found by following the reads, they took 5: 512 KiB, 2 MiB, 8 MiB
	// and the rest.
	mu.Lock()
	defer mu.Unlock()
	if len(requests) > 3 {
		t.Fatalf("the scan made %d requests, want at most 3: %q", len(requests), requests)
	}
}
