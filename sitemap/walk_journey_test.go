package sitemap_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// TestCrawlerFollowsSitemaps is the crawler of the README: one identity,
// a Pacer and the Transport in front of every request. It follows the
// sitemaps of a local site and fetches the pages they list that
// robots.txt allows it, and no other: first by asking each entry's
// Decision, then by leaving it to the Transport.
func TestCrawlerFollowsSitemaps(t *testing.T) {
	const ua = "Foobot/1.0 (+https://foo.example/bot)"
	var mu sync.Mutex
	var pages []string
	var agents []string
	page := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		pages = append(pages, r.URL.Path)
		mu.Unlock()
		io.WriteString(w, "<html><body>page</body></html>")
	}
	routes := map[string]http.HandlerFunc{
		"/robots.txt":            text("text/plain", "User-agent: *\nDisallow: /\n\nUser-agent: Foobot\nDisallow: /drafts/\nAllow: /\n\nSitemap: /sitemap_index.xml\n"),
		"/sitemap_index.xml":     text(xmlType, index("{host}/sitemaps/products.xml", "{host}/sitemaps/news.txt")),
		"/sitemaps/products.xml": text(xmlType, urlset("{host}/", "{host}/products/1", "{host}/drafts/launch", "{host}/products/2?ref=a&amp;x=1")),
		"/sitemaps/news.txt":     text("text/plain", "{host}/news/today\n{host}/drafts/tomorrow\n"),
	}
	for _, p := range []string{"/", "/products/1", "/products/2", "/drafts/launch", "/news/today", "/drafts/tomorrow"} {
		routes[p] = page
	}
	for p, h := range routes {
		routes[p] = func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			agents = append(agents, r.UserAgent())
			mu.Unlock()
			h(w, r)
		}
	}
	s := serve(t, routes)
	allowed := []string{"/", "/products/1", "/products/2", "/news/today"}

	for _, trust := range []string{"decision", "transport"} {
		t.Run(trust, func(t *testing.T) {
			mu.Lock()
			pages, agents = nil, nil
			mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			// The README's crawler.
			cache := fetch.NewCache(&fetch.Options{UserAgent: ua})
			pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache, Delay: 5 * time.Millisecond})
			transport := fetch.NewTransport(nil, cache).WithPacer(pacer)
			client := &http.Client{Transport: transport, Timeout: 10 * time.Second}

			refused := 0
			for e, err := range sitemap.Walk(ctx, s.URL, &sitemap.WalkOptions{Cache: cache, Transport: transport, Decide: true}) {
				if err != nil {
					t.Fatal(err)
				}
				if trust == "decision" && !e.Decision.Allowed {
					continue
				}
				resp, err := client.Get(e.Loc)
				if errors.Is(err, fetch.ErrDisallowed) {
					refused++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			mu.Lock()
			defer mu.Unlock()
			got := slices.Clone(pages)
			slices.Sort(got)
			want := slices.Clone(allowed)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("pages fetched %v, want %v", got, want)
			}
			if wantRefused := map[string]int{"decision": 0, "transport": 2}[trust]; refused != wantRefused {
				t.Errorf("%d requests refused by the Transport, want %d", refused, wantRefused)
			}
			for _, a := range agents {
				if a != ua {
					t.Errorf("a request with User-Agent %q, want the crawler's %q", a, ua)
				}
			}
		})
	}
}
