package catalog

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/storage"
)

// followReference opens what a python-blosc2 remote reference archive
// (RemoteCTable.save, RemoteStore.save) at from refers to, when b2sql
// reads that source: a b2z table at the root of a remote container, or a
// Parquet file (remote, or local when the archive itself is local: a
// relative path is taken from the archive's directory). The source is opened as a path named in a query is
// (the session's remote hosts and credentials, the catalog's confinement),
// and must not itself be a reference. err is the error opening from
// returned; anything but such a reference is returned unchanged, as is a
// reference to a source b2sql does not read (HDF5, Zarr, Caterva2, a node
// inside a container), whose error names it.
func (c *Catalog) followReference(from string, err error) (planner.Table, error) {
	var ref *ctable.RemoteReference
	if !errors.As(err, &ref) {
		return nil, err
	}
	loc := ref.URLPath
	var t planner.Table
	var oerr error
	switch {
	case ref.Kind == "b2z" && ref.Root() && storage.IsRemote(loc) && Kind(loc) == "ctable":
		t, oerr = c.openRemoteFileOnce(loc, "ctable")
	case ref.Kind == "parquet" && loc != "" && storage.IsRemote(loc):
		t, oerr = c.openRemoteFileOnce(loc, "parquet")
	case ref.Kind == "parquet" && loc != "" && !storage.IsRemote(from):
		// Only a local reference may name a local file: a remote one
		// (fetched from elsewhere) never makes b2sql read this machine.
		if !filepath.IsAbs(loc) {
			loc = filepath.Join(filepath.Dir(from), loc)
		}
		p, cerr := c.Confine(loc)
		if cerr != nil {
			return nil, fmt.Errorf("%s: remote reference to %s: %w", from, loc, cerr)
		}
		t, oerr = parquet.Open(p)
	default:
		return nil, err
	}
	if errors.As(oerr, new(*ctable.RemoteReference)) {
		return nil, fmt.Errorf("%s: remote reference to %s, which is a reference itself: %w", from, loc, ctable.ErrUnsupported)
	}
	if oerr != nil {
		return nil, fmt.Errorf("%s: remote reference to %s: %w", from, loc, oerr)
	}
	return t, nil
}
