package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// target (as it arrived, not decoded) and User-Agent of every request it
// gets, by the X-Href header the test gives each request.
type wireSite struct {
	*httptest.Server
	robots string

	mu   sync.Mutex
	uris map[string]string // X-Href → request target
	uas  map[string]int    // User-Agent → requests
}

func newWireSite(t *testing.T, robots string) *wireSite {
	s := &wireSite{robots: robots, uris: map[string]string{}, uas: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if id := r.Header.Get("X-Href"); id != "" {
			s.uris[id] = r.RequestURI
		}
		s.uas[r.UserAgent()]++
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, s.robots)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// got returns the request target of the request marked id, or "" when
// none arrived.
func (s *wireSite) got(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uris[id]
}

// wireCounts are what TestURLAskedIsURLSent counts.
type wireCounts struct {
	sent, badHref, rawDiffers, goDiffers, refused, plainSent int
}

func (c *wireCounts) add(d wireCounts) {
	c.sent += d.sent
	c.badHref += d.badHref
	c.rawDiffers += d.rawDiffers
	c.goDiffers += d.goDiffers
	c.refused += d.refused
	c.plainSent += d.plainSent
}

// TestURLAskedIsURLSent is the property that joins the cache, the
// Transport and the core (#17 item 2, #27 item 6): for random raw hrefs,
//
//   - the Transport sends the href, made with http.NewRequest, to a real
//     local server with the request target that NormalizeURL writes;
//   - Cache.Decide(raw) equals the core's answer on the URL made of
//     that request target, as it arrived at the server;
//   - the Transport refuses the href exactly when Decide says no;
//   - and a plain http.Client that sends the URL Decide hands back
//     (Decision.URL) puts the same request target on the wire, so a
//     crawler without the Transport is answered for what it sends.
//
// A few thousand hrefs run in a plain go test; ROBOTSTXT_LONG=1 runs
// 100,000, as CI does, in parallel over kept-alive connections. The test
// also counts the hrefs whose raw form gets another answer than the form
// they are sent in, and those whose request target net/url alone would
// write otherwise: the generator must hit both, or it would prove little.
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
	tails := make([]string, n)
	for i := range tails {
		tails[i] = randHrefTail(rng, patterns[i%nSites])
	}
	base := &http.Transport{MaxIdleConnsPerHost: 128}
	defer base.CloseIdleConnections()
	cache := NewCache(&Options{UserAgent: ua})
	client := &http.Client{Transport: NewTransport(base, cache)}
	plain := &http.Client{Transport: base}
	ctx := context.Background()

	// one checks href i; it returns what it counts, or an error that
	// stops the test.
	one := func(i int) (wireCounts, error) {
		var c wireCounts
		id := strconv.Itoa(i)
		k := i % nSites
		tail, site, r := tails[i], sites[k], rules[k]
		get := func(cl *http.Client, u string) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return nil, err
			}
			req.Header.Set("X-Href", id)
			resp, err := cl.Do(req)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			return req, err
		}
		raw := site.URL + tail
		d, err := cache.Decide(ctx, raw)
		if err != nil {
			return c, fmt.Errorf("Decide(%q): %v", raw, err)
		}
		// The wire form, as it reaches a server that allows everything.
		req, err := get(client, open.URL+tail)
		if req == nil {
			// net/url refuses the href: nothing can be sent, and
			// nothing is sent of the URL handed back either.
			c.badHref++
			if _, err := http.NewRequest(http.MethodGet, d.URL, nil); err == nil {
				return c, fmt.Errorf("net/url refuses %q but takes the URL to send %q", raw, d.URL)
			}
			return c, nil
		}
		if err != nil {
			return c, fmt.Errorf("GET %q through an open site: %v", open.URL+tail, err)
		}
		wire := open.got(id)
		c.sent++
		if want := robotstxt.NormalizeURL(wire); wire != want {
			return c, fmt.Errorf("href %q went out as %q, not in NormalizeURL's form %q", tail, wire, want)
		}
		if req.URL.RequestURI() != wire {
			c.goDiffers++
		}
		// The URL as sent: the request target after the scheme and host,
		// as a crawler matching it would see it (a target of "//" alone
		// would read as a host).
		core := r.Allowed("Foobot", site.URL+wire)
		if d.Allowed != core {
			return c, fmt.Errorf("robots.txt:\n%s\nDecide(%q) = %v, but the core says %v for %q, the request target sent",
				site.robots, raw, d.Allowed, core, wire)
		}
		if r.Allowed("Foobot", raw) != core {
			c.rawDiffers++
		}
		_, err = get(client, raw)
		var de *DisallowedError
		switch {
		case errors.As(err, &de):
			c.refused++
			if d.Allowed {
				return c, fmt.Errorf("the Transport refused %q (%v), which Decide allows", raw, err)
			}
			if de.URL != site.URL+wire {
				return c, fmt.Errorf("refused %q as %q, want %q", raw, de.URL, site.URL+wire)
			}
		case err != nil:
			return c, fmt.Errorf("GET %q: %v", raw, err)
		default:
			if !d.Allowed {
				return c, fmt.Errorf("the Transport sent %q, which Decide disallows", raw)
			}
			if got := site.got(id); got != wire {
				return c, fmt.Errorf("href %q went out as %q to one server and %q to another", tail, got, wire)
			}
		}
		// A plain client sending the URL handed back, allowed or not, to
		// see what it would put on the wire.
		if _, err := get(plain, d.URL); err != nil {
			return c, fmt.Errorf("plain GET %q (the URL to send for %q): %v", d.URL, raw, err)
		}
		c.plainSent++
		if got := site.got(id); got != wire {
			return c, fmt.Errorf("href %q: a plain client sending %q put %q on the wire, the Transport %q", tail, d.URL, got, wire)
		}
		return c, nil
	}

	var (
		total  wireCounts
		mu     sync.Mutex
		failed error
		next   atomic.Int64
		wg     sync.WaitGroup
	)
	for range 32 {
		wg.Go(func() {
			var mine wireCounts
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					break
				}
				c, err := one(i)
				mine.add(c)
				if err != nil {
					mu.Lock()
					if failed == nil {
						failed = err
					}
					mu.Unlock()
					next.Store(int64(n))
				}
			}
			mu.Lock()
			total.add(mine)
			mu.Unlock()
		})
	}
	wg.Wait()
	if failed != nil {
		t.Fatal(failed)
	}
	for _, s := range append(sites, open) {
		for got, k := range s.uas {
			if got != ua && got != "Go-http-client/1.1" {
				t.Fatalf("%d requests to %s carried User-Agent %q, want %q", k, s.URL, got, ua)
			}
		}
	}
	t.Logf("%d hrefs: %d sent, %d refused by net/url; %d refused by robots.txt; %d answered otherwise raw than as sent; %d sent otherwise than net/url alone writes them; %d sent by a plain client as handed back",
		n, total.sent, total.badHref, total.refused, total.rawDiffers, total.goDiffers, total.plainSent)
	if total.rawDiffers < n/50 || total.goDiffers < n/50 || total.refused < n/20 || total.plainSent != total.sent {
		t.Errorf("the generator misses the point: %d raw answers differ, %d request targets differ from net/url's, %d refused, %d of %d sent plain",
			total.rawDiffers, total.goDiffers, total.refused, total.plainSent, total.sent)
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
	tr := NewTransport(roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("no network") }), NewCache(&Options{UserAgent: "Foobot"}))
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
