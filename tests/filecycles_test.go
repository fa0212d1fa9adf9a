package tests

// TestFileCycles checks #16's rule on files: no two files of one package
// need each other's unexported names in both directions. A file "needs"
// another when it refers to an unexported package-level name (function,
// type, variable, constant) or an unexported method or field declared
// there. Every package of the module is checked. A package whose files are
// one recursion split by construct (the binder, the parser, the physical
// builder, the operators and their state types) explains why in its
// package doc and states its bound there, as "tests/filecycles_test.go
// allows at most N" pairs; any other package must have none. A bound above
// the count is logged, so that it is lowered when pairs go away.
// B2SQL_FILECYCLES=1 logs every pair.

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// cycleBound finds a package doc's stated bound.
var cycleBound = regexp.MustCompile(`filecycles_test\.go\s+(?://\s*)?allows\s+(?://\s*)?at\s+(?://\s*)?most\s+(?://\s*)?(\d+)`)

func TestFileCycles(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks packages from source")
	}
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "..").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := strings.TrimSpace(string(out))
	out, err = exec.Command("go", "list", "-f", "{{.Dir}}", "../...").Output()
	if err != nil {
		t.Fatal(err)
	}
	exports, err := exportData("../...")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range strings.Fields(string(out)) {
		rel, _ := filepath.Rel(root, dir)
		pairs, err := mutualFiles(dir, exports)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		bound, stated, err := statedBound(dir)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		switch {
		case len(pairs) > bound && stated:
			t.Errorf("%s: %d mutually dependent pairs of files, its package doc allows at most %d: break the new pairs (move the shared names to a file of their own), or explain them in the doc and raise the bound", rel, len(pairs), bound)
		case len(pairs) > bound:
			t.Errorf("%s: %d mutually dependent pairs of files: break them (move the shared names to a file of their own), or explain them in the package doc with \"tests/filecycles_test.go allows at most N\"", rel, len(pairs))
		case len(pairs) < bound:
			t.Logf("%s: %d mutually dependent pairs, the doc allows %d: lower the bound", rel, len(pairs), bound)
		}
		if len(pairs) > bound || os.Getenv("B2SQL_FILECYCLES") != "" {
			for _, p := range pairs {
				t.Logf("  %s: %s", rel, p)
			}
		}
	}
}

// statedBound reads the bound a package's doc states; 0 when it states
// none.
func statedBound(dir string) (int, bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, false, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, false, err
		}
		if m := cycleBound.FindSubmatch(b); m != nil {
			n, err := strconv.Atoi(string(m[1]))
			return n, true, err
		}
	}
	return 0, false, nil
}

// mutualFiles type-checks the non-test files of the package in dir and
// returns its pairs of files that use each other's unexported names, as
// "a.go ↔ b.go (x, y)".
func mutualFiles(dir string, exports map[string]string) ([]string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for name, p := range pkgs {
		if strings.HasSuffix(name, "_test") {
			continue
		}
		for _, f := range p.Files {
			files = append(files, f)
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	conf := types.Config{Importer: imp, Error: func(error) {}}
	pkg, _ := conf.Check(dir, fset, files, info)
	uses := map[[2]string]map[string]bool{} // [user, declarer] → names
	note := func(at token.Pos, obj types.Object) {
		if obj == nil || obj.Exported() || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return
		}
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			return // a local variable
		}
		if _, ok := obj.(*types.Label); ok {
			return
		}
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			if _, isFunc := obj.(*types.Func); !isFunc {
				if v, ok := obj.(*types.Var); !ok || !v.IsField() {
					return // local types and constants
				}
			}
		}
		from := filepath.Base(fset.Position(at).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to {
			return
		}
		k := [2]string{from, to}
		if uses[k] == nil {
			uses[k] = map[string]bool{}
		}
		uses[k][obj.Name()] = true
	}
	for id, obj := range info.Uses {
		note(id.Pos(), obj)
	}
	var out []string
	for k, names := range uses {
		if k[0] > k[1] {
			continue
		}
		back, ok := uses[[2]string{k[1], k[0]}]
		if !ok {
			continue
		}
		out = append(out, k[0]+" ↔ "+k[1]+" ("+sample(names)+" / "+sample(back)+")")
	}
	sort.Strings(out)
	return out, nil
}

// exportData maps the import paths the packages matching pattern depend on
// to their compiled export data (go list -export builds them into the
// cache).
func exportData(pattern string) (map[string]string, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", pattern).Output()
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, e, ok := strings.Cut(l, "="); ok && e != "" {
			m[p] = e
		}
	}
	return m, nil
}

// sample lists up to three of names, sorted.
func sample(names map[string]bool) string {
	var l []string
	for n := range names {
		l = append(l, n)
	}
	sort.Strings(l)
	if len(l) > 3 {
		l = append(l[:3], "…")
	}
	return strings.Join(l, ", ")
}
