package sitemap_test

import (
	"fmt"
	"strings"

	"github.com/robotstxt-go/robotstxt/sitemap"
)

// A sitemap is read as a stream: each entry is yielded as soon as its
// </url> is read, and what is wrong is a finding, not an error.
func ExampleReader_All() {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/catalog/show?item=1&amp;color=red</loc><lastmod>2026-11-01</lastmod></url>
  <url><loc>https://example.com/admin/</loc></url>
  <url><loc>https://example.com/catalog/show?item=2</loc><changefreq>daily</changefreq><priority>0.9</priority></url>
</urlset>`
	r := sitemap.NewReader(strings.NewReader(doc), &sitemap.Options{URL: "https://example.com/catalog/sitemap.xml"})
	for e, err := range r.All() {
		if err != nil {
			fmt.Println("read failed:", err)
			return
		}
		fmt.Printf("%s [%s|%s|%s]\n", e.Loc, e.LastMod, e.ChangeFreq, e.Priority)
	}
	for _, f := range r.Findings() {
		fmt.Println(f)
	}
	// Output:
	// https://example.com/catalog/show?item=1&color=red [2026-11-01||]
	// https://example.com/catalog/show?item=2 [|daily|0.9]
	// https://example.com/catalog/sitemap.xml:4: outside: outside what https://example.com/catalog/sitemap.xml may list: dropped (https://example.com/admin/)
}

// InScope is the location rule of sitemaps.org: a sitemap lists URLs of
// its own directory, host, scheme and port.
func ExampleInScope() {
	const sm = "http://example.com/catalog/sitemap.xml"
	for _, u := range []string{
		"http://example.com/catalog/show?item=1",
		"http://example.com/images/a.png",
		"https://example.com/catalog/show?item=1",
		"http://example.com/catalog/../admin",
	} {
		fmt.Println(sitemap.InScope(sm, u), u)
	}
	// Output:
	// true http://example.com/catalog/show?item=1
	// false http://example.com/images/a.png
	// false https://example.com/catalog/show?item=1
	// false http://example.com/catalog/../admin
}
