package aiuse_test

import (
	"fmt"
	"net/http"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/aiuse"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// A site that keeps Gemini training out of its articles but stays in
// Google Search, as its webmaster checks after editing robots.txt.
func ExampleSite_Ask() {
	site := aiuse.Site{Robots: robotstxt.Parse([]byte(`User-agent: *
Content-Signal: search=yes, ai-train=no
Allow: /

User-agent: Google-Extended
Disallow: /articles/
`))}
	for _, use := range []crawlers.Use{crawlers.UseTraining, crawlers.UseSearch} {
		a := site.Ask("Google", use, "https://example.com/articles/1")
		s, _ := a.Decider()
		fmt.Printf("%s: %s, by %s\n", use, a.Verdict, s)
	}
	// Output:
	// training: not allowed, by robots.txt line 6 (Google-Extended): Disallow: /articles/
	// search: allowed, by robots.txt Content-Signal line 2 (Googlebot): search=yes
}

// A crawler author reads a page's own signals before using it.
func ExampleReadPage() {
	h := http.Header{"Content-Usage": {"train-ai=n"}, "Content-Type": {"text/html"}}
	site := aiuse.Site{Robots: robotstxt.Parse(nil), Page: aiuse.ReadPage(h, []byte("<html><head></head></html>"))}
	a := site.Ask("OpenAI", crawlers.UseTraining, "https://example.com/a")
	s, _ := a.Decider()
	fmt.Println(a.Verdict, "by", s)
	// Output:
	// not allowed by Content-Usage header: train-ai=n
}
