package storage

import (
	"net/http"
	"sync"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// Connections are shared by every remote source of the process: a query
// opens many objects (a glob, each table of a join, each run of a
// statement) and their requests go to a few hosts, so each open must not
// start from new TCP and TLS handshakes. The pools keep enough idle
// connections per host for the requests a query has in flight at once
// (MaxInFlight per source, several sources): net/http's default keeps 2,
// the SDK's 10, and a pool smaller than the requests in flight closes
// and reopens connections all through a scan.
const idleConnsPerHost = 256

var (
	s3ClientOnce sync.Once
	s3Client     *awshttp.BuildableClient

	httpClientOnce sync.Once
	httpClient     *http.Client
)

// sharedS3Client is the HTTP client of every S3 client without a
// Config.HTTP.Client: the SDK's own defaults (timeouts, HTTP/2, proxy
// from the environment) with a larger idle pool.
func sharedS3Client() *awshttp.BuildableClient {
	s3ClientOnce.Do(func() {
		s3Client = awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
			tr.MaxIdleConns = 4 * idleConnsPerHost
			tr.MaxIdleConnsPerHost = idleConnsPerHost
		})
	})
	return s3Client
}

// sharedHTTPClient is the client of every http(s) source without a
// Config.HTTP.Client: net/http's default transport with a larger idle
// pool.
func sharedHTTPClient() *http.Client {
	httpClientOnce.Do(func() {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns = 4 * idleConnsPerHost
		tr.MaxIdleConnsPerHost = idleConnsPerHost
		httpClient = &http.Client{Transport: tr}
	})
	return httpClient
}
