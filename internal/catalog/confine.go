package catalog

// Confinement (WithRoot): every path a query, ATTACH, COPY or CREATE
// TABLE names must resolve inside the root directory.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// CanonicalDir returns dir as an absolute path with symbolic links
// resolved, checking that it is a directory.
func CanonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return real, nil
}

// within reports whether path (absolute, clean) is root or below it.
func within(root, path string) bool {
	if path == root {
		return true
	}
	return strings.HasPrefix(path, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// Confine checks that path (a file, directory or glob) lies inside the
// DB's root and returns the path to open. Without a root it returns path
// unchanged. Relative paths are relative to the root. Every file a glob
// matches is checked with symbolic links resolved; a path that does not
// exist is checked lexically (opening it fails anyway).
//
// The check and the later open are separate system calls: a process that
// can create symbolic links inside the root between the two can still race
// it. Roots are meant for directories the queried users cannot write.
func (c *Catalog) Confine(path string) (string, error) {
	root := c.root
	if root == "" || storage.IsRemote(path) {
		// A remote location is no path under the root: the storage
		// configuration decides whether it may be read (remote.go).
		return path, nil
	}
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	outside := func() error {
		return &sql.Error{Kind: ErrOutsideRoot, Msg: fmt.Sprintf("path %q is outside the root directory", path)}
	}
	if !within(root, p) {
		return "", outside()
	}
	if !strings.ContainsAny(p, "*?[") {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			if !os.IsNotExist(err) {
				return "", err
			}
			// Not there (yet: COPY and CREATE TABLE create files): its
			// directory must not lead outside either.
			if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && !within(root, dir) {
				return "", outside()
			}
			return p, nil
		}
		if !within(root, real) {
			return "", outside()
		}
		return real, nil
	}
	// A glob: its directory part and every match must stay inside.
	matches, err := filepath.Glob(p)
	if err != nil {
		return "", err
	}
	for _, m := range matches {
		real, err := filepath.EvalSymlinks(m)
		if err != nil {
			return "", err
		}
		if !within(root, real) {
			return "", outside()
		}
	}
	return p, nil
}

// OpenConfined opens a table file or glob after checking it against the
// root (see Confine).
func (c *Catalog) OpenConfined(path string) (planner.Table, error) {
	if storage.IsRemote(path) {
		return c.openRemote("", path)
	}
	p, err := c.Confine(path)
	if err != nil {
		return nil, err
	}
	t, err := OpenFile(p)
	if err != nil {
		t, err = c.followReference(p, err)
	}
	// A table that reads something in a lesser way than it was written
	// (a Parquet column's unknown logical type read as its physical type)
	// says so through WithWarnings.
	if w, ok := t.(interface{ Warnings() []string }); ok && err == nil {
		for _, msg := range w.Warnings() {
			c.Warn(msg)
		}
	}
	return t, err
}
