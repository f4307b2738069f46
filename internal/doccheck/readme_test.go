package doccheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The README's Go snippets, and how TestReadmeSnippets builds them.
//
// A ```go block that starts with "package" is a whole file, built as it
// is. Any other block is the body of a function returning error, in a
// package of its own that declares, at package level, the names the
// README's snippets share (readmeVocabulary: the parsed file r, the
// crawler's cache, pacer, client and queue, a URL u...). A block may
// declare more, or give a shared name another type, in an HTML comment
// on the line just above its fence, whose Go declarations open the
// function:
//
//	<!-- go: var queue func(string) -->
//
// The body is read as a reader reads it: "{ ... }" is an empty block, a
// line that only names a value ("u.Decision") reads it, and a variable
// the snippet declares and leaves unused is used. The imports are those
// of the package names the snippet uses: the repository's packages and
// those of readmeImports.
const readmeVocabulary = `
var (
	body       []byte
	urls       []string
	agents     []string
	u, url     string
	href       string
	code       int
	ctx        context.Context
	r, r2      *robotstxt.Robots
	g          robotstxt.Group
	cache      *fetch.Cache
	pacer      *fetch.Pacer
	client     *http.Client
	queue      chan string
	sched      *fetch.Scheduler
	page       func(*http.Response) // the crawler's own reading of a page
	resp       *http.Response
	htmlHead   []byte // the head of the page resp brings
)
`

// readmeImports are the import paths of the package names a snippet may
// use without importing them, besides the repository's own packages
// (repoImports).
var readmeImports = map[string]string{
	"redis":   "github.com/redis/go-redis/v9",
	"colly":   "github.com/gocolly/colly/v2",
	"http":    "net/http",
	"context": "context",
	"errors":  "errors",
	"fmt":     "fmt",
	"io":      "io",
	"log":     "log",
	"os":      "os",
	"slog":    "log/slog",
	"strings": "strings",
	"sync":    "sync",
	"time":    "time",
}

// snippet is one ```go block of the README.
type snippet struct {
	line     int // of the fence
	preamble string
	code     string
	example  string // "dir/file_test.go ExampleName", or ""
}

// preambleRE finds a <!-- go: ... --> comment that ends just before a
// fence, not reaching into an earlier comment.
var preambleRE = regexp.MustCompile(`<!--\s*go:((?:[^-]|-[^-]|--[^>])*)-->\s*$`)

// exampleRE finds, among the two lines before a fence, the Example function
// the snippet is taken from: <!-- example: dir/file_test.go ExampleName -->.
var exampleRE = regexp.MustCompile(`<!-- example: (\S+ Example\w*) -->`)

// readmeSnippets returns the README's ```go blocks.
func readmeSnippets(readme string) []snippet {
	var out []snippet
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		s := snippet{line: i + 1}
		if m := preambleRE.FindStringSubmatch(strings.Join(lines[max(0, i-20):i], "\n")); m != nil {
			s.preamble = m[1]
		}
		if m := exampleRE.FindStringSubmatch(strings.Join(lines[max(0, i-2):i], "\n")); m != nil {
			s.example = m[1]
		}
		var code []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			code = append(code, lines[i])
		}
		s.code = strings.Join(code, "\n")
		out = append(out, s)
	}
	return out
}

// repoImports adds to readmeImports the repository's packages that a
// program can import, by name.
func repoImports(t *testing.T, root string) {
	t.Helper()
	for path, p := range listPackages(t, root) {
		if p.repo && p.name != "main" && !strings.Contains(path, "/internal/") {
			if old, ok := readmeImports[p.name]; !ok || len(path) < len(old) {
				readmeImports[p.name] = path
			}
		}
	}
}

// goFile returns the package main that holds s.
func (s snippet) goFile() ([]byte, error) {
	if strings.HasPrefix(strings.TrimSpace(s.code), "package ") {
		return []byte(s.code), nil
	}
	body := strings.ReplaceAll(s.code, "{ ... }", "{}")
	src := "package main\n" + readmeVocabulary + "\nfunc main() { _ = snippet }\n\nfunc snippet() error {\n" +
		s.preamble + "\n" + body + "\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", src, parser.ParseComments)
	if err != nil {
		return []byte(src), err
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Name.Name == "snippet" {
			fn = d
		}
	}
	readAsReader(fn.Body)
	if n := len(fn.Body.List); n == 0 {
		fn.Body.List = append(fn.Body.List, &ast.ReturnStmt{Results: []ast.Expr{ast.NewIdent("nil")}})
	} else if _, ok := fn.Body.List[n-1].(*ast.ReturnStmt); !ok {
		fn.Body.List = append(fn.Body.List, &ast.ReturnStmt{Results: []ast.Expr{ast.NewIdent("nil")}})
	}
	// The imports of the package names left unresolved.
	var paths []string
	seen := map[string]bool{}
	for _, id := range f.Unresolved {
		if p, ok := readmeImports[id.Name]; ok && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var buf bytes.Buffer
	buf.WriteString("package main\n\nimport (\n")
	for _, p := range paths {
		fmt.Fprintf(&buf, "\t%q\n", p)
	}
	buf.WriteString(")\n\n")
	for _, d := range f.Decls {
		if err := printer.Fprint(&buf, fset, d); err != nil {
			return nil, err
		}
		buf.WriteString("\n\n")
	}
	return buf.Bytes(), nil
}

// readAsReader rewrites the statements of a block as a reader reads them:
// a statement that only names a value reads it (_ = v), and each variable
// a statement declares is then used (_ = x), as are the variables of a
// range clause.
func readAsReader(b *ast.BlockStmt) {
	var fix func(list []ast.Stmt) []ast.Stmt
	use := func(names ...*ast.Ident) []ast.Stmt {
		var out []ast.Stmt
		for _, n := range names {
			if n != nil && n.Name != "_" {
				// _ = &x: a variable of a type that holds a lock is not copied.
				out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN,
					Rhs: []ast.Expr{&ast.UnaryExpr{Op: token.AND, X: ast.NewIdent(n.Name)}}})
			}
		}
		return out
	}
	idents := func(es []ast.Expr) []*ast.Ident {
		var out []*ast.Ident
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				out = append(out, id)
			}
		}
		return out
	}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt:
				n.List = fix(n.List)
			case *ast.CaseClause:
				n.Body = fix(n.Body)
			case *ast.CommClause:
				n.Body = fix(n.Body)
			case *ast.RangeStmt:
				var vars []*ast.Ident
				if n.Tok == token.DEFINE {
					vars = idents([]ast.Expr{n.Key, n.Value})
				}
				n.Body.List = append(use(vars...), n.Body.List...)
			}
			return true
		})
	}
	fix = func(list []ast.Stmt) []ast.Stmt {
		var out []ast.Stmt
		for _, s := range list {
			switch st := s.(type) {
			case *ast.ExprStmt:
				switch x := st.X.(type) {
				case *ast.CallExpr:
				case *ast.UnaryExpr:
					if x.Op == token.ARROW {
						break
					}
					s = &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{st.X}}
				default:
					s = &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{st.X}}
				}
				out = append(out, s)
			case *ast.AssignStmt:
				out = append(out, s)
				if st.Tok == token.DEFINE {
					out = append(out, use(idents(st.Lhs)...)...)
				}
			case *ast.DeclStmt:
				out = append(out, s)
				if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
					for _, sp := range gd.Specs {
						out = append(out, use(sp.(*ast.ValueSpec).Names...)...)
					}
				}
			default:
				out = append(out, s)
			}
		}
		return out
	}
	walk(b)
}

// workspaceFor writes, in dir, a go.work of the repository's workspace
// (its modules and replacements, by absolute path) with dir/mod added, and
// the repository's go.work.sum.
func workspaceFor(t *testing.T, root, dir string) string {
	t.Helper()
	cmd := exec.Command("go", "work", "edit", "-json")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go work edit -json: %v", err)
	}
	var w struct {
		Go      string
		Use     []struct{ DiskPath string }
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &w); err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string {
		if strings.HasPrefix(p, ".") {
			return filepath.Join(root, p)
		}
		return p
	}
	var b strings.Builder
	fmt.Fprintf(&b, "go %s\n\nuse (\n\t%s\n", w.Go, filepath.Join(dir, "mod"))
	for _, u := range w.Use {
		fmt.Fprintf(&b, "\t%s\n", abs(u.DiskPath))
	}
	b.WriteString(")\n")
	for _, r := range w.Replace {
		fmt.Fprintf(&b, "\nreplace %s %s => %s %s\n", r.Old.Path, r.Old.Version, abs(r.New.Path), r.New.Version)
	}
	work := filepath.Join(dir, "go.work")
	if err := os.WriteFile(work, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := os.ReadFile(filepath.Join(root, "go.work.sum")); err == nil {
		if err := os.WriteFile(work+".sum", sum, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return work
}

// TestReadmeSnippets builds and vets every ```go block of README.md (see
// readmeVocabulary for how a block becomes a package), in a module of a
// workspace made of the repository's own: a snippet that calls what the
// library does not have, or mixes up a name, fails here.
func TestReadmeSnippets(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed: %v", err)
	}
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	repoImports(t, root)
	snippets := readmeSnippets(string(readme))
	if len(snippets) == 0 {
		t.Fatal("no ```go block in README.md")
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module readme.example/snippets\n\ngo 1.26.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	work := workspaceFor(t, root, dir)
	files := map[string]snippet{}
	for _, s := range snippets {
		src, err := s.goFile()
		name := fmt.Sprintf("line%d", s.line)
		if err != nil {
			t.Errorf("README.md:%d: the ```go block does not parse as a body: %v\n%s", s.line, err, numbered(src))
			continue
		}
		if err := os.MkdirAll(filepath.Join(mod, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name, "main.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = s
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK="+work, "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Logf("%d snippets build and vet", len(files))
		return
	}
	// Name the README line of each block that fails, with its package.
	failed := false
	for name, s := range files {
		if bytes.Contains(out, []byte(name+"/")) || bytes.Contains(out, []byte("/"+name+"\n")) {
			failed = true
			src, _ := os.ReadFile(filepath.Join(mod, name, "main.go"))
			t.Errorf("README.md:%d: the ```go block does not build (go vet below; its package as built). "+
				"A name it uses without declaring it can be declared in a <!-- go: ... --> comment just above its fence, "+
				"or, when several snippets share it, in readmeVocabulary:\n%s", s.line, numbered(src))
		}
	}
	if !failed {
		t.Errorf("go vet failed")
	}
	t.Logf("go vet:\n%s", out)
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, l := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

// TestReadmeSnippetForms pins how a block becomes a package: what a reader
// takes for granted in a snippet is made Go, and nothing else.
func TestReadmeSnippetForms(t *testing.T) {
	repoImports(t, repoRoot(t))
	readme := "text\n\n```go\nif r.Allowed(\"a\", u) { ... }\nd := r.Decide(\"a\", u)\nd.Line\n```\n\n" +
		"<!-- go: other comment -->\n\nmore text\n\n```go\npackage main\n\nfunc main() {}\n```\n\n" +
		"<!-- go:\nvar queue func(string)\n-->\n```go\nqueue(u)\n```\n"
	ss := readmeSnippets(readme)
	if len(ss) != 3 {
		t.Fatalf("%d snippets, want 3", len(ss))
	}
	for _, c := range []struct {
		i    int
		want []string // in the package built
		not  []string
		why  string
	}{
		{0, []string{"if r.Allowed(\"a\", u) {\n\t}", "_ = &d", "_ = d.Line", `"github.com/robotstxt-go/robotstxt"`, "return nil"}, []string{"..."},
			"{ ... } is an empty block, a value named alone is read, a declared variable is used, imports come from the names used"},
		{1, []string{"package main\n\nfunc main() {}"}, []string{"snippet"}, "a whole file is built as it is"},
		{2, []string{"var queue func(string)", "queue(u)"}, []string{"other comment"}, "the preamble just above the fence, and only it, opens the body"},
	} {
		if c.i == 2 && ss[c.i].preamble == "" {
			t.Errorf("snippet %d: no preamble read: %s", c.i, c.why)
		}
		if c.i == 1 && ss[c.i].preamble != "" {
			t.Errorf("snippet %d: preamble %q read from a comment that does not end at its fence", c.i, ss[c.i].preamble)
		}
		src, err := ss[c.i].goFile()
		if err != nil {
			t.Fatalf("snippet %d: %v\n%s", c.i, err, src)
		}
		for _, w := range c.want {
			if !strings.Contains(string(src), w) {
				t.Errorf("snippet %d: no %q in\n%s\n(%s)", c.i, w, src, c.why)
			}
		}
		for _, w := range c.not {
			if strings.Contains(string(src), w) {
				t.Errorf("snippet %d: %q in\n%s\n(%s)", c.i, w, src, c.why)
			}
		}
	}
}
