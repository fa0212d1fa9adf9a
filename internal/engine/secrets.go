package engine

// Remote-data statements and settings, as DuckDB's httpfs has them:
// CREATE SECRET / DROP SECRET (kept in memory, the database's, never
// printed) and the s3_* and http_* settings, all held in the catalog's
// storage configuration.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// secretTypes are the TYPE values of CREATE SECRET this reads.
var secretTypes = []string{"s3", "gcs", "r2", "http"}

// createSecret runs CREATE SECRET.
func (s *Session) createSecret(st *sql.CreateSecret) error {
	sec, err := secretOf(st)
	if err != nil {
		return err
	}
	return s.e.Cat.UpdateStorage(func(cfg *storage.Config) error {
		for i, old := range cfg.Secrets {
			if old.Name != sec.Name {
				continue
			}
			switch {
			case st.IfNotExists:
				return nil
			case !st.OrReplace:
				return fmt.Errorf("secret %q already exists (CREATE OR REPLACE SECRET replaces it)", sec.Name)
			}
			cfg.Secrets[i] = sec
			return nil
		}
		cfg.Secrets = append(cfg.Secrets, sec)
		return nil
	})
}

// dropSecret runs DROP SECRET.
func (s *Session) dropSecret(st *sql.DropSecret) error {
	return s.e.Cat.UpdateStorage(func(cfg *storage.Config) error {
		for i, old := range cfg.Secrets {
			if old.Name == st.Name {
				cfg.Secrets = slices.Delete(cfg.Secrets, i, i+1)
				return nil
			}
		}
		if st.IfExists {
			return nil
		}
		return fmt.Errorf("secret %q does not exist", st.Name)
	})
}

// secretOf reads CREATE SECRET's options into a storage.Secret. Errors
// name the option, never its value (it may be a credential).
func secretOf(st *sql.CreateSecret) (storage.Secret, error) {
	var sec storage.Secret
	seen := map[string]bool{}
	optErr := func(o sql.SecretOption, msg string) error {
		return &sql.Error{Pos: o.Pos, Kind: sql.ErrType, Msg: "CREATE SECRET: " + strings.ToUpper(o.Key) + ": " + msg}
	}
	for _, o := range st.Options {
		if seen[o.Key] {
			return sec, optErr(o, "given twice")
		}
		seen[o.Key] = true
		if o.Key != "scope" && len(o.Values) != 1 {
			return sec, optErr(o, "expected one value, not a list")
		}
		v := ""
		if len(o.Values) > 0 {
			v = o.Values[0]
		}
		switch o.Key {
		case "type":
			sec.Type = strings.ToLower(v)
			if !slices.Contains(secretTypes, sec.Type) {
				return sec, optErr(o, fmt.Sprintf("unknown secret type %q (s3, gcs, r2, http)", v))
			}
		case "provider":
			switch p := strings.ToLower(v); p {
			case "config", "credential_chain":
				sec.Provider = p
			default:
				return sec, optErr(o, fmt.Sprintf("unknown provider %q (config, credential_chain)", v))
			}
		case "chain":
			// The AWS SDK's default chain tries environment, shared config
			// and credentials files, web identity and instance roles in its
			// own order; a CHAIN naming only some of them still means it.
			for _, part := range strings.Split(strings.ToLower(v), ";") {
				switch strings.TrimSpace(part) {
				case "env", "config", "sts", "sso", "instance", "process":
				default:
					return sec, optErr(o, fmt.Sprintf("unknown credential provider %q (env, config, sts, sso, instance, process)", part))
				}
			}
		case "key_id":
			sec.KeyID = v
		case "secret":
			sec.Secret = v
		case "session_token":
			sec.SessionToken = v
		case "region":
			sec.Region = v
		case "endpoint":
			sec.Endpoint = v
		case "url_style":
			switch u := strings.ToLower(v); u {
			case "vhost", "path":
				sec.URLStyle = u
			default:
				return sec, optErr(o, fmt.Sprintf("expected 'vhost' or 'path', got %q", v))
			}
		case "use_ssl":
			b, err := strconv.ParseBool(strings.ToLower(v))
			if err != nil {
				return sec, optErr(o, "expected true or false")
			}
			sec.UseSSL = &b
		case "account_id":
			sec.AccountID = v
		case "bearer_token":
			sec.BearerToken = v
		case "scope":
			if len(o.Values) == 0 {
				return sec, optErr(o, "expected a location prefix")
			}
			sec.Scope = slices.Clone(o.Values)
		default:
			return sec, optErr(o, "unknown option (TYPE, PROVIDER, CHAIN, KEY_ID, SECRET, SESSION_TOKEN, REGION, ENDPOINT, URL_STYLE, USE_SSL, ACCOUNT_ID, BEARER_TOKEN, SCOPE)")
		}
	}
	if sec.Type == "" {
		return sec, &sql.Error{Pos: sql.Pos{Line: 1, Col: 1}, Kind: sql.ErrSyntax, Msg: "CREATE SECRET: TYPE is required (s3, gcs, r2, http)"}
	}
	sec.Name = st.Name
	if sec.Name == "" {
		sec.Name = "__default_" + sec.Type
	}
	return sec, nil
}

// The s3_* and http_* settings. They are the database's, as DuckDB's
// global-scope settings: SET on one session changes what every session
// opens next. Values of credential settings never appear in errors and
// show as "redacted".
func init() {
	str := func(name, desc string, field func(*storage.Config) *string, credential bool) {
		Register(Setting{
			Name: name, Type: "VARCHAR", Description: desc,
			Apply: func(e *Engine, _ *Settings, v columnar.Value, reset bool) error {
				if !reset && !v.Type.IsString() {
					return fmt.Errorf("expected a string")
				}
				return e.Cat.UpdateStorage(func(cfg *storage.Config) error {
					*field(cfg) = v.S
					return nil
				})
			},
			Show: func(st *Settings) columnar.Value {
				x := *field(st.storage())
				if credential && x != "" {
					x = "redacted"
				}
				return stringValue(x)
			},
		})
	}
	str("s3_region", "S3 region used when no secret names one (default us-east-1)", func(c *storage.Config) *string { return &c.S3.Region }, false)
	str("s3_endpoint", "S3 endpoint (host[:port] or URL) used when no secret names one", func(c *storage.Config) *string { return &c.S3.Endpoint }, false)
	str("s3_access_key_id", "S3 access key ID used when no secret covers a location", func(c *storage.Config) *string { return &c.S3.AccessKeyID }, true)
	str("s3_secret_access_key", "S3 secret access key used when no secret covers a location", func(c *storage.Config) *string { return &c.S3.SecretAccessKey }, true)
	str("s3_session_token", "S3 session token used when no secret covers a location", func(c *storage.Config) *string { return &c.S3.SessionToken }, true)
	Register(Setting{
		Name: "s3_url_style", Type: "VARCHAR", Description: "S3 addressing: 'vhost' (default) or 'path'",
		Apply: func(e *Engine, _ *Settings, v columnar.Value, reset bool) error {
			x := ""
			if !reset {
				if x = strings.ToLower(v.S); !v.Type.IsString() || x != "vhost" && x != "path" {
					return fmt.Errorf("expected 'vhost' or 'path', got %s", v.String())
				}
			}
			return e.Cat.UpdateStorage(func(cfg *storage.Config) error { cfg.S3.URLStyle = x; return nil })
		},
		Show: func(st *Settings) columnar.Value { return stringValue(st.storage().S3.URLStyle) },
	})
	Register(Setting{
		Name: "s3_use_ssl", Type: "BOOLEAN", Description: "S3 endpoints without a scheme are reached over HTTPS (default true)",
		Apply: func(e *Engine, _ *Settings, v columnar.Value, reset bool) error {
			var on *bool
			if !reset {
				b, err := settingBool(v)
				if err != nil {
					return err
				}
				on = &b
			}
			return e.Cat.UpdateStorage(func(cfg *storage.Config) error { cfg.S3.UseSSL = on; return nil })
		},
		Show: func(st *Settings) columnar.Value {
			u := st.storage().S3.UseSSL
			return columnar.BoolValue(u == nil || *u)
		},
	})
	str("remote_cache_directory", "Directory keeping ranges of remote files across queries and processes ('' = no on-disk cache)",
		func(c *storage.Config) *string { return &c.DiskCacheDir }, false)
	Register(Setting{
		Name: "remote_cache_size", Type: "VARCHAR", Description: "Bound of the on-disk cache of remote files (default 1 GiB)",
		Apply: func(e *Engine, _ *Settings, v columnar.Value, reset bool) error {
			n := int64(0)
			if !reset {
				var err error
				if n, err = parseSize(v); err != nil || n <= 0 {
					return fmt.Errorf("expected a size such as '4GB', got %s", v.String())
				}
			}
			return e.Cat.UpdateStorage(func(cfg *storage.Config) error { cfg.DiskCacheBytes = n; return nil })
		},
		Show: func(st *Settings) columnar.Value {
			return stringValue(memory.FormatSize(orDefaultSize(st.storage().DiskCacheBytes, storage.DefaultDiskCacheBytes)))
		},
	})
	for _, h := range []struct{ name, typ, desc string }{
		{"http_timeout", "BIGINT", "Seconds one HTTP or S3 request may take (default 30)"},
		{"http_retries", "BIGINT", "Times a failed request (5xx, 429, timeout) is retried (default 3)"},
		{"http_retry_wait_ms", "BIGINT", "Milliseconds before the first retry (default 100)"},
		{"http_retry_backoff", "DOUBLE", "Factor by which each retry's wait grows (default 4)"},
	} {
		Register(Setting{
			Name: h.name, Type: h.typ, Description: h.desc,
			Apply: func(e *Engine, _ *Settings, v columnar.Value, reset bool) error {
				return e.Cat.UpdateStorage(func(cfg *storage.Config) error { return httpSetting(&cfg.HTTP, h.name, v, reset) })
			},
			Show: func(st *Settings) columnar.Value { return httpShow(&st.storage().HTTP, h.name) },
		})
	}
}

// httpShow is the value of an http_* setting, defaults applied.
func httpShow(h *storage.HTTPSettings, name string) columnar.Value {
	switch name {
	case "http_timeout":
		return columnar.IntValue(columnar.TInt64, int64(h.EffectiveTimeout()/time.Second))
	case "http_retries":
		return columnar.IntValue(columnar.TInt64, int64(h.EffectiveRetries()))
	case "http_retry_wait_ms":
		return columnar.IntValue(columnar.TInt64, h.EffectiveRetryWait().Milliseconds())
	}
	return columnar.FloatValue(columnar.TFloat64, h.EffectiveBackoff())
}

// httpSetting applies one http_* setting (units as DuckDB's: seconds for
// http_timeout, milliseconds for http_retry_wait_ms).
func httpSetting(h *storage.HTTPSettings, name string, v columnar.Value, reset bool) error {
	if name == "http_retry_backoff" {
		f := 0.0
		if !reset {
			switch {
			case v.Type.IsInteger():
				f = float64(v.I)
			case v.Type.ID == columnar.Float64 || v.Type.ID == columnar.Float32:
				f = v.F
			case v.Type.IsString():
				var err error
				if f, err = strconv.ParseFloat(strings.TrimSpace(v.S), 64); err != nil {
					return fmt.Errorf("expected a number ≥ 1, got %s", v.String())
				}
			default:
				return fmt.Errorf("expected a number ≥ 1, got %s", v.String())
			}
			if f < 1 || math.IsNaN(f) {
				return fmt.Errorf("expected a number ≥ 1, got %s", v.String())
			}
		}
		h.RetryBackoff = f
		return nil
	}
	n := int64(0)
	if !reset {
		x, err := settingInt(v)
		if err != nil || x < 0 || x > math.MaxInt32 {
			return fmt.Errorf("expected a non-negative integer, got %s", v.String())
		}
		n = x
	}
	switch name {
	case "http_timeout":
		h.Timeout = time.Duration(n) * time.Second
	case "http_retries":
		h.Retries = int(n)
		if !reset && n == 0 {
			h.Retries = -1 // none, not the default
		}
	case "http_retry_wait_ms":
		h.RetryWait = time.Duration(n) * time.Millisecond
	}
	return nil
}

func orDefaultSize(n, d int64) int64 {
	if n > 0 {
		return n
	}
	return d
}
