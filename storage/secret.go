package storage

import (
	"fmt"
	"strings"
)

// Secret is one CREATE SECRET: credentials and settings for the locations
// its scope covers. Type is "s3", "gcs" or "r2" (S3 API) or "http".
type Secret struct {
	Name  string
	Type  string
	Scope []string // location prefixes; empty: every location of its Type

	KeyID        string // KEY_ID
	Secret       string // SECRET
	SessionToken string // SESSION_TOKEN
	Region       string // REGION
	Endpoint     string // ENDPOINT
	URLStyle     string // URL_STYLE: "vhost" or "path"
	UseSSL       *bool  // USE_SSL
	AccountID    string // ACCOUNT_ID (r2: the endpoint is <account>.r2.cloudflarestorage.com)
	// Provider "credential_chain" takes the credentials from the SDK's
	// default chain even though the secret exists (for its scope/region).
	Provider string

	BearerToken string // http: BEARER_TOKEN, sent as Authorization
}

// String shows the secret with its credentials redacted, as DuckDB's
// duckdb_secrets() does: safe for EXPLAIN, errors and logs.
func (s Secret) String() string {
	return fmt.Sprintf("secret %s (type %s, scope %s, key_id %s, secret %s)",
		s.Name, s.Type, strings.Join(s.defaultScope(), ","), redact(s.KeyID), redact(s.Secret))
}

// redact keeps no part of a credential but whether it is set.
func redact(v string) string {
	if v == "" {
		return "(none)"
	}
	return "redacted"
}

// prefixes of each secret type, the scope of a secret that names none.
var typePrefixes = map[string][]string{
	"s3":   {"s3://", "s3a://", "s3n://"},
	"gcs":  {"gs://", "gcs://"},
	"r2":   {"r2://"},
	"http": {"http://", "https://"},
}

func (s Secret) defaultScope() []string {
	if len(s.Scope) > 0 {
		return s.Scope
	}
	return typePrefixes[strings.ToLower(s.Type)]
}

// SecretFor returns the secret of the given type family whose scope is the
// longest prefix of location (DuckDB's rule), or nil. types lists the
// secret types that may serve the location (an s3:// path: "s3"; gs://:
// "gcs" and "s3").
func (c *Config) SecretFor(location string, types ...string) *Secret {
	var best *Secret
	bestLen := -1
	for i := range c.Secrets {
		s := &c.Secrets[i]
		ok := false
		for _, t := range types {
			ok = ok || strings.EqualFold(s.Type, t)
		}
		if !ok {
			continue
		}
		for _, p := range s.defaultScope() {
			if strings.HasPrefix(location, p) && len(p) > bestLen {
				best, bestLen = s, len(p)
			}
		}
	}
	return best
}
