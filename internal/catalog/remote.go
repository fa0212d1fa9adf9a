package catalog

// Remote tables: a path naming an object on a server (s3://, gs://, r2://,
// http(s)://) opens through package storage, with the database's storage
// configuration (secrets, s3_* settings, the embedder's limits), instead
// of the local file system; a glob lists the bucket.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// StorageConfig returns a snapshot of the storage configuration: later
// changes do not affect sources opened with it.
func (c *Catalog) StorageConfig() *storage.Config {
	if c.base != nil {
		return c.base.StorageConfig()
	}
	c.remote.mu.RLock()
	defer c.remote.mu.RUnlock()
	cfg := c.remote.cfg
	cfg.Secrets = slices.Clone(cfg.Secrets)
	cfg.AllowHosts = slices.Clone(cfg.AllowHosts)
	if c.root != "" && len(cfg.AllowHosts) == 0 {
		// A database confined to a directory reads nothing else, unless
		// the embedder names the hosts it may read.
		cfg.DisableRemote = true
	}
	return &cfg
}

// UpdateStorage changes the storage configuration under its lock (CREATE
// SECRET, SET s3_region, the embedder's limits); fn's error leaves it
// unchanged.
func (c *Catalog) UpdateStorage(fn func(*storage.Config) error) error {
	if c.base != nil {
		return c.base.UpdateStorage(fn)
	}
	c.remote.mu.Lock()
	defer c.remote.mu.Unlock()
	next := c.remote.cfg
	next.Secrets = slices.Clone(next.Secrets)
	if err := fn(&next); err != nil {
		return err
	}
	c.remote.cfg = next
	return nil
}

// openRemote opens a remote location by the table function fn ("" for a
// bare path): Parquet files (a glob of them as one table), blosc2 tables
// and arrays; CSV and JSON go the way of local files (OpenFiles), with
// sources from openSource.
func (c *Catalog) openRemote(fn, location string) (planner.Table, error) {
	kind := remoteKind(location)
	switch f := strings.ToLower(fn); f {
	case "read_parquet", "parquet_scan":
		kind = "parquet"
	case "", "read_b2":
	case "b2_metadata":
		t, err := c.openRemote("", location)
		if err != nil {
			return nil, err
		}
		return metadataTable(location, t)
	default:
		if !sql.FileFuncs[f] {
			return nil, fmt.Errorf("unknown table function %q", fn)
		}
		kind = funcFormat(f)
	}
	if kind == "csv" || kind == "json" {
		return c.OpenFiles(&sql.FileCall{Func: strings.ToLower(fn), Paths: []string{location}})
	}
	cfg := c.StorageConfig()
	ctx := context.Background()
	locations := []string{location}
	if storage.HasGlob(location) {
		var err error
		if locations, err = storage.Glob(ctx, location, cfg); err != nil {
			return nil, err
		}
		if len(locations) == 0 {
			return nil, fmt.Errorf("%s: no files match", location)
		}
	}
	if kind == "parquet" {
		srcs, err := openSources(ctx, locations, cfg.WithTail(parquet.TailBytes))
		if err != nil {
			return nil, err
		}
		return parquet.OpenSources(location, srcs)
	}
	if len(locations) > 1 {
		return nil, fmt.Errorf("%s: %d files match; name one, or read them with read_parquet", location, len(locations))
	}
	return c.openRemoteFile(locations[0], kind)
}

// openRemoteFile opens one remote file as format ("" or "b2": by its
// extension), or the source a python-blosc2 reference there names
// (followReference).
func (c *Catalog) openRemoteFile(location, format string) (planner.Table, error) {
	t, err := c.openRemoteFileOnce(location, format)
	if err != nil {
		return c.followReference(location, err)
	}
	return t, nil
}

// openSource opens a remote file for the CSV and JSON readers
// (csv.Options.Open) with the session's storage configuration.
func (c *Catalog) openSource(location string) (storage.Source, error) {
	return storage.Open(context.Background(), location, c.StorageConfig())
}

// globConfig is the storage configuration a glob is listed with: the
// session's for a remote one.
func (c *Catalog) globConfig(pattern string) *storage.Config {
	if storage.IsRemote(pattern) {
		return c.StorageConfig()
	}
	return nil
}

// openSources opens every location, a few at a time (each open is one
// round trip); on error it closes what it opened.
func openSources(ctx context.Context, locations []string, cfg *storage.Config) ([]storage.Source, error) {
	srcs := make([]storage.Source, len(locations))
	errs := make([]error, len(locations))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, loc := range locations {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			srcs[i], errs[i] = storage.Open(ctx, loc, cfg)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			for _, s := range srcs {
				if s != nil {
					s.Close()
				}
			}
			return nil, err
		}
	}
	return srcs, nil
}
