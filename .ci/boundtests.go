//go:build ignore

// boundtests lists, for .ci/bounds, the tests that hold a bound on
// allocations or memory: the Test functions of each package that reach,
// directly or through the package's own helpers, testing.AllocsPerRun,
// runtime.ReadMemStats or a race-detector switch (raceEnabled,
// sitemaptest.Race), which such tests consult to skip or loosen their
// bound under -race. It prints one line per package directory:
//
//	DIR ^(TestA|TestB)$
//
// Usage: go run .ci/boundtests.go [ROOT]
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// markers are the names whose use makes a function a bound's holder.
var markers = map[string]bool{
	"AllocsPerRun": true, "ReadMemStats": true, "MemStats": true,
	"raceEnabled": true, "Race": true, "HeapLimit": true,
}

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, "_test.go") {
			dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], p)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		tests, err := boundTests(dirs[dir])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if len(tests) > 0 {
			fmt.Printf("%s ^(%s)$\n", dir, strings.Join(tests, "|"))
		}
	}
}

// boundTests returns the sorted Test functions of one directory's test
// files (every build tag: race and norace files alike) that reach a marker.
func boundTests(files []string) ([]string, error) {
	fset := token.NewFileSet()
	calls := map[string]map[string]bool{} // function -> names it uses
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil {
				continue
			}
			used := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					used[n.Name] = true
				case *ast.SelectorExpr:
					used[n.Sel.Name] = true
				}
				return true
			})
			if calls[fn.Name.Name] == nil {
				calls[fn.Name.Name] = used
			} else {
				for k := range used {
					calls[fn.Name.Name][k] = true
				}
			}
		}
	}
	// A function holds a bound when it uses a marker or a function of its
	// package that does: iterate to the fixed point.
	holds := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for fn, used := range calls {
			if holds[fn] {
				continue
			}
			for name := range used {
				if markers[name] || holds[name] && name != fn {
					holds[fn], changed = true, true
					break
				}
			}
		}
	}
	var tests []string
	for fn := range holds {
		if strings.HasPrefix(fn, "Test") && fn != "TestMain" {
			tests = append(tests, fn)
		}
	}
	slices.Sort(tests)
	return tests, nil
}
