package doccheck

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// modules are the patterns of every package of the repository, the
// workspace's modules included (go.work).
var modules = []string{"./...", "./audit/...", "./redisstore/...", "./bench/...", "./journeys/...", "./cmd/robotstxt/e2e/..."}

// goPackage is what go list tells of a package.
type goPackage struct {
	path, dir, name string
	imports         []string
	repo            bool // one of the repository's own packages
}

// repoRoot is the repository's root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// listPackages returns the repository's packages and all they import, by
// import path.
func listPackages(t *testing.T, root string) map[string]*goPackage {
	t.Helper()
	args := append([]string{"list", "-e", "-deps", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{.Name}}\t{{join .Imports \" \"}}\t{{.Module}}"}, modules...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*goPackage{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			t.Fatalf("go list printed %q", sc.Text())
		}
		p := &goPackage{path: f[0], dir: f[1], name: f[2], imports: strings.Fields(f[3])}
		p.repo = strings.HasPrefix(f[4], "github.com/robotstxt-go/robotstxt") && strings.HasPrefix(p.dir, root)
		pkgs[p.path] = p
	}
	return pkgs
}

// symbols are a package's top-level identifiers (key "Name") and the
// members of its types: methods, fields, interface methods (key
// "Type.Name").
type symbols map[string]bool

// readSymbols parses the non-test files of dir.
func readSymbols(t *testing.T, fset *token.FileSet, dir string) (symbols, []*ast.File) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	syms := symbols{}
	var files []*ast.File
	embeds := map[string][]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					syms[d.Name.Name] = true
					continue
				}
				syms[typeName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							syms[n.Name] = true
						}
					case *ast.TypeSpec:
						syms[s.Name.Name] = true
						var fields *ast.FieldList
						switch ty := s.Type.(type) {
						case *ast.StructType:
							fields = ty.Fields
						case *ast.InterfaceType:
							fields = ty.Methods
						}
						if fields == nil {
							continue
						}
						for _, fl := range fields.List {
							if len(fl.Names) == 0 {
								tn := typeName(fl.Type)
								syms[s.Name.Name+"."+tn] = true
								embeds[s.Name.Name] = append(embeds[s.Name.Name], tn)
							}
							for _, n := range fl.Names {
								syms[s.Name.Name+"."+n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	// Members promoted from a type embedded in another of the package.
	for outer, inner := range embeds {
		for _, in := range inner {
			for k := range syms {
				if rest, ok := strings.CutPrefix(k, in+"."); ok {
					syms[outer+"."+rest] = true
				}
			}
		}
	}
	return syms, files
}

// typeName is the name of a receiver's or an embedded field's type.
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// docComments returns the doc comments of a file: the package's, and
// those of its declarations, specs and fields.
func docComments(f *ast.File) []*ast.CommentGroup {
	var docs []*ast.CommentGroup
	ast.Inspect(f, func(n ast.Node) bool {
		var g *ast.CommentGroup
		switch n := n.(type) {
		case *ast.File:
			g = n.Doc
		case *ast.GenDecl:
			g = n.Doc
		case *ast.FuncDecl:
			g = n.Doc
		case *ast.TypeSpec:
			g = n.Doc
		case *ast.ValueSpec:
			g = n.Doc
		case *ast.Field:
			g = n.Doc
		}
		if g != nil {
			docs = append(docs, g)
		}
		return true
	})
	return docs
}

// docLinks returns the doc links of text as a [comment.Parser] finds them
// when it takes every bracketed name of the link's form for a link:
// "[Name]", "[Recv.Name]", "[pkg.Name]", "[pkg.Recv.Name]" and "[pkg]"
// ("pkg" as written, an import path or a name, in the characters of an
// import path). Whether each resolves is left to the caller.
func docLinks(text string) []*comment.DocLink {
	p := comment.Parser{
		LookupPackage: func(name string) (string, bool) {
			return name, strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/") == ""
		},
		LookupSym: func(recv, name string) bool { return true },
	}
	var links []*comment.DocLink
	var walk func(ts []comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				links = append(links, t)
			case *comment.Link:
				walk(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, b := range p.Parse(text).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			walk(b.Text)
		case *comment.Heading:
			walk(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		}
	}
	return links
}

// TestDocLinks resolves every doc link of the repository's packages: a
// [Name] or [Recv.Name] against the package's own identifiers, a
// [pkg.Name] against the package it imports under that name (or the
// standard library package of that path or name), as go doc and pkgsite
// resolve them (https://go.dev/doc/comment#doclinks). A link that does not
// resolve is shown as plain text, so a renamed identifier leaves a
// dangling reference.
func TestDocLinks(t *testing.T) {
	root := repoRoot(t)
	pkgs := listPackages(t, root)
	loaded := map[string]symbols{}
	symbolsOf := func(p *goPackage) symbols {
		if s, ok := loaded[p.path]; ok {
			return s
		}
		s, _ := readSymbols(t, token.NewFileSet(), p.dir)
		loaded[p.path] = s
		return s
	}
	std := map[string][]string{} // a standard package's name -> paths
	for path, p := range pkgs {
		if !strings.Contains(strings.Split(path, "/")[0], ".") {
			std[p.name] = append(std[p.name], path)
		}
	}
	var repo []*goPackage
	for _, p := range pkgs {
		if p.repo {
			repo = append(repo, p)
		}
	}
	sort.Slice(repo, func(i, j int) bool { return repo[i].path < repo[j].path })
	checked := 0
	for _, p := range repo {
		fset := token.NewFileSet()
		syms, files := readSymbols(t, fset, p.dir)
		loaded[p.path] = syms
		byName := map[string]*goPackage{}
		for _, imp := range p.imports {
			if q := pkgs[imp]; q != nil {
				byName[q.name] = q
			}
		}
		for _, f := range files {
			// An import renamed in this file.
			local := map[string]*goPackage{}
			for _, is := range f.Imports {
				if is.Name != nil {
					local[is.Name.Name] = pkgs[strings.Trim(is.Path.Value, `"`)]
				}
			}
			file := filepath.Base(fset.Position(f.Package).Filename)
			for _, g := range docComments(f) {
				for _, l := range docLinks(g.Text()) {
					checked++
					if !resolves(l, p, syms, byName, local, pkgs, std, symbolsOf) {
						t.Errorf("%s: doc link [%s] resolves to nothing in %s", p.path, linkText(l), file)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no doc link found: the walk is broken")
	}
	t.Logf("%d doc links in %d packages", checked, len(repo))
}

func resolves(l *comment.DocLink, p *goPackage, syms symbols, byName, local map[string]*goPackage,
	pkgs map[string]*goPackage, std map[string][]string, symbolsOf func(*goPackage) symbols) bool {
	member := l.Name
	if l.Recv != "" {
		member = l.Recv + "." + l.Name
	}
	if l.ImportPath == "" {
		if syms[member] {
			return true
		}
		// [pkg]: a package the file imports, or this package itself.
		_, imported := byName[l.Name]
		return l.Recv == "" && (imported || l.Name == p.name)
	}
	var q *goPackage
	switch {
	case local[l.ImportPath] != nil:
		q = local[l.ImportPath]
	case byName[l.ImportPath] != nil:
		q = byName[l.ImportPath]
	case l.ImportPath == p.name:
		q = p
	case pkgs[l.ImportPath] != nil:
		q = pkgs[l.ImportPath]
	case len(std[l.ImportPath]) == 1:
		q = pkgs[std[l.ImportPath][0]]
	}
	if l.Name == "" {
		// "[word]" in lower case is a package link when it names one, and
		// else prose in brackets, as go doc reads it.
		return true
	}
	if q == nil {
		return false
	}
	return symbolsOf(q)[member]
}

func linkText(l *comment.DocLink) string {
	s := l.Name
	if l.Recv != "" {
		s = l.Recv + "." + s
	}
	if l.ImportPath != "" {
		s = l.ImportPath + "." + s
	}
	return s
}
