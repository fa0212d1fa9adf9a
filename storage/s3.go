package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// s3Location is a parsed s3://bucket/key (or gs://, r2://).
type s3Location struct {
	scheme, bucket, key string
}

func parseS3(location string) (s3Location, error) {
	scheme, rest, _ := strings.Cut(location, "://")
	bucket, key, _ := strings.Cut(rest, "/")
	if bucket == "" {
		return s3Location{}, fmt.Errorf("%s: no bucket in the location", location)
	}
	return s3Location{scheme: strings.ToLower(scheme), bucket: bucket, key: key}, nil
}

// secretTypes lists the secret types that may serve a scheme.
func (l s3Location) secretTypes() []string {
	switch l.scheme {
	case "gs", "gcs":
		return []string{"gcs", "s3"}
	case "r2":
		return []string{"r2", "s3"}
	}
	return []string{"s3"}
}

// s3Params is the resolved client configuration for one location: the
// secret covering it, else the session's s3_* settings.
type s3Params struct {
	region, endpoint, urlStyle string
	useSSL                     bool
	keyID, secret, token       string
	chain                      bool // credentials from the SDK's default chain
}

func (c *Config) s3Params(l s3Location, location string) s3Params {
	p := s3Params{
		region: c.S3.Region, endpoint: c.S3.Endpoint, urlStyle: c.S3.URLStyle, useSSL: true,
		keyID: c.S3.AccessKeyID, secret: c.S3.SecretAccessKey, token: c.S3.SessionToken,
	}
	if c.S3.UseSSL != nil {
		p.useSSL = *c.S3.UseSSL
	}
	if s := c.SecretFor(location, l.secretTypes()...); s != nil {
		p.keyID, p.secret, p.token = s.KeyID, s.Secret, s.SessionToken
		if s.Region != "" {
			p.region = s.Region
		}
		if s.Endpoint != "" {
			p.endpoint = s.Endpoint
		}
		if s.URLStyle != "" {
			p.urlStyle = s.URLStyle
		}
		if s.UseSSL != nil {
			p.useSSL = *s.UseSSL
		}
		if s.AccountID != "" && s.Endpoint == "" {
			p.endpoint = s.AccountID + ".r2.cloudflarestorage.com"
		}
		p.chain = strings.EqualFold(s.Provider, "credential_chain")
	}
	switch l.scheme {
	case "gs", "gcs":
		if p.endpoint == "" {
			p.endpoint = "storage.googleapis.com"
		}
		if p.urlStyle == "" {
			p.urlStyle = "path"
		}
		if p.region == "" {
			p.region = "auto"
		}
	case "r2":
		if p.region == "" {
			p.region = "auto"
		}
	}
	if p.region == "" {
		p.region = "us-east-1"
	}
	if p.keyID == "" {
		p.chain = true
	}
	return p
}

// endpointURL is the endpoint as a URL ("" for AWS's own).
func (p s3Params) endpointURL() string {
	e := p.endpoint
	if e == "" || strings.Contains(e, "://") {
		return e
	}
	if p.useSSL {
		return "https://" + e
	}
	return "http://" + e
}

// s3Host is the host a location's requests go to, for AllowHosts.
func (c *Config) s3Host(location string) string {
	l, err := parseS3(location)
	if err != nil {
		return ""
	}
	p := c.s3Params(l, location)
	if e := p.endpointURL(); e != "" {
		if u, err := url.Parse(e); err == nil {
			return u.Hostname()
		}
	}
	return "s3." + p.region + ".amazonaws.com"
}

// newS3Client builds a client bound to one endpoint with the credentials
// scoped to it: a key never travels to another host.
func (c *Config) newS3Client(ctx context.Context, p s3Params) (*s3.Client, error) {
	var creds aws.CredentialsProvider
	if !p.chain {
		creds = credentials.NewStaticCredentialsProvider(p.keyID, p.secret, p.token)
	} else {
		ac, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(p.region))
		if err != nil {
			return nil, fmt.Errorf("loading AWS credentials: %w", err)
		}
		creds = ac.Credentials
	}
	opts := s3.Options{
		Region:      p.region,
		Credentials: creds,
		// Retries are ours (retry.go), counted and bounded like HTTP's.
		RetryMaxAttempts: 1,
		UsePathStyle:     strings.EqualFold(p.urlStyle, "path"),
	}
	if c.HTTP.Client != nil {
		opts.HTTPClient = c.HTTP.Client
	} else {
		opts.HTTPClient = sharedS3Client()
	}
	if e := p.endpointURL(); e != "" {
		opts.BaseEndpoint = aws.String(e)
	}
	return s3.New(opts), nil
}

// s3Object fetches ranges of one object, pinned to the ETag seen at open.
type s3Object struct {
	client *s3.Client
	loc    s3Location

	mu   sync.Mutex
	etag string
}

func openS3(ctx context.Context, location string, cfg *Config) (Source, error) {
	l, err := parseS3(location)
	if err != nil {
		return nil, err
	}
	if l.key == "" {
		return nil, fmt.Errorf("%s: no object key in the location", location)
	}
	client, err := cfg.newS3Client(ctx, cfg.s3Params(l, location))
	if err != nil {
		return nil, locationError(location, err)
	}
	return newRemote(ctx, location, &s3Object{client: client, loc: l}, cfg)
}

func (o *s3Object) validator() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.etag == "" {
		return ""
	}
	return "etag:" + o.etag
}

func (o *s3Object) openTail(ctx context.Context, n int64) ([]byte, int64, error) {
	out, err := o.client.GetObject(ctx, &s3.GetObjectInput{
		Bucket: aws.String(o.loc.bucket), Key: aws.String(o.loc.key),
		Range: aws.String(fmt.Sprintf("bytes=-%d", n)),
	})
	if err != nil {
		if apiCode(err) != "InvalidRange" {
			return nil, 0, s3Error(err)
		}
		// Some stores refuse a suffix longer than the object (S3 itself
		// sends the whole object): get the object, which is then shorter
		// than n, in one request; should it be longer after all, its
		// size is known and its tail is fetched as a range.
		whole, gerr := o.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(o.loc.bucket), Key: aws.String(o.loc.key)})
		if gerr != nil {
			return nil, 0, s3Error(gerr)
		}
		defer whole.Body.Close()
		o.setETag(aws.ToString(whole.ETag))
		size := aws.ToInt64(whole.ContentLength)
		if size > n {
			data, err := o.fetch(ctx, size-n, n)
			return data, size, err
		}
		data, err := readExactly(whole.Body, size)
		return data, size, err
	}
	defer out.Body.Close()
	o.setETag(aws.ToString(out.ETag))
	if cr := aws.ToString(out.ContentRange); cr != "" {
		start, _, total, err := parseContentRange(cr)
		if err != nil {
			return nil, 0, err
		}
		data, err := readExactly(out.Body, total-start)
		return data, total, err
	}
	// No Content-Range: the whole object came back.
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, 0, retryable{err}
	}
	return data, int64(len(data)), nil
}

func (o *s3Object) setETag(e string) {
	o.mu.Lock()
	o.etag = e
	o.mu.Unlock()
}

func (o *s3Object) fetch(ctx context.Context, off, length int64) ([]byte, error) {
	o.mu.Lock()
	etag := o.etag
	o.mu.Unlock()
	in := &s3.GetObjectInput{
		Bucket: aws.String(o.loc.bucket), Key: aws.String(o.loc.key),
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+length-1)),
	}
	if etag != "" {
		in.IfMatch = aws.String(etag)
	}
	out, err := o.client.GetObject(ctx, in)
	if err != nil {
		return nil, s3Error(err)
	}
	defer out.Body.Close()
	if e := aws.ToString(out.ETag); etag != "" && e != "" && e != etag {
		return nil, ErrChanged
	}
	return readExactly(out.Body, length)
}

func readExactly(r io.Reader, n int64) ([]byte, error) {
	if n < 0 {
		return nil, fmt.Errorf("bad content range")
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, retryable{fmt.Errorf("short body: %w", err)}
	}
	return buf, nil
}

func apiCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// s3Error maps an SDK error to this package's: not found, access denied,
// changed, retryable; the message keeps the store's code, never a key.
func s3Error(err error) error {
	code := apiCode(err)
	status := 0
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	switch {
	case code == "NoSuchKey" || code == "NotFound" || code == "NoSuchBucket" || status == 404:
		return fmt.Errorf("%s: %w", orStatus(code, status), fs.ErrNotExist)
	case code == "PreconditionFailed" || status == 412:
		return ErrChanged
	case code == "AccessDenied" || code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch" ||
		code == "ExpiredToken" || code == "InvalidToken" || status == 401 || status == 403:
		return fmt.Errorf("%s (check the secret or s3_* settings for this location): %w", orStatus(code, status), ErrAccessDenied)
	case status >= 500 || status == 429 || code == "SlowDown" || code == "RequestTimeout":
		return retryable{errors.New(orStatus(code, status))}
	case status == 0 && code == "":
		// Transport failure (connection refused or reset, timeout).
		return retryable{err}
	}
	return errors.New(orStatus(code, status))
}

func orStatus(code string, status int) string {
	switch {
	case code != "" && status != 0:
		return fmt.Sprintf("S3 %s (HTTP %d)", code, status)
	case code != "":
		return "S3 " + code
	}
	return fmt.Sprintf("S3 HTTP %d", status)
}
