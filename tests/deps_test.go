package tests

// The package layering of STYLE.md §2, enforced on the import graph that
// `go list` reports (cf. CockroachDB's dep_test.go):
//
//	layer 6  cmd/… → repl → b2sql (module root: the public API only)
//	layer 5  internal/engine          → internal/dml → internal/catalog
//	         (the statement path over the catalog; never the root)
//	layer 4  sql                      → planner, columnar
//	layer 3  planner                  → executor, index, dict, columnar
//	layer 2  executor                 → index, dict, columnar
//	         formats/*                → index, dict, columnar (never each other)
//	layer 1  index                    → dict, columnar
//	         function                 → columnar (the function registry:
//	                                    sql binds, executor builds, repl completes from it)
//	         dict                     → columnar
//	layer 0  columnar                 → std only
//	         internal/* (others)      → std only (leaf helpers any layer may use)
//
// Only internal/catalog opens files by format and only it and internal/dml
// (the writers of COPY, CREATE TABLE, INSERT) import formats/*: the module
// root and internal/engine import none directly.
//
// Edges are checked transitively (a forbidden package reached through an
// allowed one is still forbidden), except the module-root rule, which is
// about who imports the root directly (test files included).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/b2sql/b2sql"

// rootImporters are the module directories allowed to import the module
// root (the embedded API), besides the root itself; tests/ is the
// end-to-end suite and may always; examples/ are programs written against
// the public API, as a user's would be.
var rootImporters = []string{"cmd", "repl", "examples"}

// listedPkg is the part of `go list -json` output the rules need.
type listedPkg struct {
	ImportPath   string
	Imports      []string
	Deps         []string
	TestImports  []string
	XTestImports []string
	CgoFiles     []string
	Error        *struct{ Err string }
}

// rel returns the package path relative to the module ("" for the root), or
// ok=false for a package outside the module.
func rel(path string) (string, bool) {
	if path == modulePath {
		return "", true
	}
	r, ok := strings.CutPrefix(path, modulePath+"/")
	return r, ok
}

// statementPath are the layer-5 packages under internal/ (not leaves).
var statementPath = []string{"internal/catalog", "internal/dml", "internal/engine"}

func isStatementPath(r string) bool {
	for _, d := range statementPath {
		if under(r, d) {
			return true
		}
	}
	return false
}

// under reports whether the module-relative path r is dir or inside it.
func under(r, dir string) bool { return r == dir || strings.HasPrefix(r, dir+"/") }

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// formatOf returns "formats/X" for a package under formats/X, else "".
func formatOf(r string) string {
	parts := strings.SplitN(r, "/", 3)
	if len(parts) >= 2 && parts[0] == "formats" {
		return parts[0] + "/" + parts[1]
	}
	return ""
}

// depViolations returns one line per forbidden edge in pkgs.
func depViolations(pkgs []listedPkg) []string {
	var out []string
	bad := func(p listedPkg, dep, why string) {
		out = append(out, fmt.Sprintf("%s imports %s: %s", p.ImportPath, dep, why))
	}
	for _, p := range pkgs {
		r, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		if len(p.CgoFiles) > 0 {
			out = append(out, fmt.Sprintf("%s uses cgo (%s): b2sql is pure Go", p.ImportPath, strings.Join(p.CgoFiles, " ")))
		}
		for _, dep := range p.Deps {
			dr, internal := rel(dep)
			switch {
			case under(r, "columnar"):
				if !isStd(dep) && !(internal && under(dr, "columnar")) {
					bad(p, dep, "columnar imports only the standard library")
				}
			case under(r, "dict"):
				if !isStd(dep) && !(internal && (under(dr, "dict") || under(dr, "columnar"))) {
					bad(p, dep, "dict imports only columnar")
				}
			case under(r, "internal") && !isStatementPath(r):
				if !isStd(dep) {
					bad(p, dep, "internal/ packages are leaves: the standard library only")
				}
			case under(r, "function"):
				if !isStd(dep) && !(internal && (under(dr, "function") || under(dr, "columnar"))) {
					bad(p, dep, "function imports only columnar")
				}
			case under(r, "index"):
				if !isStd(dep) && !(internal && (under(dr, "index") || under(dr, "dict") || under(dr, "columnar"))) {
					bad(p, dep, "index imports only dict and columnar")
				}
			}
			if !internal {
				continue
			}
			forbidden := func(dirs ...string) bool {
				for _, d := range dirs {
					if d == "" && dr == "" || d != "" && under(dr, d) {
						return true
					}
				}
				return false
			}
			switch {
			case under(r, "internal/catalog"):
				if forbidden("", "internal/engine", "internal/dml", "repl", "cmd") {
					bad(p, dep, "internal/catalog never imports the statement path (engine, dml), the module root or the layers above")
				}
			case under(r, "internal/dml"):
				if forbidden("", "internal/engine", "repl", "cmd") {
					bad(p, dep, "internal/dml never imports internal/engine, the module root or the layers above")
				}
			case under(r, "internal/engine"):
				if forbidden("", "repl", "cmd") {
					bad(p, dep, "internal/engine never imports the module root or the layers above")
				}
			case formatOf(r) != "":
				if forbidden("", "planner", "executor", "sql", "repl", "cmd") {
					bad(p, dep, "formats never import planner, executor, sql or the layers above")
				} else if f := formatOf(dr); f != "" && f != formatOf(r) {
					bad(p, dep, "formats never import each other (only the module root knows every format)")
				}
			case under(r, "executor"):
				if forbidden("", "planner", "sql", "formats", "repl", "cmd") {
					bad(p, dep, "executor never imports planner, sql, formats or the layers above")
				}
			case under(r, "planner"):
				if forbidden("", "sql", "formats", "repl", "cmd") {
					bad(p, dep, "planner never imports sql, formats or the layers above")
				}
			case under(r, "sql"):
				if forbidden("", "formats", "repl", "cmd") {
					bad(p, dep, "sql never imports formats, the module root or repl")
				}
			}
		}
		if r == "" || under(r, "internal/engine") {
			for _, dep := range p.Imports {
				if dr, ok := rel(dep); ok && formatOf(dr) != "" {
					bad(p, dep, "only internal/catalog opens files by format (and internal/dml writes them): the module root and internal/engine import no format")
				}
			}
		}
		// Only the root itself, cmd/ and repl/ use the embedded API (tests/
		// is the end-to-end suite, test files only).
		mayImportRoot := r == "" || under(r, "tests")
		for _, d := range rootImporters {
			mayImportRoot = mayImportRoot || under(r, d)
		}
		if !mayImportRoot {
			for _, imps := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
				if slices.Contains(imps, modulePath) {
					bad(p, modulePath, "only the module root, "+strings.Join(rootImporters, "/, ")+"/ and tests/ import the module root")
					break
				}
			}
		}
		if !under(r, "cmd") && !under(r, "repl") && !under(r, "tests") {
			for _, imps := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
				for _, dep := range imps {
					if dr, ok := rel(dep); ok && under(dr, "repl") {
						bad(p, dep, "only cmd/ imports repl")
					}
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func goList(t *testing.T) []listedPkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = ".."
	// With cgo disabled, files that import "C" are silently left out of
	// CgoFiles; enable it so that they are reported.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestDeps(t *testing.T) {
	pkgs := goList(t)
	var seen []string
	for _, p := range pkgs {
		if r, ok := rel(p.ImportPath); ok {
			seen = append(seen, r)
		}
		if p.Error != nil {
			// The graph of a package that does not load may be incomplete.
			t.Logf("warning: %s: %s", p.ImportPath, p.Error.Err)
		}
	}
	for _, must := range []string{"", "columnar", "executor", "planner", "sql", "index", "internal/catalog", "internal/engine", "internal/dml"} {
		if !slices.Contains(seen, must) {
			t.Errorf("go list did not report package %q (listed: %q)", must, seen)
		}
	}
	for _, v := range depViolations(pkgs) {
		t.Error(v)
	}
}

// TestDepRules checks the checker on a synthetic graph, so that a rule that
// can never fire does not pass silently.
func TestDepRules(t *testing.T) {
	m := func(r string) string {
		if r == "" {
			return modulePath
		}
		return modulePath + "/" + r
	}
	tests := []struct {
		name string
		pkg  listedPkg
		want int // violations
	}{
		{"columnar std only", listedPkg{ImportPath: m("columnar"), Deps: []string{"fmt", "math/bits"}}, 0},
		{"columnar third party", listedPkg{ImportPath: m("columnar"), Deps: []string{"golang.org/x/exp/slices"}}, 1},
		{"columnar index", listedPkg{ImportPath: m("columnar"), Deps: []string{m("index")}}, 1},
		{"dict columnar", listedPkg{ImportPath: m("dict"), Deps: []string{m("columnar"), "sort"}}, 0},
		{"dict index", listedPkg{ImportPath: m("dict"), Deps: []string{m("index")}}, 1},
		{"index dict columnar", listedPkg{ImportPath: m("index"), Deps: []string{m("dict"), m("columnar")}}, 0},
		{"index executor", listedPkg{ImportPath: m("index"), Deps: []string{m("executor")}}, 1},
		{"parquet arrow index", listedPkg{ImportPath: m("formats/parquet"), Deps: []string{"github.com/apache/arrow-go/v18/parquet", m("index"), m("columnar")}}, 0},
		{"parquet planner", listedPkg{ImportPath: m("formats/parquet"), Deps: []string{m("planner")}}, 1},
		{"b2 executor sql", listedPkg{ImportPath: m("formats/b2/filter"), Deps: []string{m("executor"), m("sql")}}, 2},
		{"b2 own subpackage", listedPkg{ImportPath: m("formats/b2"), Deps: []string{m("formats/b2/blosclz")}}, 0},
		{"b2 parquet", listedPkg{ImportPath: m("formats/b2"), Deps: []string{m("formats/parquet")}}, 1},
		{"function columnar", listedPkg{ImportPath: m("function"), Deps: []string{m("columnar"), "strings"}}, 0},
		{"function executor", listedPkg{ImportPath: m("function"), Deps: []string{m("executor")}}, 1},
		{"executor index", listedPkg{ImportPath: m("executor"), Deps: []string{m("index"), m("columnar")}}, 0},
		{"executor planner formats", listedPkg{ImportPath: m("executor"), Deps: []string{m("planner"), m("formats/b2")}}, 2},
		{"planner executor", listedPkg{ImportPath: m("planner"), Deps: []string{m("executor")}}, 0},
		{"planner sql", listedPkg{ImportPath: m("planner"), Deps: []string{m("sql")}}, 1},
		{"planner root", listedPkg{ImportPath: m("planner"), Deps: []string{modulePath}, Imports: []string{modulePath}}, 2},
		{"sql planner", listedPkg{ImportPath: m("sql"), Deps: []string{m("planner"), m("executor")}}, 0},
		{"repl root", listedPkg{ImportPath: m("repl"), Imports: []string{modulePath}, Deps: []string{modulePath}}, 0},
		{"cmd repl", listedPkg{ImportPath: m("cmd/b2sql"), Imports: []string{m("repl"), modulePath}}, 0},
		{"executor test imports root", listedPkg{ImportPath: m("executor"), XTestImports: []string{modulePath}}, 1},
		{"sql imports repl", listedPkg{ImportPath: m("sql"), Imports: []string{m("repl")}, Deps: []string{m("repl")}}, 2},
		{"catalog formats planner sql", listedPkg{ImportPath: m("internal/catalog"), Deps: []string{m("formats/parquet"), m("formats/b2/ctable"), m("planner"), m("sql")}}, 0},
		{"catalog engine dml", listedPkg{ImportPath: m("internal/catalog"), Deps: []string{m("internal/engine"), m("internal/dml")}}, 2},
		{"catalog root", listedPkg{ImportPath: m("internal/catalog"), Deps: []string{modulePath}, Imports: []string{modulePath}}, 2},
		{"dml catalog", listedPkg{ImportPath: m("internal/dml"), Deps: []string{m("internal/catalog"), m("executor")}}, 0},
		{"dml engine", listedPkg{ImportPath: m("internal/dml"), Deps: []string{m("internal/engine")}}, 1},
		{"engine dml catalog", listedPkg{ImportPath: m("internal/engine"), Deps: []string{m("internal/dml"), m("internal/catalog")}}, 0},
		{"engine root", listedPkg{ImportPath: m("internal/engine"), Deps: []string{modulePath}}, 1},
		{"engine imports a format", listedPkg{ImportPath: m("internal/engine"), Imports: []string{m("formats/parquet")}}, 1},
		{"root imports a format", listedPkg{ImportPath: modulePath, Imports: []string{m("formats/b2/ctable")}}, 1},
		{"root imports engine", listedPkg{ImportPath: modulePath, Imports: []string{m("internal/engine")}, Deps: []string{m("internal/engine")}}, 0},
		{"fsmode still a leaf", listedPkg{ImportPath: m("internal/fsmode"), Deps: []string{m("columnar")}}, 1},
		{"cgo", listedPkg{ImportPath: m("formats/b2"), CgoFiles: []string{"zstd_cgo.go"}}, 1},
		{"outside module", listedPkg{ImportPath: "example.com/x", Imports: []string{modulePath}, CgoFiles: []string{"c.go"}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := depViolations([]listedPkg{tc.pkg})
			if len(got) != tc.want {
				t.Errorf("got %d violations, want %d: %q", len(got), tc.want, got)
			}
		})
	}
}
