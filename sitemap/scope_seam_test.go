package sitemap_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// TestScopeOriginSeam pins the seam between sitemap scope and the root's
// origin (STYLE §10): whether a URL is in a sitemap's scope depends on its
// origin as robotstxt.Origin writes it, so spellings of one origin that
// Origin takes for the same (host case, an explicit default port, a
// Unicode host and its Punycode form) give one answer, and Prefix's
// origin is Origin's.
func TestScopeOriginSeam(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 29))
	pick := func(s ...string) string { return s[rnd.IntN(len(s))] }
	hosts := [][]string{ // spellings of one host
		{"example.com", "EXAMPLE.com", "Example.COM"},
		{"münchen.example", "xn--mnchen-3ya.example", "MÜNCHEN.example"},
		{"127.0.0.1"},
		{"[2001:db8::1]", "[2001:DB8:0::1]"},
	}
	ports := map[string][]string{"http": {"", ":80"}, "https": {"", ":443"}}
	dirs := []string{"/", "/catalog/", "/a/b/"}
	spell := func(scheme string, host int, path string) string {
		return pick(scheme, strings.ToUpper(scheme)) + "://" + pick(hosts[host]...) + pick(ports[scheme]...) + path
	}
	for range 5000 {
		scheme := pick("http", "https")
		host := rnd.IntN(len(hosts))
		dir := pick(dirs...)
		sm := spell(scheme, host, dir+"sitemap.xml")
		lscheme, lhost := scheme, host
		if rnd.IntN(4) == 0 {
			lscheme, lhost = pick("http", "https"), rnd.IntN(len(hosts))
		}
		loc := spell(lscheme, lhost, pick(dirs...)+pick("x", "y?q=1", ""))

		origin, err := robotstxt.Origin(sm)
		if err != nil {
			t.Fatalf("Origin(%q): %v", sm, err)
		}
		prefix, ok := sitemap.Prefix(sm)
		if !ok || prefix != origin+dir {
			t.Fatalf("Prefix(%q) = %q, %v; want %q (robotstxt.Origin and the directory)", sm, prefix, ok, origin+dir)
		}
		canonLoc, err := robotstxt.Origin(loc)
		if err != nil {
			t.Fatalf("Origin(%q): %v", loc, err)
		}
		locPath := loc[strings.Index(loc, "://")+3:]
		locPath = locPath[strings.IndexAny(locPath, "/"):]
		want := canonLoc == origin && strings.HasPrefix(locPath, dir)
		if got := sitemap.InScope(sm, loc); got != want {
			t.Fatalf("InScope(%q, %q) = %v; want %v (origins %q, %q)", sm, loc, got, want, origin, canonLoc)
		}
	}
}
