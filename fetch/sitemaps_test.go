package fetch

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

func TestResultSitemaps(t *testing.T) {
	tests := []struct {
		robots, final string
		body          string
		want          []string
		reason        string
	}{
		{"http://example.com/robots.txt", "", "Sitemap: /sitemap.xml\n",
			[]string{"http://example.com/sitemap.xml"}, "a relative path is resolved against the robots.txt URL"},
		{"https://example.com/robots.txt", "", "Sitemap: sitemaps/a.xml\n",
			[]string{"https://example.com/sitemaps/a.xml"}, "a relative path without '/' too"},
		{"http://example.com/robots.txt", "https://www.example.com/robots.txt", "Sitemap: /s.xml\n",
			[]string{"https://www.example.com/s.xml"}, "RFC 3986 §5.1.3: after redirects, against the URL that answered"},
		{"http://example.com/robots.txt", "", "Sitemap: //cdn.example/s.xml\n",
			[]string{"http://cdn.example/s.xml"}, "a network-path reference takes the scheme"},
		{"http://example.com/robots.txt", "", "Sitemap: https://other.example/s.xml\n",
			[]string{"https://other.example/s.xml"}, "an absolute URL is kept as written"},
		{"http://example.com/robots.txt", "", "Sitemap: https://example.com/ü.xml\nSitemap: /ü.xml\n",
			[]string{"https://example.com/ü.xml", "http://example.com/%C3%BC.xml"}, "absolute kept as written; resolved ones are escaped by net/url"},
		{"http://example.com/robots.txt", "", "Sitemap: /s.xml\nSitemap: http://example.com/s.xml\nSitemap: s.xml\n",
			[]string{"http://example.com/s.xml"}, "duplicates after resolution are dropped, file order kept"},
		{"http://example.com/robots.txt", "", "Sitemap: http://[::1/x\nSitemap: /ok.xml\n",
			[]string{"http://example.com/ok.xml"}, "a value that is no URL reference is left out"},
		{"http://example.com/robots.txt", "", "User-agent: *\nDisallow: /\n", nil, "no sitemaps"},
	}
	for _, tt := range tests {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{"example.com": {Body: tt.body}}, nil)
		res, err := Fetch(context.Background(), sites.Client(), "", "http://example.com/")
		if err != nil {
			t.Fatal(err)
		}
		res.RobotsURL, res.FinalURL = tt.robots, tt.final
		if got := res.Sitemaps(); !slices.Equal(got, tt.want) {
			t.Errorf("%q from %s (final %q): Sitemaps() = %q, want %q (%s)", tt.body, tt.robots, tt.final, got, tt.want, tt.reason)
		}
	}
}

// TestRulesSitemaps checks the cache's view: the sitemaps of the rules in
// effect, resolved against where they were fetched, after a redirect too.
func TestRulesSitemaps(t *testing.T) {
	sites := fetchtest.NewSites(map[string]fetchtest.Answer{
		"example.com":     {Status: 301, Header: http.Header{"Location": {"https://www.example.com/robots.txt"}}},
		"www.example.com": {Body: "Sitemap: /sitemap.xml\n"},
		"down.example":    {Status: 503},
	}, nil)
	c := NewCache(&Options{Client: sites.Client()})
	r, err := c.File(context.Background(), "http://example.com/page")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Sitemaps(), []string{"https://www.example.com/sitemap.xml"}; !slices.Equal(got, want) {
		t.Errorf("File.Sitemaps() = %q, want %q", got, want)
	}
	r, _ = c.File(context.Background(), "http://down.example/")
	if got := r.Sitemaps(); got != nil {
		t.Errorf("unreachable rules: Sitemaps() = %q, want none", got)
	}
	if got := (File{}).Sitemaps(); got != nil {
		t.Errorf("zero File: Sitemaps() = %q, want none", got)
	}
}
