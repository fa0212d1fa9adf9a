package spill

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
	"github.com/b2sql/b2sql/internal/leakcheck"
)

var testTypes = []columnar.Type{
	{ID: columnar.Int64}, {ID: columnar.Varchar}, {ID: columnar.Float64},
	{ID: columnar.Bool}, {ID: columnar.Uint64}, {ID: columnar.Date}, {ID: columnar.Null},
}

// testBatch makes n rows whose values are a function of base+row: every
// 5th row NULL in each column, so the expected value of any row is known.
func testBatch(base, n int) *columnar.Batch {
	b := columnar.NewBatch(testTypes, n)
	b.Len = n
	for k := range n {
		r := base + k
		if r%5 == 0 {
			for c := range testTypes {
				b.Cols[c].SetNull(k, n)
			}
			continue
		}
		b.Cols[0].Ints[k] = int64(r) * -3
		b.Cols[1].Bytes[k] = []byte(strings.Repeat("x", r%7) + fmt.Sprint(r))
		b.Cols[2].Floats[k] = float64(r) / 4
		b.Cols[3].Bools[k] = r%3 == 0
		b.Cols[4].Uints[k] = uint64(r) << 40
		b.Cols[5].Ints[k] = int64(r % 1000)
	}
	b.Cols[6].Valid = make(columnar.Bitmap, (n+63)/64)
	return b
}

func wantRow(t *testing.T, b *columnar.Batch, k, r int) {
	t.Helper()
	if r%5 == 0 {
		for c := range testTypes {
			if !b.Cols[c].IsNull(k) {
				t.Fatalf("row %d col %d: want NULL", r, c)
			}
		}
		return
	}
	got := []string{fmt.Sprint(b.Cols[0].Ints[k]), string(b.Cols[1].Bytes[k]), fmt.Sprint(b.Cols[2].Floats[k]),
		fmt.Sprint(b.Cols[3].Bools[k]), fmt.Sprint(b.Cols[4].Uints[k]), fmt.Sprint(b.Cols[5].Ints[k]), fmt.Sprint(b.Cols[6].IsNull(k))}
	want := []string{fmt.Sprint(int64(r) * -3), strings.Repeat("x", r%7) + fmt.Sprint(r), fmt.Sprint(float64(r) / 4),
		fmt.Sprint(r%3 == 0), fmt.Sprint(uint64(r) << 40), fmt.Sprint(r % 1000), "true"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("row %d: got %v, want %v", r, got, want)
	}
	for c, ty := range testTypes {
		if b.Cols[c].Type != ty {
			t.Fatalf("col %d type %v, want %v", c, b.Cols[c].Type, ty)
		}
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if p != dir {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, size := range []int{1, 2, 7, columnar.MaxBatch} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			tmp := t.TempDir()
			d := DirFor(tmp)
			w, err := d.Create(testTypes, 0)
			if err != nil {
				t.Fatal(err)
			}
			const total = 3000
			for base := 0; base < total; base += size {
				b := testBatch(base, min(size, total-base))
				if err := w.Write(ctx, b); err != nil {
					t.Fatal(err)
				}
			}
			f, err := w.Finish()
			if err != nil {
				t.Fatal(err)
			}
			if f.Rows != total || f.Bytes <= 0 || d.Used() != f.Bytes {
				t.Fatalf("rows %d bytes %d used %d", f.Rows, f.Bytes, d.Used())
			}
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			row := 0
			for {
				b, err := r.Next(ctx)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for k := range b.Len {
					wantRow(t, b, k, row)
					row++
				}
			}
			r.Close()
			if row != total {
				t.Fatalf("read %d rows, want %d", row, total)
			}
			f.Remove()
			if e := entries(t, tmp); len(e) != 0 || d.Used() != 0 {
				t.Fatalf("left behind: %v (used %d)", e, d.Used())
			}
		})
	}
}

// A selection, a constant and a dictionary-coded column are written as
// their live, decoded rows.
func TestWriteSelConstDict(t *testing.T) {
	ctx := context.Background()
	types := []columnar.Type{{ID: columnar.Int64}, {ID: columnar.Varchar}, {ID: columnar.Varchar}}
	d := DirFor(t.TempDir())
	w, err := d.Create(types, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := columnar.NewBatch(types, 4)
	b.Len = 4
	copy(b.Cols[0].Ints, []int64{10, 11, 12, 13})
	b.Cols[1] = columnar.ConstVector(columnar.Value{Type: types[1], S: "k"})
	b.Cols[1].Type = types[1]
	dd := dict.New("a", "b", "c")
	b.Cols[2] = &columnar.Vector{Type: types[2], Dict: dd, Codes: []int32{2, 1, 0, 2}}
	b.Sel = []int{1, 3}
	if err := w.Write(ctx, b); err != nil {
		t.Fatal(err)
	}
	f, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Remove()
	r, _ := f.Open()
	defer r.Close()
	got, err := r.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := fmt.Sprintf("%d %v %s %s %s %s", got.Len, got.Cols[0].Ints, string(got.Cols[1].Bytes[0]), string(got.Cols[1].Bytes[1]), string(got.Cols[2].Bytes[0]), string(got.Cols[2].Bytes[1]))
	if s != "2 [11 13] k k b c" {
		t.Fatalf("got %s", s)
	}
}

// failAfter accepts limit bytes, then fails as a full disk does.
type failAfter struct {
	f     *os.File
	limit int
}

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		return 0, errors.New("no space left on device")
	}
	w.limit -= len(p)
	return w.f.Write(p)
}
func (w *failAfter) Close() error { return w.f.Close() }

func TestFullDisk(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	d := &Dir{temp: tmp, create: func(p string) (io.WriteCloser, error) {
		f, err := createFile(p)
		if err != nil {
			return nil, err
		}
		return &failAfter{f: f.(*os.File), limit: 4096}, nil
	}}
	w, err := d.Create(testTypes, 0)
	if err != nil {
		t.Fatal(err)
	}
	for base := 0; err == nil && base < 1<<20; base += 1024 {
		if err = w.Write(ctx, testBatch(base, 1024)); err == nil {
			_, err = w.Finish()
			w, _ = d.Create(testTypes, 0)
		}
	}
	w.Close()
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), tmp) || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("want an error naming %s and the cause, got %v", tmp, err)
	}
	if e := entries(t, tmp); len(e) != 0 {
		t.Fatalf("left behind: %v", e)
	}
}

func TestMaxTempDirectorySize(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	d := DirFor(tmp)
	w, err := d.Create(testTypes, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	for base := 0; err == nil && base < 1<<20; base += 1024 {
		err = w.Write(ctx, testBatch(base, 1024))
	}
	w.Close()
	if !errors.Is(err, ErrTempFull) || !strings.Contains(err.Error(), tmp) {
		t.Fatalf("want max_temp_directory_size naming %s, got %v", tmp, err)
	}
	if e := entries(t, tmp); len(e) != 0 || d.Used() != 0 {
		t.Fatalf("left behind: %v (used %d)", e, d.Used())
	}
}

func TestUnwritableDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain-file")
	os.WriteFile(file, []byte("x"), 0o600)
	dir := filepath.Join(file, "sub")
	_, err := DirFor(dir).Create(testTypes, 0)
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("want an error naming %s, got %v", dir, err)
	}
}

func TestLeftoversRemoved(t *testing.T) {
	tmp := t.TempDir()
	dead := 1 << 22 // above Linux's pid_max default: no such process
	for running(dead) {
		dead++
	}
	old := filepath.Join(tmp, fmt.Sprintf("%s%d-123", prefix, dead))
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "1.arrow"), []byte("x"), 0o600)
	mine := filepath.Join(tmp, fmt.Sprintf("%s%d-9", prefix, os.Getpid()))
	os.MkdirAll(mine, 0o755)
	other := filepath.Join(tmp, "unrelated")
	os.MkdirAll(other, 0o755)
	DirFor(tmp)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("a dead process's spill directory is still there")
	}
	for _, p := range []string{mine, other} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s removed: %v", p, err)
		}
	}
}

// Cancelling in the middle of a spill stops it with the context's error;
// closing the writer leaves no file and no goroutine.
func TestCancelMidSpill(t *testing.T) {
	before := runtime.NumGoroutine()
	tmp := t.TempDir()
	d := DirFor(tmp)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := d.Create(testTypes, 0)
	if err != nil {
		t.Fatal(err)
	}
	for base := 0; ; base += 1024 {
		if base == 8*1024 {
			cancel()
		}
		if err = w.Write(ctx, testBatch(base, 1024)); err != nil {
			break
		}
	}
	w.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if e := entries(t, tmp); len(e) != 0 {
		t.Fatalf("left behind: %v", e)
	}
	if n := leakcheck.Goroutines(before); n > before {
		t.Fatalf("%d goroutines, %d before", n, before)
	}
}
