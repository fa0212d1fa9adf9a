package storage

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// HasGlob reports whether a location uses glob syntax: * ? [ or {.
func HasGlob(location string) bool {
	_, rest, ok := strings.Cut(location, "://")
	if !ok {
		rest = location
	}
	return strings.ContainsAny(rest, "*?[{")
}

// Pattern is a compiled glob: `*` any run of characters but '/', `**` any
// run of directories (zero or more), `?` one character but '/', `[abc]`,
// `[a-z]` one of a set, `[!abc]` none of it (as in DuckDB, `^` is a member,
// not a negation: `[^a]` is '^' or 'a'), `{a,b}` one of the alternatives
// (which may hold globs themselves).
type Pattern struct {
	text   string
	re     *regexp.Regexp
	prefix string // the literal text before the first meta character
	deep   bool   // has **: matches at any depth
	depth  int    // path segments when !deep
}

// CompileGlob compiles a glob pattern; a malformed one (an unclosed [ or {)
// is an error naming the pattern.
func CompileGlob(pattern string) (*Pattern, error) {
	var b strings.Builder
	b.WriteString("^")
	if err := globToRegexp(pattern, &b, false); err != nil {
		return nil, fmt.Errorf("bad glob %q: %v", pattern, err)
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("bad glob %q: %v", pattern, err)
	}
	i := strings.IndexAny(pattern, "*?[{")
	if i < 0 {
		i = len(pattern)
	}
	return &Pattern{
		text: pattern, re: re, prefix: pattern[:i],
		deep:  strings.Contains(pattern, "**"),
		depth: strings.Count(pattern, "/"),
	}, nil
}

// Match reports whether path matches the whole pattern.
func (p *Pattern) Match(path string) bool { return p.re.MatchString(path) }

// globToRegexp appends the regexp of glob to b; inAlt stops at ',' and '}'
// of an enclosing {…} (the caller consumes them).
func globToRegexp(glob string, b *strings.Builder, inAlt bool) error {
	_, err := globPart(glob, 0, b, inAlt)
	return err
}

func globPart(g string, i int, b *strings.Builder, inAlt bool) (int, error) {
	for i < len(g) {
		c := g[i]
		switch {
		case inAlt && (c == ',' || c == '}'):
			return i, nil
		case c == '*':
			if i+1 < len(g) && g[i+1] == '*' {
				i += 2
				if i < len(g) && g[i] == '/' {
					b.WriteString(`(?:.*/)?`)
					i++
				} else {
					b.WriteString(`.*`)
				}
				continue
			}
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '[':
			j := i + 1
			if j < len(g) && g[j] == '!' {
				j++
			}
			if j < len(g) && g[j] == ']' {
				j++
			}
			for j < len(g) && g[j] != ']' {
				j++
			}
			if j >= len(g) {
				return i, fmt.Errorf("unclosed [ at offset %d", i)
			}
			class := g[i+1 : j]
			b.WriteString("[")
			if class != "" && class[0] == '!' {
				b.WriteString("^/")
				class = class[1:]
			}
			for _, r := range class {
				if r == '\\' || r == '[' || r == '^' {
					b.WriteByte('\\') // literal inside a regexp class
				}
				b.WriteRune(r)
			}
			b.WriteString("]")
			i = j
		case c == '{':
			b.WriteString("(?:")
			j := i + 1
			for {
				var err error
				j, err = globPart(g, j, b, true)
				if err != nil {
					return j, err
				}
				if j >= len(g) {
					return i, fmt.Errorf("unclosed { at offset %d", i)
				}
				if g[j] == '}' {
					break
				}
				b.WriteString("|")
				j++
			}
			b.WriteString(")")
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
		i++
	}
	return i, nil
}

// Glob expands a location pattern into the sorted locations that exist:
// local files by walking the directory before the first meta character,
// s3:// (gs://, r2://) by listing the keys under the literal prefix. HTTP
// has no listing: a glob there is an error.
func Glob(ctx context.Context, pattern string, cfg *Config) ([]string, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	switch KindOf(pattern) {
	case HTTP:
		return nil, fmt.Errorf("%s: HTTP servers cannot be listed, so globs are not supported over http(s); name the files", pattern)
	case S3:
		if err := cfg.allowed(pattern); err != nil {
			return nil, err
		}
		return globS3(ctx, pattern, cfg)
	}
	return globLocal(ctx, strings.TrimPrefix(pattern, "file://"))
}

func globLocal(ctx context.Context, pattern string) ([]string, error) {
	p, err := CompileGlob(filepath.ToSlash(pattern))
	if err != nil {
		return nil, err
	}
	root := p.prefix
	if k := strings.LastIndex(root, "/"); k >= 0 {
		root = root[:k+1]
	} else {
		root = ""
	}
	walkRoot := root
	if walkRoot == "" {
		walkRoot = "."
	}
	var out []string
	err = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == walkRoot {
				return err
			}
			return nil // an unreadable subdirectory: skip it, as a shell does
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A match is spelled from the pattern's own directory prefix:
		// WalkDir cleans the paths it joins, so that './*.csv' or
		// 'h/../*.csv' matched nothing.
		rel := filepath.ToSlash(path)
		if r, err := filepath.Rel(walkRoot, path); err == nil && path != walkRoot {
			rel = root + filepath.ToSlash(r)
		}
		if d.IsDir() {
			if path != walkRoot && strings.HasSuffix(strings.ToLower(rel), ".b2d") && p.Match(rel) {
				// A CTable is a directory read as one file.
				out = append(out, rel)
				return fs.SkipDir
			}
			if path != walkRoot && !p.deep && strings.Count(rel, "/") >= p.depth {
				return fs.SkipDir
			}
			return nil
		}
		if p.Match(rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

func globS3(ctx context.Context, pattern string, cfg *Config) ([]string, error) {
	l, err := parseS3(pattern)
	if err != nil {
		return nil, err
	}
	if HasGlob(l.bucket) {
		return nil, fmt.Errorf("%s: globs in the bucket name are not supported", pattern)
	}
	p, err := CompileGlob(l.key)
	if err != nil {
		return nil, err
	}
	client, err := cfg.newS3Client(ctx, cfg.s3Params(l, pattern))
	if err != nil {
		return nil, locationError(pattern, err)
	}
	var out []string
	var token *string
	scheme := l.scheme + "://" + l.bucket + "/"
	for {
		page, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{
			Bucket: aws.String(l.bucket), Prefix: aws.String(p.prefix), ContinuationToken: token,
		})
		if err != nil {
			return nil, locationError(pattern, s3Error(err))
		}
		for _, obj := range page.Contents {
			if k := aws.ToString(obj.Key); p.Match(k) {
				out = append(out, scheme+k)
			}
		}
		if !aws.ToBool(page.IsTruncated) || page.NextContinuationToken == nil {
			break
		}
		token = page.NextContinuationToken
	}
	sort.Strings(out)
	return out, nil
}
