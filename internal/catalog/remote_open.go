package catalog

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// remoteKind is Kind for a location, ignoring an HTTP URL's query string
// (a signed URL's parameters follow the file name).
func remoteKind(location string) string {
	if storage.KindOf(location) == storage.HTTP {
		if u, err := url.Parse(location); err == nil {
			return Kind(u.Path)
		}
	}
	return Kind(location)
}

// openRemoteFileOnce is openRemoteFile without following a reference.
func (c *Catalog) openRemoteFileOnce(location, format string) (planner.Table, error) {
	if format == "" || format == "b2" {
		format = remoteKind(location)
	}
	cfg := c.StorageConfig()
	ctx := context.Background()
	switch format {
	case "parquet":
		src, err := storage.Open(ctx, location, cfg.WithTail(parquet.TailBytes))
		if err != nil {
			return nil, err
		}
		return parquet.OpenSources(location, []storage.Source{src})
	case "ctable":
		if strings.EqualFold(path.Ext(strings.TrimRight(location, "/")), ".b2d") {
			return openRemoteB2d(ctx, location, cfg)
		}
		src, err := storage.Open(ctx, location, cfg)
		if err != nil {
			return nil, err
		}
		return ctable.OpenZipSource(src)
	case "array":
		src, err := storage.Open(ctx, location, cfg)
		if err != nil {
			return nil, err
		}
		return ctable.OpenArraySource(src)
	case "csv", "json":
		return c.OpenFiles(&sql.FileCall{Paths: []string{location}})
	}
	return nil, fmt.Errorf("%s: unknown table format (remote locations read .parquet, .csv, .json, .ndjson, .b2z, .b2d, .b2nd and .b2frame files)", location)
}

// openRemoteB2d opens a .b2d table stored as one object per member under
// a prefix; on S3 the prefix is listed once, over HTTP members are looked
// for by opening them.
func openRemoteB2d(ctx context.Context, location string, cfg *storage.Config) (planner.Table, error) {
	base := strings.TrimRight(location, "/")
	var members []string
	if storage.KindOf(base) == storage.S3 {
		locs, err := storage.Glob(ctx, base+"/**", cfg)
		if err != nil {
			return nil, err
		}
		if len(locs) == 0 {
			return nil, fmt.Errorf("%s: no objects under this prefix", location)
		}
		members = make([]string, len(locs))
		for i, l := range locs {
			members[i] = strings.TrimPrefix(l, base+"/")
		}
	}
	return ctable.OpenPrefix(base, members, cfg)
}
