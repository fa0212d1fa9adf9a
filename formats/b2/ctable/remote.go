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
// member"). Reading the remote source is not implemented here: the table
// is refused as unsupported, naming the source, so the user can open that
// (or a local copy) instead.

// remoteManifestKey is embed.b2e's vlmeta key in a reference archive
// (python-blosc2 remote_store.py, _load_artifact_manifest).
const remoteManifestKey = "b2remote_manifest"

// checkRemoteReference returns an ErrUnsupported error naming the remote
// source when st is a python-blosc2 reference archive, a corruption error
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
	return unsupportedf("a python-blosc2 remote reference (written by RemoteCTable.save or RemoteStore.save): "+
		"its data is in %s; reading remote sources is not supported, open the source itself or a local copy "+
		"(RemoteCTable.copy(urlpath=...) writes one)", describeSource(sm))
}

// describeSource renders a reference's source descriptor for an error:
// kind, location and the node inside it. Credentials are never stored in
// a descriptor (python-blosc2 strips them), so printing it is safe.
func describeSource(sm mpMap) string {
	str := func(k string) string {
		v, _ := sm.get(k)
		s, _ := v.(string)
		return s
	}
	kind := str("kind")
	if kind == "" {
		kind = "unknown"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "a %s source", kind)
	switch kind {
	case "caterva2":
		fmt.Fprintf(&b, " at %q, path %q", str("urlbase"), str("path"))
	default:
		fmt.Fprintf(&b, " at %q", str("urlpath"))
		if d := str("dataset"); d != "" {
			fmt.Fprintf(&b, ", dataset %q", d)
		}
	}
	if kind == "parquet" {
		if loc, _ := sm.get("local"); loc == true {
			b.WriteString(" (a local Parquet file: query it directly)")
		}
	}
	return b.String()
}
