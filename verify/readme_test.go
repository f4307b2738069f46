package verify

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeSnippet holds the README's snippet of this package to
// ExampleMiddleware, which compiles with the package: every line of the
// snippet but its comments is a line of the example.
func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- ExampleMiddleware[^\n]*-->\n(?:<!-- go:[^\n]*-->\n)?```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no snippet of ExampleMiddleware")
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(example), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(string(m[1]), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		if !lines[l] {
			t.Errorf("README line %q is not in ExampleMiddleware", l)
		}
	}
}
