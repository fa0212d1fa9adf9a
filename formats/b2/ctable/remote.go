package ctable

import (
	"fmt"
	"strings"
)

// Remote references (python-blosc2 ≥ 4.13).
//
// RemoteStore.save and RemoteCTable.save (python-blosc2 4.13–4.14) write a
// "portable remote reference": a .b2z (or .b2d) whose embed.b2e carries,
// under the vlmeta key b2remote_manifest, a msgpack map {version: 1,
// source: {kind, urlpath, dataset, …}, generation, nodes, attrs, listed,
// metadata, caches, mutable} describing a table or hierarchy that lives
// elsewhere (source kind b2z, hdf5, zarr, parquet or caterva2), plus
// whatever chunks had been fetched into its cache. It has no _meta.b2f of a
// local table, so without this check it read as a damaged table ("missing
// member"). This package reads no remote source itself: Open returns a
// *RemoteReference naming the source, which wraps ErrUnsupported, and a
// caller that can open the source (internal/catalog: a b2z table at the
// root of a container, a Parquet file) opens it instead. The cached chunks
// are not used: the source is read.

// RemoteReference is the error Open returns for a python-blosc2 remote
// reference archive. It wraps ErrUnsupported, and says what the archive
// refers to. Credentials never appear in it: python-blosc2 refuses to save
// a URL that carries them, and keeps only a fingerprint of its storage
// options.
type RemoteReference struct {
	Kind    string // source kind: "b2z", "parquet", "hdf5", "zarr", "caterva2", …
	URLPath string // the source's location ("" for caterva2, which names URLBase and Path)
	Dataset string // the node inside the source ("" or "/": its root)
	URLBase string // caterva2 only
	Path    string // caterva2 only
	Local   bool   // a local Parquet file (python-blosc2's "local" flag)
}

func (r *RemoteReference) Error() string {
	return fmt.Sprintf("%v: a python-blosc2 remote reference (written by RemoteCTable.save or RemoteStore.save): "+
		"its data is in %s; b2sql follows a reference to a b2z table at the root of a remote container or to a Parquet file "+
		"(a local one only from a local reference), not this one: open the source itself or a local copy "+
		"(RemoteCTable.copy(urlpath=...) writes one)",
		ErrUnsupported, r.describe())
}

func (r *RemoteReference) Unwrap() error { return ErrUnsupported }

// Root reports whether the reference names its source's root node.
func (r *RemoteReference) Root() bool { return strings.Trim(r.Dataset, "/") == "" }

// remoteManifestKey is embed.b2e's vlmeta key in a reference archive
// (python-blosc2 remote_store.py, _load_artifact_manifest).
const remoteManifestKey = "b2remote_manifest"

// checkRemoteReference returns a *RemoteReference (an ErrUnsupported
// error naming the source) when st is a python-blosc2 reference archive, a corruption error
// when its manifest cannot be read, and nil for anything else (a local
// table, or an archive whose embed.b2e the normal open reports on).
func checkRemoteReference(st store) error {
	if !st.has("embed.b2e") {
		return nil
	}
	f, err := st.frame("embed.b2e")
	if err != nil {
		return nil // not ours to judge: the table open reports what is wrong
	}
	raw, ok, err := f.VLMeta(remoteManifestKey)
	if err != nil || !ok {
		return nil
	}
	v, err := mpDecode(raw)
	if err != nil {
		return fmt.Errorf("embed.b2e: remote reference manifest: %w", err)
	}
	m, _ := v.(mpMap)
	src, _ := m.get("source")
	sm, _ := src.(mpMap)
	if sm == nil {
		return fmt.Errorf("embed.b2e: %w", corruptf("remote reference manifest has no source"))
	}
	str := func(k string) string {
		v, _ := sm.get(k)
		s, _ := v.(string)
		return s
	}
	local, _ := sm.get("local")
	return &RemoteReference{Kind: str("kind"), URLPath: str("urlpath"), Dataset: str("dataset"),
		URLBase: str("urlbase"), Path: str("path"), Local: local == true}
}

// describe renders a reference's source for an error: kind, location and
// the node inside it.
func (r *RemoteReference) describe() string {
	kind := r.Kind
	if kind == "" {
		kind = "unknown"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "a %s source", kind)
	switch kind {
	case "caterva2":
		fmt.Fprintf(&b, " at %q, path %q", r.URLBase, r.Path)
	default:
		fmt.Fprintf(&b, " at %q", r.URLPath)
		if r.Dataset != "" {
			fmt.Fprintf(&b, ", dataset %q", r.Dataset)
		}
	}
	if kind == "parquet" && r.Local {
		b.WriteString(" (a local Parquet file: query it directly)")
	}
	return b.String()
}
