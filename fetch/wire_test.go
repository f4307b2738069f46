package fetch

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// longTests reports whether the long sweeps run (ROBOTSTXT_LONG=1, as
// .ci/run sets).
func longTests() bool { return os.Getenv("ROBOTSTXT_LONG") != "" }

// wirePieces are the bytes raw hrefs are made of: the same path written
// raw and escaped in both cases, the bytes no URI holds raw, reserved
// bytes, and broken escapes.
var wirePieces = []string{
	"a", "b", "/", "/", "ü", "%c3%bc", "%C3%BC", " ", "%20", `"`, "%22", "<", ">", "%3c", "%3C",
	"|", "{", "}", `\`, "^", "`", "%2f", "%2F", "%", "%zz", ";", "=", "&", "*", "$", "~",
	"(", ")", "!", "'", "@", ":", "..", ".", "+", ",", "[", "]", "é", "\xff", "%e9",
}

// randWirePath returns a path of up to n pieces, starting with '/'.
func randWirePath(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteByte('/')
	for range 1 + rng.IntN(n) {
		b.WriteString(wirePieces[rng.IntN(len(wirePieces))])
	}
	return b.String()
}

// randHrefTail returns the part of a raw href after its host: a path, and
// sometimes a query or a fragment, made of wirePieces. Half the paths start
// with one of the patterns given, as written, so that they often meet the
// rules.
func randHrefTail(rng *rand.Rand, patterns []string) string {
	tail := ""
	if rng.IntN(10) > 0 {
		tail = randWirePath(rng, 4)
		if rng.IntN(2) == 0 {
			p := patterns[rng.IntN(len(patterns))]
			tail = strings.TrimRight(strings.ReplaceAll(p, "*", "x"), "$") + tail[1:]
		}
	}
	if rng.IntN(3) == 0 {
		tail += "?" + randWirePath(rng, 3)[1:]
	}
	if rng.IntN(6) == 0 {
		tail += "#" + randWirePath(rng, 2)[1:]
	}
	return tail
}

// randWireRobots returns a robots.txt whose rules are written with the same
// pieces, raw or escaped, so that raw hrefs often meet them, and the
// patterns of its rules.
func randWireRobots(rng *rand.Rand) (string, []string) {
	var b strings.Builder
	var patterns []string
	for range 1 + rng.IntN(2) {
		b.WriteString([]string{"User-agent: *\n", "User-agent: Foobot\n"}[rng.IntN(2)])
		for range 2 + rng.IntN(8) {
			b.WriteString([]string{"Allow: ", "Disallow: "}[rng.IntN(2)])
			p := randWirePath(rng, 2)
			switch rng.IntN(4) {
			case 0:
				p += "*"
			case 1:
				p += "$"
			}
			patterns = append(patterns, p)
			b.WriteString(p)
			b.WriteByte('\n')
		}
	}
	return b.String(), patterns
}

// wireSite is a local server that serves robots and records the request
// target and User-Agent of every request it gets.
type wireSite struct {
	*httptest.Server
	robots string

	mu   sync.Mutex
	uris []string
	uas  []string
}

func newWireSite(t *testing.T, robots string) *wireSite {
	s := &wireSite{robots: robots}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.uris = append(s.uris, r.RequestURI)
		s.uas = append(s.uas, r.UserAgent())
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, s.robots)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// last returns the request target of the latest request.
func (s *wireSite) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uris[len(s.uris)-1]
}

// TestURLAskedIsURLSent is the property that joins the cache, the
// Transport and the core (issue 17 item 2): for random raw hrefs,
//
//   - the Transport sends the href, made with http.NewRequest, to a real
//     local server with the request target that NormalizeURL writes;
//   - Cache.AllowedURL(raw) equals the core's answer on the URL made of
//     that request target, as it arrived at the server;
//   - and the Transport refuses the href exactly when AllowedURL says no.
//
// A few thousand hrefs run in a plain go test; ROBOTSTXT_LONG=1 runs
// 100,000, as CI does. The test also counts the hrefs whose raw form gets
// another answer than the form they are sent in, and those whose request
// target net/url alone would write otherwise: the generator must hit both,
// or it would prove little.
func TestURLAskedIsURLSent(t *testing.T) {
	n := 3000
	if longTests() {
		n = 100000
	}
	const ua = "Foobot/1.0 (+https://foo.example/bot)"
	rng := rand.New(rand.NewPCG(17, 2))
	open := newWireSite(t, "")
	const nSites = 8
	var sites []*wireSite
	var rules []*robotstxt.Robots
	var patterns [][]string
	for range nSites {
		body, pats := randWireRobots(rng)
		sites = append(sites, newWireSite(t, body))
		rules = append(rules, robotstxt.Parse([]byte(body)))
		patterns = append(patterns, pats)
	}
	cache := NewCache(&Options{UserAgent: ua})
	client := &http.Client{Transport: NewTransport(nil, "", cache)}
	ctx := context.Background()

	var sent, badHref, rawDiffers, goDiffers, refused int
	for i := range n {
		k := i % nSites
		tail := randHrefTail(rng, patterns[k])
		// The wire form, as it reaches a server that allows everything.
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, open.URL+tail, nil)
		if err != nil {
			badHref++ // net/url refuses it: nothing can be sent
			continue
		}
		goURI := req.URL.RequestURI()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %q through an open site: %v", open.URL+tail, err)
		}
		resp.Body.Close()
		wire := open.last()
		sent++
		if want := robotstxt.NormalizeURL(wire); wire != want {
			t.Fatalf("href %q went out as %q, not in NormalizeURL's form %q", tail, wire, want)
		}
		if goURI != wire {
			goDiffers++
		}

		site, r := sites[k], rules[k]
		raw := site.URL + tail
		asked, err := cache.AllowedURL(ctx, raw)
		if err != nil {
			t.Fatalf("AllowedURL(%q): %v", raw, err)
		}
		// The URL as sent: the request target after the scheme and host,
		// as a crawler matching it would see it (a target of "//" alone
		// would read as a host).
		core := r.Allowed("Foobot", site.URL+wire)
		if asked != core {
			t.Fatalf("robots.txt:\n%s\nAllowedURL(%q) = %v, but the core says %v for %q, the request target sent",
				site.robots, raw, asked, core, wire)
		}
		if r.Allowed("Foobot", raw) != core {
			rawDiffers++
		}
		req, _ = http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
		resp, err = client.Do(req)
		var de *DisallowedError
		switch {
		case errors.As(err, &de):
			refused++
			if asked {
				t.Fatalf("the Transport refused %q (%v), which AllowedURL allows", raw, err)
			}
			if de.URL != site.URL+wire {
				t.Fatalf("refused %q as %q, want %q", raw, de.URL, site.URL+wire)
			}
		case err != nil:
			t.Fatalf("GET %q: %v", raw, err)
		default:
			resp.Body.Close()
			if !asked {
				t.Fatalf("the Transport sent %q, which AllowedURL disallows", raw)
			}
			if got := site.last(); got != wire {
				t.Fatalf("href %q went out as %q to one server and %q to another", tail, got, wire)
			}
		}
	}
	for _, s := range append(sites, open) {
		for i, got := range s.uas {
			if got != ua {
				t.Fatalf("request %d to %s (%s) carried User-Agent %q, want %q", i, s.URL, s.uris[i], got, ua)
			}
		}
	}
	t.Logf("%d hrefs: %d sent, %d refused by net/url; %d refused by robots.txt; %d answered otherwise raw than as sent; %d sent otherwise than net/url alone writes them",
		n, sent, badHref, refused, rawDiffers, goDiffers)
	if rawDiffers < n/50 || goDiffers < n/50 || refused < n/20 {
		t.Errorf("the generator misses the point: %d raw answers differ, %d request targets differ from net/url's, %d refused", rawDiffers, goDiffers, refused)
	}
}

// FuzzWire holds the Transport's wire form to NormalizeURL for any href
// net/url accepts: the request target that would be written is the path
// and query of the URL the rules are asked about, in NormalizeURL's form,
// and the caller's request is left as it was.
func FuzzWire(f *testing.F) {
	rng := rand.New(rand.NewPCG(17, 3))
	for range 50 {
		f.Add(randHrefTail(rng, []string{"/a", "/ü/"}))
	}
	f.Add("/a b?c d#e f")
	f.Add("//x")
	tr := NewTransport(roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("no network") }), "Foobot", nil)
	f.Fuzz(func(t *testing.T, tail string) {
		req, err := http.NewRequest(http.MethodGet, "http://example.com"+tail, nil)
		if err != nil {
			return
		}
		before := req.URL.String()
		out, asked := tr.wire(req)
		if req.URL.String() != before {
			t.Fatalf("wire changed the caller's URL from %q to %q", before, req.URL.String())
		}
		target := out.URL.RequestURI()
		if want := "http://" + req.URL.Host + target; asked != want {
			t.Fatalf("href %q: asked about %q, sends %q", tail, asked, target)
		}
		if n := robotstxt.NormalizeURL(target); n != target {
			t.Fatalf("href %q: sends %q, not in NormalizeURL's form %q", tail, target, n)
		}
		if out.UserAgent() != "Foobot" {
			t.Fatalf("href %q: User-Agent %q", tail, out.UserAgent())
		}
	})
}
