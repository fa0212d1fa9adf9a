package dml

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// COPY … TO 's3://bucket/key': the result is written to a local temporary
// file by the format's own writer, then uploaded (storage.Upload: one
// PutObject, or a multipart upload that is visible only once complete and
// aborted on failure), so that the object is replaced whole or not at all,
// as a local COPY TO replaces its file. Plain HTTP(S) servers cannot be
// written, as in DuckDB.

// copyToRemote runs COPY … TO a remote location with spec's writer.
func copyToRemote(ctx context.Context, env *Env, c *sql.Copy, spec *copySpec, args []columnar.Value) (int64, error) {
	cat := env.Cat
	refuse := func(kind error, msg string) error {
		return &sql.Error{Pos: c.PathPos, Kind: kind, Msg: msg}
	}
	if storage.KindOf(c.Path) == storage.HTTP {
		return 0, refuse(sql.ErrUnsupported, fmt.Sprintf("COPY TO %q: writing over HTTP(S) is not supported (as in DuckDB); write to an s3:// location", c.Path))
	}
	name := path.Base(c.Path)
	if spec.format == "ctable" && strings.EqualFold(path.Ext(strings.TrimRight(c.Path, "/")), ".b2d") {
		// A .b2d is a directory of files: as objects, readers could see
		// some new and some old ones.
		return 0, refuse(sql.ErrUnsupported, fmt.Sprintf("COPY TO %q: a .b2d directory cannot be written as one object; write a .b2z", c.Path))
	}
	if strings.HasSuffix(c.Path, "/") || name == "" || name == "." {
		return 0, refuse(sql.ErrUnsupported, fmt.Sprintf("COPY TO %q: name an object, not a prefix", c.Path))
	}
	cfg := cat.StorageConfig()
	defer cat.Lock("file:" + c.Path)()
	dir, err := os.MkdirTemp(cat.TempDir(), "b2sql-upload-")
	if err != nil {
		return 0, fmt.Errorf("COPY TO %s: %w", c.Path, err)
	}
	defer os.RemoveAll(dir)
	local := filepath.Join(dir, name)
	n, err := writeQuery(ctx, env, c.Query, args, func(schema columnar.Schema) (tableWriter, func(), error) {
		return spec.open(local, schema)
	})
	if err != nil {
		return 0, err
	}
	if _, err := storage.Upload(ctx, c.Path, local, cfg); err != nil {
		if errors.Is(err, storage.ErrRemoteDisabled) {
			return 0, refuse(sql.ErrUnsupported, err.Error())
		}
		return 0, fmt.Errorf("COPY TO: %w", err)
	}
	return n, nil
}
