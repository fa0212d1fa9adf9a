// Package storage is the random-access I/O layer under every format reader:
// one Source interface (a size and ranged reads) with implementations for
// local files, HTTP(S) servers and S3-compatible object stores, and the
// machinery that makes remote reads cheap.
//
// # Locations
//
// Open takes a location as a user writes it in SQL:
//
//	data/x.parquet, /abs/x.parquet, file:///abs/x.parquet   local file (pread)
//	http://host/x.parquet, https://host/x.parquet           HTTP range requests
//	s3://bucket/key                                         S3 GetObject with Range
//	gs://bucket/key, gcs://bucket/key                       S3 interoperability at storage.googleapis.com
//	r2://bucket/key                                         Cloudflare R2 (S3 API; endpoint from the secret's account)
//
// # Remote reads
//
// A remote Source is opened with one suffix request (Range: bytes=-N): the
// reply carries the object's size, its ETag or Last-Modified, and the last N
// bytes, where Parquet keeps its footer and a zip its central directory; they
// are cached, so a format reader's first tail reads cost no more requests.
// Every later ranged read checks that the object is the one first seen
// (If-Match on the ETag, and the reply's validators compared): an object
// replaced while a query reads it is ErrChanged, never a mix of two files.
// Failed requests (5xx, 429, timeouts, dropped connections) are retried with
// exponential backoff; 4xx answers are not.
//
// Prefetch(ranges) is how a reader says which bytes a plan needs: nearby
// ranges are coalesced (a gap threshold, as DuckDB's httpfs and arrow-rs
// do), large ones split, and the pieces fetched in parallel with a bounded
// number of requests in flight, into an in-memory range cache bounded in
// bytes that later ReadAt calls are served from.
//
// With Config.DiskCacheDir (SET remote_cache_directory) fetched ranges
// are also kept on local disk, keyed by the object's location, ETag (or
// Last-Modified) and size, bounded in bytes (remote_cache_size), and
// shared by queries and processes (diskcache.go): a later open still
// makes its one validating request, then reads cached ranges from disk.
//
// Every remote source of the process shares one connection pool per
// protocol (transport.go), sized for the requests in flight, so opening an
// object costs no new connection.
//
// Sequential readers (NewSequentialReader, OpenSourceStream: compressed
// CSV and JSON) fetch windows of 8 MiB, two ahead of the reader. Upload
// writes a local file as an object atomically: one PutObject, or a
// multipart upload whose parts go in parallel and which is aborted on any
// failure, so readers see the old object or the whole new one.
//
// # Credentials
//
// S3 credentials come from a Secret whose scope is the longest prefix of the
// location (DuckDB's CREATE SECRET rules), else from Config's s3_* settings,
// else from the AWS SDK's default chain (environment, shared config and
// credentials files, profiles, web identity, instance roles). A credential
// is only ever sent to the endpoint of the secret that holds it (an HTTP
// bearer token is dropped on a redirect out of its scope); Secret's
// String and every error redact it. Config.DisableRemote and AllowHosts
// (the embedder's WithoutRemote, WithRemoteHosts, WithRoot) refuse a
// location before any request is made.
//
// # Counting
//
// Every Source counts its requests and bytes fetched (Stats), for EXPLAIN
// ANALYZE and the progress bar.
package storage
