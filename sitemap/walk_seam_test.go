package sitemap_test

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// TestSitemapDecisionIsTransport holds the decision an entry carries to
// what the Transport does with its URL: for random robots.txt files and
// sitemaps listing URLs of every shape (entity-escaped "&" and "<",
// non-ASCII, %-escapes in either case, queries), an entry whose Decision
// allows it is sent, and one whose Decision disallows it is refused with
// ErrDisallowed, naming the same line, and never reaches the site. The
// sitemap is on another host, which the site's robots.txt names.
func TestSitemapDecisionIsTransport(t *testing.T) {
	rnd := rand.New(rand.NewPCG(30, 7))
	pieces := []string{"a", "%20", "ü", "%c3%bc", "%C3%BC", "%7e", "~", "<", ">", "&", "%3c", "private/", "?q=1&r=2", "*", "$"}
	path := func(n int) string {
		p := "/"
		for range rnd.IntN(n) {
			p += pieces[rnd.IntN(len(pieces))]
		}
		return p
	}
	escape := strings.NewReplacer("&", "&amp;", "<", "&lt;")
	sent, refusedN := 0, 0
	for i := range 40 {
		var robots strings.Builder
		for range 1 + rnd.IntN(2) {
			robots.WriteString("User-agent: " + []string{"*", "Foobot"}[rnd.IntN(2)] + "\n")
			for range rnd.IntN(5) {
				robots.WriteString([]string{"Allow: ", "Disallow: "}[rnd.IntN(2)] + path(2) + "\n")
			}
		}
		// The sitemap is on another host, which robots.txt names it on
		// (cross-submission), so that "Disallow: /" leaves it readable.
		robots.WriteString("Sitemap: https://maps.example.com/sitemap.xml\n")
		var sm strings.Builder
		sm.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for range 12 {
			sm.WriteString("<url><loc>https://example.com" + escape.Replace(path(4)) + "</loc></url>\n")
		}
		sm.WriteString("</urlset>")
		var mu sync.Mutex
		reached := map[string]bool{}
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"example.com": {Body: robots.String()}, "maps.example.com": {Body: "User-agent: *\nAllow: /\n"}},
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Host == "maps.example.com" {
					w.Header().Set("Content-Type", "application/xml")
					io.WriteString(w, sm.String())
					return
				}
				mu.Lock()
				reached[r.URL.RequestURI()] = true
				mu.Unlock()
			}))
		cache := fetch.NewCache(&fetch.Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
		transport := fetch.NewTransport(sites, cache)
		client := &http.Client{Transport: transport}
		ctx := context.Background()
		for e, err := range sitemap.Walk(ctx, "https://example.com/", &sitemap.WalkOptions{Cache: cache, Transport: transport, Decide: true}) {
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Get(e.Loc)
			var refused *fetch.DisallowedError
			switch {
			case errors.As(err, &refused):
				refusedN++
				if e.Decision.Allowed || refused.Line != e.Decision.Line {
					t.Errorf("file %d: %q: Decision allowed %v line %d, the Transport refused it by line %d\n%s",
						i, e.Loc, e.Decision.Allowed, e.Decision.Line, refused.Line, robots.String())
				}
				u, _ := url.Parse(refused.URL)
				mu.Lock()
				if reached[u.RequestURI()] {
					t.Errorf("%q refused, but the site was asked for it", e.Loc)
				}
				mu.Unlock()
			case err != nil:
				t.Fatalf("%q: %v", e.Loc, err)
			default:
				resp.Body.Close()
				sent++
				if !e.Decision.Allowed {
					t.Errorf("file %d: %q: Decision disallows it (line %d), the Transport sent it\n%s", i, e.Loc, e.Decision.Line, robots.String())
				}
			}
		}
	}
	t.Logf("%d entries sent, %d refused", sent, refusedN)
	if sent < 30 || refusedN < 30 {
		t.Errorf("%d entries sent and %d refused: the files should give many of each", sent, refusedN)
	}
}
