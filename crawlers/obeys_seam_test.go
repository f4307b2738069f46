package crawlers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestGroupObeysIsFileRenamed holds Group for a crawler that obeys another
// token after its own (Googlebot-Image and Applebot obey Googlebot) to the
// core, through a model that reads no code of Group: for random files,
// when no group names the crawler and one names Googlebot, the crawler's
// answers (verdict, line, usage preferences, Crawl-delay) equal the core's
// answers for the crawler in the same file with every "User-agent:
// Googlebot" line renamed to the crawler, which keeps the line numbers.
// Otherwise they are the core's answers for the file as it is, without a
// note.
func TestGroupObeysIsFileRenamed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 7))
	paths := []string{"/", "/a", "/a/b", "/ü", "/p/*.pdf$", ""}
	lines := []string{"User-agent: *", "User-agent: Googlebot", "User-agent: Googlebot", "User-agent: Bingbot",
		"User-agent: Googlebot-Image", "User-agent: Applebot", "Disallow: %", "Allow: %", "Content-Usage: train-ai=n",
		"Content-Signal: search=yes, ai-train=no", "Crawl-delay: 4", ""}
	urls := []string{"/", "/a", "/a/b/c", "/%C3%BC", "/p/x.pdf", "/other"}
	fellBack, own := 0, 0
	for i := range 3000 {
		var b strings.Builder
		for range rnd.IntN(12) {
			b.WriteString(strings.Replace(lines[rnd.IntN(len(lines))], "%", paths[rnd.IntN(len(paths))], 1) + "\n")
		}
		file := b.String()
		r := robotstxt.Parse([]byte(file))
		for _, token := range []string{"Googlebot-Image", "Googlebot-News", "Googlebot-Video", "Google-InspectionTool", "Applebot"} {
			c, _ := Lookup(token)
			g, note := c.Group(r)
			g0 := r.Group(token)
			if !r.NamesAgent(token) && r.NamesAgent("Googlebot") {
				fellBack++
				renamed := strings.ReplaceAll(file, "User-agent: Googlebot\n", "User-agent: "+token+"\n")
				g0 = robotstxt.Parse([]byte(renamed)).Group(token)
				if note == "" || !strings.Contains(note, c.Obeys[1].Source) {
					t.Fatalf("file %d %q: %s falls back to Googlebot with note %q", i, file, token, note)
				}
			} else {
				own += b2i(r.NamesAgent(token))
				if note != "" {
					t.Fatalf("file %d %q: %s has note %q", i, file, token, note)
				}
			}
			if d, ok := g.CrawlDelay(); true {
				if d0, ok0 := g0.CrawlDelay(); d != d0 || ok != ok0 {
					t.Fatalf("file %d %q: %s Crawl-delay %v %v, want %v %v", i, file, token, d, ok, d0, ok0)
				}
			}
			for _, u := range urls {
				if got, want := g.Usage(u), g0.Usage(u); got != want {
					t.Fatalf("file %d %q, %s, URL %s:\ncrawlers.Group: %+v\nthe renamed file: %+v", i, file, token, u, got, want)
				}
			}
			// The package-level Group answers as the table's crawler.
			if g1, note1 := Group(r, strings.ToLower(token)); note1 != note || g1.Decide("/a") != g.Decide("/a") {
				t.Fatalf("file %d: Group(r, %q) differs from the crawler's Group", i, token)
			}
		}
	}
	if fellBack < 2000 || own < 500 {
		t.Errorf("only %d fallbacks and %d own groups compared", fellBack, own)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
