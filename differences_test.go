package robotstxt

import (
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDifferencesList holds the package documentation's "Differences from
// RFC 9309", the one copy of that list (the README links to it), to what
// Parse does: every misspelled key it names is read, and the README keeps
// no copy of the list.
func TestDifferencesList(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "robotstxt.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	i := strings.Index(doc, "# Differences from RFC 9309")
	j := strings.Index(doc, "Crawl-delay, which neither")
	if i < 0 || j < i {
		t.Fatal("no \"Differences from RFC 9309\" section in the package documentation")
	}
	list := doc[i:j]
	keys := list[strings.Index(list, "common typos:"):strings.Index(list, "all count")]
	spellings := regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(keys, -1)
	if len(spellings) < 7 {
		t.Fatalf("the list of keys names %d spellings: %q", len(spellings), keys)
	}
	for _, m := range spellings {
		k := strings.TrimSuffix(m[1], ":")
		switch {
		case strings.Contains(strings.ToLower(k), "agent"):
			r := Parse([]byte(k + ": Foobot\nDisallow: /x\n"))
			if r.Allowed("Foobot", "/x") {
				t.Errorf("%q is not read as User-agent", k)
			}
		case strings.Contains(strings.ToLower(k), "map"):
			r := Parse([]byte(k + ": https://example.com/s.xml\n"))
			if len(r.Sitemaps()) != 1 {
				t.Errorf("%q is not read as Sitemap", k)
			}
		default:
			r := Parse([]byte("User-agent: *\n" + k + ": /x\n"))
			if r.Allowed("Foobot", "/x") {
				t.Errorf("%q is not read as Disallow", k)
			}
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(readme), "A line keeps at most") || !strings.Contains(string(readme), "#hdr-Differences_from_RFC_9309") {
		t.Error("README.md keeps its own copy of the list, or no link to the package documentation's")
	}
}
