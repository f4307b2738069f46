package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedNames counts the exported top-level names of the packages
// whose surface is held, each name of a const or var block included, as
// CHANGELOG.md states them. A new name is a new thing for every caller to
// learn: when one is added on purpose, change its count here and say so in
// CHANGELOG.md.
func TestExportedNames(t *testing.T) {
	for _, c := range []struct {
		dir, pkg string
		want     int
		why      string
	}{
		{".", "robotstxt", 46, "the core: what a user meets first, at most 70 names"},
		{"fetch", "fetch", 35, "fetching and caching, and no other job: at most 35 names"},
	} {
		names := exportedNames(t, filepath.Join(repoRoot(t), c.dir), c.pkg)
		if len(names) != c.want {
			t.Errorf("package %s exports %d names, want %d (%s): %v", c.pkg, len(names), c.want, c.why, names)
		}
	}
}

// exportedNames returns the exported top-level names of package pkg in
// dir, its tests left out: functions without a receiver, types, and each
// name of a const or var declaration.
func exportedNames(t *testing.T, dir, pkg string) []string {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := pkgs[pkg]
	if !ok {
		t.Fatalf("no package %s in %s", pkg, dir)
	}
	var names []string
	for _, f := range p.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return names
}
