package crawlers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestGroupIgnoringGlobalIsFileWithoutGlobal holds crawlers.Group for a
// crawler that ignores "*" to the core: for random files that name it in
// no group, its answers (verdict, line, usage preferences with their lines,
// Crawl-delay) equal the core's for the same file in which every
// "User-agent: *" line names some other crawler instead, so that no group
// is global and the lines keep their numbers. The Content-Signal lines
// before the first group apply to it as to any crawler without a group.
func TestGroupIgnoringGlobalIsFileWithoutGlobal(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	paths := []string{"/", "/a", "/a/b", "/ü", "/a%20b", "/p/*.pdf$", ""}
	lines := []string{"User-agent: *", "User-agent: *", "User-agent: Googlebot", "User-agent: Bingbot",
		"Disallow: %", "Allow: %", "Content-Usage: train-ai=n", "Content-Usage: % train-ai=y", "Content-Signal: search=yes, ai-train=no",
		"Crawl-delay: 4", "Foo: bar", ""}
	urls := []string{"/", "/a", "/a/b/c", "/%C3%BC", "/a%20b", "/p/x.pdf", "/other"}
	compared := 0
	for i := range 2000 {
		var b strings.Builder
		if rnd.IntN(2) == 0 {
			b.WriteString("Content-Signal: ai-input=no\n")
		}
		for range rnd.IntN(12) {
			b.WriteString(strings.Replace(lines[rnd.IntN(len(lines))], "%", paths[rnd.IntN(len(paths))], 1) + "\n")
		}
		file := b.String()
		without := strings.ReplaceAll(file, "User-agent: *\n", "User-agent: Nobot\n")
		r, r0 := robotstxt.Parse([]byte(file)), robotstxt.Parse([]byte(without))
		for _, c := range All() {
			if !c.IgnoresGlobal || r.NamesAgent(c.Token) {
				continue
			}
			g, note := Group(r, c.Token)
			g0 := r0.Group(c.Token)
			if note == "" {
				t.Fatalf("file %d %q: no note for %s", i, file, c.Token)
			}
			if d, d0 := g.CrawlDelay(); d != 0 || d0 {
				t.Fatalf("file %q: %s has Crawl-delay %v, %v", file, c.Token, d, d0)
			}
			for _, u := range urls {
				compared++
				if got, want := g.Usage(u), g0.Usage(u); got != want {
					t.Fatalf("file %d %q, %s, URL %s:\ncrawlers.Group: %+v\nthe file without a global group: %+v", i, file, c.Token, u, got, want)
				}
			}
		}
	}
	if compared < 1000 {
		t.Errorf("only %d answers compared", compared)
	}
}
