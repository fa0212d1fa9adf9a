package tests

// TestFileCycles checks #16's rule on files: no two files of one package
// need each other's unexported names in both directions. A file "needs"
// another when it refers to an unexported package-level name (function,
// type, variable, constant) or an unexported method or field declared
// there. The module root (the API over the engine), internal/engine, the
// function registry and repl must have no such pair. B2SQL_FILECYCLES=dir,dir… logs the pairs of
// other packages: a package of one concept (the binder in sql, the
// operators in executor) is many files of one type whose methods call
// each other, which the rule does not forbid there.

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
	"sort"
	"strings"
	"testing"
)

// fileCyclesStrict are the directories (relative to the module) that must
// have no mutually dependent pair of files.
var fileCyclesStrict = []string{".", "internal/engine", "function", "repl"}

func TestFileCycles(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks packages from source")
	}
	for _, dir := range fileCyclesStrict {
		pairs, err := mutualFiles(filepath.Join("..", dir))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, p := range pairs {
			t.Errorf("%s: %s", dir, p)
		}
		t.Logf("%s: %d mutually dependent pairs of files", dir, len(pairs))
	}
	if env := os.Getenv("B2SQL_FILECYCLES"); env != "" {
		for _, dir := range strings.Split(env, ",") {
			pairs, err := mutualFiles(filepath.Join("..", dir))
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			t.Logf("%s: %d mutually dependent pairs of files", dir, len(pairs))
			for _, p := range pairs {
				t.Logf("  %s", p)
			}
		}
	}
}

// mutualFiles type-checks the non-test files of the package in dir and
// returns its pairs of files that use each other's unexported names, as
// "a.go ↔ b.go (x, y)".
func mutualFiles(dir string) ([]string, error) {
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
	exports, err := exportData(dir)
	if err != nil {
		return nil, err
	}
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

// exportData maps the import paths the package in dir depends on to their
// compiled export data (go list -export builds them into the cache).
func exportData(dir string) (map[string]string, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "./"+filepath.ToSlash(dir)).Output()
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
