package sitemap_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// A crawler follows the sitemaps a site's robots.txt names, through its
// own Transport, and gets each page with its decision. The sitemap lists a
// page on another host, which is dropped: that host's robots.txt does not
// name the sitemap.
func ExampleWalk() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /drafts/\n\nSitemap: /sitemap.xml\n")
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, strings.ReplaceAll(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>HOST/products/1</loc><lastmod>2026-11-01</lastmod></url>
<url><loc>HOST/drafts/launch</loc></url>
<url><loc>http://elsewhere.invalid/x</loc></url>
</urlset>`, "HOST", "http://"+r.Host))
		}
	}))
	defer site.Close()

	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	transport := fetch.NewTransport(nil, cache)
	walk := sitemap.Walk(context.Background(), site.URL, &sitemap.WalkOptions{
		Cache: cache, Transport: transport, Decide: true,
		OnFinding: func(f sitemap.Finding) { fmt.Println("finding:", f.Code, f.URL) },
	})
	for e, err := range walk {
		if err != nil {
			fmt.Println(err)
			return
		}
		u, _ := url.Parse(e.Loc)
		fmt.Println(u.Path, e.LastMod, e.Decision.Allowed, e.Decision.Line)
	}
	// Output:
	// /products/1 2026-11-01 true 0
	// /drafts/launch  false 2
	// finding: outside http://elsewhere.invalid/x
}
