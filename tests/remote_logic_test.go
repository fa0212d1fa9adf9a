package tests

// The .test files of the scan-heavy areas run with every table on a
// server: the harness writes each table as usual, puts it on an
// in-process S3 server (a .b2d as one object per member) or serves it
// over HTTP, and registers the remote location; the answers must be the
// files' own (every format and pruning cell, as locally).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// logicRemote, when set, places each table the harness writes on a
// server (set only by TestRemoteSQLLogic, which runs alone).
var logicRemote *remotePlacer

type remotePlacer struct {
	s3   *storagetest.S3
	web  *storagetest.HTTP // serves the root dir
	root string
	n    atomic.Int64
	mu   sync.Mutex
	seen map[*b2sql.DB]bool
}

// place copies file (or .b2d directory) under the placer's root and
// returns its remote location; the session gets the S3 secret once.
func (p *remotePlacer) place(t *testing.T, db *b2sql.DB, file string) string {
	rel := fmt.Sprintf("t%d/%s", p.n.Add(1), filepath.Base(file))
	dst := filepath.Join(p.root, filepath.FromSlash(rel))
	err := filepath.WalkDir(file, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		sub, _ := filepath.Rel(file, path)
		target := filepath.Join(dst, sub)
		if sub == "." {
			target = dst
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if p.s3 != nil {
			key, _ := filepath.Rel(p.root, target)
			if err := p.s3.PutBytes(filepath.ToSlash(key), data); err != nil {
				return err
			}
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.s3 == nil {
		return p.web.Location(rel)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen[db] {
		p.seen[db] = true
		if err := db.Exec(context.Background(), p.s3.CreateSecret()); err != nil {
			t.Fatal(err)
		}
	}
	return "s3://" + p.s3.Bucket + "/" + rel
}

func TestRemoteSQLLogic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs .test files over S3 and HTTP")
	}
	files := []string{
		"sql/parquet/late_materialization.test",
		"sql/parquet/page_index.test",
		"sql/filter/pruning.test",
		"sql/filter/pruning_types.test",
		"sql/filter/ranges.test",
		"sql/filter/where.test",
		"sql/topk/pruning.test",     // top-k scans fetch their next blocks ahead
		"sql/topk/extremes.test",    // (formats/b2/ctable/scan_ahead.go)
		"sql/rules/full_index.test", // ordered scans through a FULL index (ordered_ahead.go)
	}
	for _, kind := range []string{"s3", "http"} {
		root := t.TempDir()
		p := &remotePlacer{root: root, seen: map[*b2sql.DB]bool{}}
		if kind == "s3" {
			p.s3 = storagetest.NewS3(t, "logic")
		} else {
			p.web = storagetest.NewHTTP(t, root)
		}
		logicRemote = p
		for _, f := range files {
			t.Run(kind+"/"+filepath.Base(f), func(t *testing.T) { runFile(t, f) })
		}
		logicRemote = nil
		var reqs int64
		if p.s3 != nil {
			reqs = p.s3.Requests.Load()
		} else {
			reqs = p.web.Requests.Load()
		}
		if reqs == 0 || p.n.Load() == 0 {
			t.Errorf("%s: %d tables placed, %d requests: the files did not run remotely", kind, p.n.Load(), reqs)
		}
		t.Logf("%s: %d tables placed, %d requests", kind, p.n.Load(), reqs)
	}
}
