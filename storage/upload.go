package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// ErrNotWritable: the location's protocol has no way to write an object
// (plain HTTP(S), as in DuckDB's httpfs).
var ErrNotWritable = errors.New("writing is not supported")

// Upload writes the local file at path as the object at location,
// atomically: readers see the previous object (or none) until the whole
// file has arrived. A file up to PartSize goes in one PutObject; a larger
// one as an S3 multipart upload whose parts are sent in parallel (at most
// MaxInFlight at once, and 128 MiB of them; each retried like a read) and
// which becomes visible only at CompleteMultipartUpload; on any failure, cancellation
// included, the upload is aborted so that no parts are left behind.
// Every request is counted in the returned Stats. Only S3-compatible
// locations can be written.
func Upload(ctx context.Context, location, path string, cfg *Config) (Stats, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	var n counters
	switch KindOf(location) {
	case S3:
	case HTTP:
		return Stats{}, fmt.Errorf("%s: %w over HTTP(S); write to an s3:// location", location, ErrNotWritable)
	default:
		return Stats{}, fmt.Errorf("%s: not a remote location", location)
	}
	if err := cfg.allowed(location); err != nil {
		return Stats{}, err
	}
	l, err := parseS3(location)
	if err != nil {
		return Stats{}, err
	}
	if l.key == "" || l.key[len(l.key)-1] == '/' {
		return Stats{}, fmt.Errorf("%s: no object key in the location", location)
	}
	client, err := cfg.newS3Client(ctx, cfg.s3Params(l, location))
	if err != nil {
		return Stats{}, locationError(location, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return Stats{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Stats{}, err
	}
	u := &uploader{client: client, loc: l, cfg: cfg, n: &n, f: f, size: st.Size()}
	if u.size <= cfg.partSize() {
		err = u.put(ctx)
	} else {
		err = u.multipart(ctx)
	}
	if err != nil {
		return n.stats(), locationError(location, err)
	}
	return n.stats(), nil
}

// partSize is the size of a multipart upload's parts (default 16 MiB; S3
// refuses parts under 5 MiB but the last, and more than 10,000 parts, so
// a file over 10,000 parts gets larger ones).
func (c *Config) partSize() int64 {
	return max(orDefault(c.PartSize, 16<<20), 5<<20)
}

// uploader sends one local file to one object.
type uploader struct {
	client *s3.Client
	loc    s3Location
	cfg    *Config
	n      *counters
	f      *os.File
	size   int64
}

func (u *uploader) put(ctx context.Context) error {
	data := make([]byte, u.size)
	if _, err := u.f.ReadAt(data, 0); err != nil && err != io.EOF {
		return err
	}
	return retry(ctx, &u.cfg.HTTP, u.n, func(ctx context.Context) error {
		_, err := u.client.PutObject(ctx, &s3.PutObjectInput{
			Bucket: aws.String(u.loc.bucket), Key: aws.String(u.loc.key),
			Body: bytes.NewReader(data), ContentLength: aws.Int64(u.size),
		})
		if err != nil {
			return s3Error(err)
		}
		u.n.bytes.Add(u.size)
		return nil
	})
}

func (u *uploader) multipart(ctx context.Context) (err error) {
	var id *string
	err = retry(ctx, &u.cfg.HTTP, u.n, func(ctx context.Context) error {
		out, err := u.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
			Bucket: aws.String(u.loc.bucket), Key: aws.String(u.loc.key),
		})
		if err != nil {
			return s3Error(err)
		}
		id = out.UploadId
		return nil
	})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			// A cancelled query still removes its parts: the abort gets
			// its own deadline, not the dead context.
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), u.cfg.HTTP.timeout())
			defer cancel()
			u.n.requests.Add(1)
			u.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{
				Bucket: aws.String(u.loc.bucket), Key: aws.String(u.loc.key), UploadId: id,
			})
		}
	}()
	part := max(u.cfg.partSize(), (u.size+9999)/10000)
	nparts := int((u.size + part - 1) / part)
	parts := make([]types.CompletedPart, nparts)
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Each part in flight is a buffer of its own: at most uploadBuffers
	// bytes of them, however many requests reads may have in flight.
	sem := make(chan struct{}, max(1, min(int64(u.cfg.maxInFlight()), uploadBuffers/part)))
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := range nparts {
		select {
		case sem <- struct{}{}:
		case <-pctx.Done():
		}
		if pctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			off := int64(i) * part
			data := make([]byte, min(part, u.size-off))
			_, err := u.f.ReadAt(data, off)
			if err == nil {
				err = retry(pctx, &u.cfg.HTTP, u.n, func(ctx context.Context) error {
					out, err := u.client.UploadPart(ctx, &s3.UploadPartInput{
						Bucket: aws.String(u.loc.bucket), Key: aws.String(u.loc.key), UploadId: id,
						PartNumber: aws.Int32(int32(i + 1)), Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data))),
					})
					if err != nil {
						return s3Error(err)
					}
					parts[i] = types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(int32(i + 1))}
					return nil
				})
			}
			if err != nil {
				once.Do(func() { first = fmt.Errorf("part %d of %d: %w", i+1, nparts, err); cancel() })
				return
			}
			u.n.bytes.Add(int64(len(data)))
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return retry(ctx, &u.cfg.HTTP, u.n, func(ctx context.Context) error {
		_, err := u.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
			Bucket: aws.String(u.loc.bucket), Key: aws.String(u.loc.key), UploadId: id,
			MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
		})
		if err != nil {
			return s3Error(err)
		}
		return nil
	})
}

// uploadBuffers bounds the bytes of the parts a multipart upload holds in
// memory at once (8 parts of the default 16 MiB).
const uploadBuffers = 128 << 20
