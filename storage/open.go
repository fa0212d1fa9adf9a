package storage

import (
	"context"
	"strings"
)

// Open opens location for random access. cfg may be nil (defaults: no
// secrets, the SDK's default credential chain, remote access allowed).
func Open(ctx context.Context, location string, cfg *Config) (Source, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	switch KindOf(location) {
	case HTTP:
		if err := cfg.allowed(location); err != nil {
			return nil, err
		}
		return openHTTP(ctx, location, cfg)
	case S3:
		if err := cfg.allowed(location); err != nil {
			return nil, err
		}
		return openS3(ctx, location, cfg)
	}
	return openLocal(strings.TrimPrefix(location, "file://"))
}
