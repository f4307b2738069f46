package journeys

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// The crawler's identity, as the README writes it.
const (
	userAgent = "Foobot/1.0 (+https://foo.example/bot)"
	token     = "Foobot"
)

// origin is one local web site with its own port: a robots.txt, answered
// as the site's kind says, and pages linked from its front page.
type origin struct {
	name    string
	robots  string        // the robots.txt served once the site answers
	delay   time.Duration // the Crawl-delay robots names for Foobot, or 0
	hrefs   []string      // the links of the front page, as written
	serveRb func(w http.ResponseWriter, r *http.Request, n int) bool

	url string // http://127.0.0.1:port
	ln  net.Listener

	mu       sync.Mutex
	requests []request // in arrival order
}

// request is what a site recorded of one request: the request line as it
// arrived on the wire, its User-Agent, and when it arrived.
type request struct {
	target string // the request-target of the request line, raw
	ua     string
	at     time.Time
}

// sites returns the origins of a journey: Crawl-delay, a 503 with
// Retry-After, a 429 with an HTTP date, a robots.txt redirect, %-encoded
// and UTF-8 rules, and links with spaces, non-ASCII and "{|}".
func sites() []*origin {
	return []*origin{
		{
			name:   "crawl-delay",
			robots: "User-agent: foobot\nCrawl-delay: 1\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n",
			delay:  time.Second,
			hrefs:  []string{"/a", "/b?x=1", "/private/x", "/c"},
		},
		{
			name:    "503-retry-after",
			robots:  "User-agent: *\nDisallow: /no\n",
			hrefs:   []string{"/p1", "/p2", "/no/x"},
			serveRb: failFirst(http.StatusServiceUnavailable, func() string { return "2" }),
		},
		{
			name:   "429-http-date",
			robots: "User-agent: Foobot\nDisallow: /tmp/\n",
			hrefs:  []string{"/q1", "/tmp/q2", "/q3"},
			serveRb: failFirst(http.StatusTooManyRequests, func() string {
				return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)
			}),
		},
		{
			name:   "robots-redirect",
			robots: "User-agent: FOOBOT\nDisallow: /secret\n",
			hrefs:  []string{"/open", "/secret/plan", "/secretary"},
			serveRb: func(w http.ResponseWriter, r *http.Request, n int) bool {
				if r.URL.Path == "/robots.txt" {
					http.Redirect(w, r, "/rules/robots.txt", http.StatusMovedPermanently)
					return true
				}
				return false
			},
		},
		{
			name: "encoded-rules",
			robots: "User-agent: *\nDisallow: /caf%C3%A9\nDisallow: /日本\nDisallow: /a%20b\nDisallow: /*%7Bx%7Cy%7D\n" +
				"Disallow: /*?q=ü\nAllow: /\n",
			hrefs: []string{
				"/café/menu", "/cafe/menu", "/日本/地図", "/日本語", "/a b/c", "/a  b", "/x y/z",
				"/ü/über", "/{x|y}", "/{x}", "/s?q=ü", "/s?q=u v", "/s?{a|b}",
			},
		},
	}
}

// failFirst answers the first robots.txt request with status and the
// Retry-After that retryAfter gives, and lets the file answer the next.
func failFirst(status int, retryAfter func() string) func(http.ResponseWriter, *http.Request, int) bool {
	return func(w http.ResponseWriter, r *http.Request, n int) bool {
		if n > 1 {
			return false
		}
		w.Header().Set("Retry-After", retryAfter())
		w.WriteHeader(status)
		return true
	}
}

// start serves o on its own port. The handler sees the request line as it
// arrived: a plain net/http server would show it decoded and re-encoded.
func (o *origin) start(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.ln, o.url = ln, "http://"+ln.Addr().String()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go o.serveConn(c)
		}
	}()
	t.Cleanup(func() { ln.Close() })
}

// serveConn reads the raw request line, then lets net/http parse the rest
// of each request on the connection.
func (o *origin) serveConn(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	robotsN := 0
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		parts := strings.Split(strings.TrimRight(line, "\r\n"), " ")
		if len(parts) != 3 {
			return
		}
		req, err := http.ReadRequest(bufio.NewReader(io.MultiReader(strings.NewReader("GET / HTTP/1.1\r\n"), br)))
		if err != nil {
			return
		}
		target := parts[1]
		req.URL, _ = url.Parse(target)
		o.mu.Lock()
		o.requests = append(o.requests, request{target: target, ua: req.Header.Get("User-Agent"), at: time.Now()})
		if strings.HasSuffix(req.URL.Path, "robots.txt") {
			robotsN = o.robotsCount()
		}
		o.mu.Unlock()
		w := newResponse(c)
		o.serve(w, req, target, robotsN)
		if err := w.finish(); err != nil {
			return
		}
	}
}

// robotsCount returns how many robots.txt requests arrived; o.mu is held.
func (o *origin) robotsCount() int {
	n := 0
	for _, r := range o.requests {
		if strings.HasSuffix(strings.SplitN(r.target, "?", 2)[0], "robots.txt") {
			n++
		}
	}
	return n
}

// serve answers one request.
func (o *origin) serve(w *response, r *http.Request, target string, robotsN int) {
	if r.URL.Path == "/robots.txt" || r.URL.Path == "/rules/robots.txt" {
		if o.serveRb != nil && o.serveRb(w, r, robotsN) {
			return
		}
		io.WriteString(w, o.robots)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if target == "/" {
		io.WriteString(w, "<html><body>")
		for _, h := range o.hrefs {
			fmt.Fprintf(w, "<a href=\"%s\">link</a>\n", h)
		}
		io.WriteString(w, "</body></html>")
		return
	}
	io.WriteString(w, "<html><body>a page</body></html>")
}

// response is a minimal http.ResponseWriter that writes HTTP/1.1 with a
// Content-Length, so that the connection is kept alive.
type response struct {
	c      net.Conn
	h      http.Header
	status int
	body   strings.Builder
}

func newResponse(c net.Conn) *response { return &response{c: c, h: http.Header{}, status: 200} }

func (w *response) Header() http.Header         { return w.h }
func (w *response) WriteHeader(status int)      { w.status = status }
func (w *response) Write(b []byte) (int, error) { return w.body.Write(b) }

func (w *response) finish() error {
	bw := bufio.NewWriter(w.c)
	fmt.Fprintf(bw, "HTTP/1.1 %d %s\r\n", w.status, http.StatusText(w.status))
	w.h.Set("Content-Length", fmt.Sprint(w.body.Len()))
	w.h.Write(bw)
	bw.WriteString("\r\n")
	bw.WriteString(w.body.String())
	return bw.Flush()
}

// page is one link of a site and what the rules say of it.
type page struct {
	key     string // the link's path and query, decoded: how arrivals are matched
	allowed bool   // the core's answer on the link as it is sent
}

// pages returns the site's front page and links with the core's answer for
// each, on the form the library sends: NormalizeURL of the link.
func (o *origin) pages() []page {
	rb := robotstxt.Parse([]byte(o.robots))
	out := []page{{key: "/", allowed: rb.Allowed(token, "/")}}
	for _, h := range o.hrefs {
		out = append(out, page{key: decoded(h), allowed: rb.Allowed(token, robotstxt.NormalizeURL(h))})
	}
	return out
}

// decoded returns a request target with its escapes decoded, so that a link
// and its encoded arrival compare equal.
func decoded(target string) string {
	s, err := url.PathUnescape(target)
	if err != nil {
		return target
	}
	return s
}

// outcome is what a journey found at the sites.
type outcome struct {
	byUA                   map[string]int
	fetched, lost, refused int
	smallestGap            map[string]time.Duration
	wall                   time.Duration
}

// check asserts what every journey must keep, and returns the numbers the
// journey reports: every request carries the crawler's User-Agent, no
// disallowed URL arrives (the core's answer on the request line as it
// arrived), no allowed page is lost, and the Crawl-delay gaps are kept.
func check(t *testing.T, os []*origin, refused int, wall time.Duration) outcome {
	t.Helper()
	out := outcome{byUA: map[string]int{}, smallestGap: map[string]time.Duration{}, refused: refused, wall: wall}
	for _, o := range os {
		o.mu.Lock()
		reqs := slices.Clone(o.requests)
		o.mu.Unlock()
		rb := robotstxt.Parse([]byte(o.robots))
		arrived := map[string]bool{}
		var last time.Time
		gap := time.Duration(-1)
		for _, r := range reqs {
			out.byUA[r.ua]++
			if r.ua != userAgent {
				t.Errorf("%s: %s arrived with User-Agent %q, want %q", o.name, r.target, r.ua, userAgent)
			}
			path := strings.SplitN(r.target, "?", 2)[0]
			if path == "/robots.txt" || path == "/rules/robots.txt" {
				continue
			}
			if !rb.Allowed(token, r.target) {
				t.Errorf("%s: disallowed %s was fetched", o.name, r.target)
			}
			if arrived[decoded(r.target)] {
				t.Errorf("%s: %s fetched twice", o.name, r.target)
			}
			arrived[decoded(r.target)] = true
			out.fetched++
			if !last.IsZero() && (gap < 0 || r.at.Sub(last) < gap) {
				gap = r.at.Sub(last)
			}
			last = r.at
		}
		out.smallestGap[o.name] = gap
		// The pacer spaces the starts of the requests; arrivals are timed
		// on the server, one request's connection or write taking a few
		// milliseconds longer than the next's on a loaded machine. 50 ms
		// is 5% of the 1 s Crawl-delay: a turn given early by a whole
		// spacing would show as a gap near 0.
		if o.delay > 0 && gap >= 0 && gap < o.delay-50*time.Millisecond {
			t.Errorf("%s: two pages %v apart, Crawl-delay %v", o.name, gap, o.delay)
		}
		for _, p := range o.pages() {
			if p.allowed && !arrived[p.key] {
				out.lost++
				t.Errorf("%s: allowed page %q lost", o.name, p.key)
			}
		}
	}
	t.Logf("requests by User-Agent: %v", out.byUA)
	t.Logf("pages fetched %d, lost %d, refused %d; wall time %v", out.fetched, out.lost, out.refused, out.wall.Round(time.Millisecond))
	for _, o := range os {
		t.Logf("smallest gap at %s: %v", o.name, out.smallestGap[o.name].Round(time.Millisecond))
	}
	return out
}

// startAll starts every site.
func startAll(t *testing.T) []*origin {
	os := sites()
	for _, o := range os {
		o.start(t)
	}
	return os
}
