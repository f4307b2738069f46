package fetch_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

// TestCacheDecideIsUsage holds the Cache's answer to the core's on the
// same body: for random files (with a byte order mark, CRLF line ends,
// usage lines, a body past MaxBodySize) served over HTTP, and raw URLs of
// every shape (spaces, non-ASCII, %-escapes in either case, `"<>`,
// fragments, empty paths, IDNA hosts, default ports), Cache.Decide equals
// Parse of what a crawler reads (the first MaxBodySize bytes) asked
// Usage for the URL's NormalizeURL form, and Decide equals Decide for
// the Cache's own token.
func TestCacheDecideIsUsage(t *testing.T) {
	rnd := rand.New(rand.NewPCG(10, 17))
	pieces := []string{"a", "a b", "%20", "ü", "%c3%bc", "%C3%BC", "%7e", "~", `"`, "<", ">", "%3c", "private/", "?q=1", "*", "$"}
	path := func() string {
		p := "/"
		for range rnd.IntN(3) {
			p += pieces[rnd.IntN(len(pieces))]
		}
		return p
	}
	hosts := []string{"https://example.com", "https://EXAMPLE.com:443", "http://example.com:80", "https://bücher.example", "https://xn--bcher-kva.example"}
	agents := []string{"Foobot", "Googlebot", "AdsBot-Google"}
	for i := range 60 {
		var b strings.Builder
		if rnd.IntN(4) == 0 {
			b.WriteString("\ufeff")
		}
		eol := "\n"
		if rnd.IntN(3) == 0 {
			eol = "\r\n"
		}
		if rnd.IntN(3) == 0 {
			b.WriteString("Content-Signal: search=yes, ai-train=no" + eol)
		}
		for range 1 + rnd.IntN(3) {
			b.WriteString("User-agent: " + []string{"*", "Foobot", "Googlebot"}[rnd.IntN(3)] + eol)
			for range rnd.IntN(5) {
				switch rnd.IntN(4) {
				case 0:
					b.WriteString("Allow: " + path() + eol)
				case 1:
					b.WriteString("Content-Usage: " + path() + " train-ai=y" + eol)
				case 2:
					b.WriteString("Content-Usage: train-ai=n" + eol)
				default:
					b.WriteString("Disallow: " + path() + eol)
				}
			}
		}
		if i%20 == 19 { // past what a crawler reads: the rest is ignored
			b.WriteString(strings.Repeat("#"+strings.Repeat("x", 99)+eol, fetch.MaxBodySize/100+1))
			b.WriteString("User-agent: *" + eol + "Disallow: /" + eol)
		}
		body := b.String()
		read := body
		if len(read) > fetch.MaxBodySize {
			read = read[:fetch.MaxBodySize]
		}
		want := robotstxt.Parse([]byte(read))
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{"example.com": {Body: body}, "xn--bcher-kva.example": {Body: body}}, nil)
		cache := fetch.NewCache(&fetch.Options{Client: sites.Client(), UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
		for range 20 {
			raw := hosts[rnd.IntN(len(hosts))]
			if rnd.IntN(6) > 0 {
				raw += path()
			}
			if rnd.IntN(5) == 0 {
				raw += "#" + pieces[rnd.IntN(len(pieces))]
			}
			agent := agents[rnd.IntN(len(agents))]
			d, err := cache.For(agent).Decide(context.Background(), raw)
			if err != nil {
				t.Fatalf("Decide(%s, %q): %v", agent, raw, err)
			}
			u := want.Usage(agent, robotstxt.NormalizeURL(raw))
			if d.Decision != u.Decision || d.Usage() != u {
				t.Fatalf("file %q, agent %s, URL %q: Cache.Decide %+v, usage %+v; the core on what was read: %+v", body[:min(len(body), 300)], agent, raw, d.Decision, d.Usage(), u)
			}
			if agent == "Foobot" {
				own, err := cache.Decide(context.Background(), raw)
				if err != nil || own.Usage() != d.Usage() {
					t.Fatalf("URL %q: Decide %+v, %v; Decide for Foobot %+v", raw, own.Usage(), err, d.Usage())
				}
			}
		}
	}
}
