package aiuse

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

// TestMatrixNeverContradicts: over random files, headers and pages, no
// cell of the matrix contradicts the per-signal answers it is made from:
// robotstxt's Allowed and Usage (Combined), the page's headers and its
// robots rules as package pagerules reads them.
func TestMatrixNeverContradicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 49))
	agents := []string{"*", "Googlebot", "Google-Extended", "GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Applebot", "Applebot-Extended", "bingbot", "CCBot"}
	lines := []string{"Allow: /", "Disallow: /", "Disallow: /p", "Allow: /p/open", "Disallow: /*.pdf$", "Disallow:",
		"Content-Usage: train-ai=n", "Content-Usage: search=y, ai-use=n", "Content-Usage: /p train-ai=y",
		"Content-Signal: ai-train=no, search=yes", "Content-Signal: ai-input=yes,use=reference", "Content-Signal: /p ai-train=yes", "Crawl-delay: 2"}
	headers := []http.Header{nil,
		{"Content-Usage": {"train-ai=n"}}, {"Content-Usage": {"search=y, ai-use=y"}}, {"Content-Usage": {"train-ai=n,"}},
		{"Content-Signal": {"ai-train=yes, search=no"}}, {"X-Robots-Tag": {"noindex"}}, {"X-Robots-Tag": {"googlebot: noindex"}}}
	pages := []string{"", `<head><meta name="robots" content="noindex"></head>`, `<head><meta name="bingbot" content="noindex"></head>`}
	urls := []string{"/", "/p", "/p/open/x", "/a.pdf", "/q"}
	for iter := range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			for range 1 + rng.IntN(2) {
				b.WriteString("User-agent: " + agents[rng.IntN(len(agents))] + "\n")
			}
			for range rng.IntN(4) {
				b.WriteString(lines[rng.IntN(len(lines))] + "\n")
			}
		}
		r := robotstxt.Parse([]byte(b.String()))
		h := headers[rng.IntN(len(headers))]
		html := pages[rng.IntN(len(pages))]
		site := Site{Robots: r}
		if h != nil || html != "" {
			site.Page = ReadPage(h, []byte(html))
		}
		url := urls[rng.IntN(len(urls))]
		m := site.Matrix(url)
		for i, op := range m.Operators {
			for j, use := range m.Uses {
				a := m.Cells[i][j]
				if again := site.Ask(op, use, url); again.Verdict != a.Verdict || again.Decided != a.Decided {
					t.Fatalf("file %d: the matrix and Ask differ", iter)
				}
				checkCell(t, b.String(), h, html, url, r, a)
			}
		}
	}
}

func checkCell(t *testing.T, body string, h http.Header, html, url string, r *robotstxt.Robots, a Answer) {
	t.Helper()
	fail := func(why string) {
		t.Helper()
		t.Fatalf("%s %s %s: %v: %s\nfile:\n%s\nheader %v page %q\nsignals: %s", a.Operator, a.Use, url, a.Verdict, why, body, h, html, signalsText(a.Signals()))
	}
	g, ok := crawlers.GovernsFor(a.Operator, a.Use)
	if !ok {
		if a.Verdict != NoToken {
			fail("no token documented")
		}
		return
	}
	cat, sig, _ := categories(a.Use)
	crawlable := true
	for _, f := range g.Fetchers() {
		grp, _ := crawlers.Group(r, f)
		crawlable = crawlable && grp.Allowed(url)
	}
	if (a.Verdict == NotCrawlable) != !crawlable {
		fail("disagrees with Allowed for the fetching crawlers")
	}
	if !crawlable {
		return
	}
	no, yes := false, false
	tokens := append([]string{g.Token}, g.FetchedBy...)
	for _, tok := range tokens {
		grp, _ := crawlers.Group(r, tok)
		u := grp.Usage(url)
		if _, _, named := crawlers.Deciding(r, tok); named && u.Decision.Allowed && u.Decision.Line > 0 {
			yes = true // a group that names it allows the URL by a rule
		}
		if !u.Decision.Allowed {
			no = true // a control token's group disallows
			continue
		}
		switch u.Combined(cat) {
		case robotstxt.PrefNo:
			no = true
		case robotstxt.PrefYes:
			yes = true
		}
		if u.Signal(sig) == robotstxt.PrefNo {
			no = true
		}
	}
	if h != nil {
		if prefs, ok := robotstxt.ParseContentUsage(strings.Join(h.Values("Content-Usage"), ", ")); ok {
			no = no || prefs[cat] == robotstxt.PrefNo
			yes = yes || prefs[cat] == robotstxt.PrefYes
		}
		s, _ := robotstxt.ParseContentSignal(strings.Join(h.Values("Content-Signal"), ", "))
		no = no || s[sig] == robotstxt.PrefNo
		yes = yes || s[sig] == robotstxt.PrefYes
	}
	if a.Use == crawlers.UseSearch {
		for _, f := range g.Fetchers() {
			var pr pagerules.Rules
			pr.AddHeader(h, f)
			if html != "" {
				pr.AddMeta(strings.NewReader(html), f, 0)
			}
			if pr.Has(pagerules.NoIndex) {
				no = true
			}
		}
	}
	switch {
	case no && a.Verdict != NotAllowed:
		fail("a signal says no")
	case !no && a.Verdict == NotAllowed:
		fail("no signal says no")
	case !no && yes && a.Verdict != Allowed:
		fail("a signal says yes and none no")
	case !no && !yes && a.Verdict != NotStated:
		fail("no signal says yes or no")
	}
}
