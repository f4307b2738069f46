package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples holds each README snippet marked with the Example
// function it is taken from (<!-- example: dir/file_test.go ExampleName -->)
// to that function, which go test runs: every line of the snippet but its
// comments is a line of the example's body. The snippet may leave out the
// example's set-up (test servers, the URLs it crawls) and show its parts
// in the order a reader meets them (the middleware before the handler it
// wraps); what it shows runs.
func TestReadmeExamples(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, s := range readmeSnippets(string(readme)) {
		if s.example == "" {
			continue
		}
		marked++
		file, name, _ := strings.Cut(s.example, " ")
		body := exampleBody(t, filepath.Join(root, file), name)
		have := map[string]bool{}
		for _, l := range codeLines(body) {
			have[l] = true
		}
		for _, l := range codeLines(s.code) {
			if !have[l] {
				t.Errorf("README.md:%d: line %q is not in %s's body (%s)", s.line, l, name, file)
			}
		}
	}
	if marked < 2 {
		t.Errorf("README.md marks %d snippets with their Example function, want the worker pool's and the middleware's at least", marked)
	}
}

// exampleBody returns the source of the body of function name in file.
func exampleBody(t *testing.T, file, name string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name && fn.Body != nil {
			return string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
		}
	}
	t.Fatalf("%s has no function %s", file, name)
	return ""
}

// codeLines returns the lines of src that are code, trimmed: neither empty
// nor a comment.
func codeLines(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			out = append(out, l)
		}
	}
	return out
}
