package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// site serves a robots.txt and pages, as a web site would.
func site() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Cache-Control", "max-age=3600")
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		io.WriteString(w, "a page")
	}))
}

// Fetch fetches the robots.txt of a URL's origin once and tells what
// happened.
func ExampleFetch() {
	srv := site()
	defer srv.Close()

	res, err := fetch.Fetch(context.Background(), srv.Client(), "Foobot/1.0", srv.URL+"/some/page")
	if err != nil {
		fmt.Println(err) // only for a URL without an http or https origin
		return
	}
	fmt.Println("status:", res.StatusCode)
	fmt.Println("rules:", res.Robots.Kind())
	fmt.Println("bytes:", res.Bytes, "truncated:", res.Truncated)
	fmt.Println("kept for:", res.TTL)
	fmt.Println("/private/a:", res.Robots.Allowed("Foobot", "/private/a"))
	fmt.Println("/public:", res.Robots.Allowed("Foobot", "/public"))
	// Output:
	// status: 200
	// rules: parsed
	// bytes: 34 truncated: false
	// kept for: 1h0m0s
	// /private/a: false
	// /public: true
}

// A Cache answers for any URL, fetching each origin's robots.txt once and
// keeping it until it expires.
func ExampleCache() {
	srv := site()
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	ctx := context.Background()
	for _, path := range []string{"/", "/private/report.pdf", "/public/private/"} {
		ok, err := cache.Allowed(ctx, srv.URL+path)
		fmt.Println(path, ok, err)
	}

	d, _ := cache.Decide(ctx, srv.URL+"/private/x")
	fmt.Printf("line %d %q, rules %s, %d origin cached\n", d.Line, d.Rule, d.Source, cache.Len())
	// Output:
	// / true <nil>
	// /private/report.pdf false <nil>
	// /public/private/ true <nil>
	// line 2 "/private/", rules fresh, 1 origin cached
}

// A Transport over the crawler's cache makes an http.Client obey robots.txt.
func ExampleNewTransport() {
	srv := site()
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	client := &http.Client{Transport: fetch.NewTransport(nil, cache)}

	resp, err := client.Get(srv.URL + "/public")
	if err == nil {
		fmt.Println("/public:", resp.Status)
		resp.Body.Close()
	}

	_, err = client.Get(srv.URL + "/private/x")
	fmt.Println("/private/x refused:", errors.Is(err, fetch.ErrDisallowed))
	var de *fetch.DisallowedError
	if errors.As(err, &de) {
		fmt.Printf("by line %d, Disallow: %s\n", de.Line, de.Rule)
	}
	// Output:
	// /public: 200 OK
	// /private/x refused: true
	// by line 2, Disallow: /private/
}

// politeSite is a small site for the polite crawler: it answers its
// robots.txt, records when each page was asked for, and notes any request
// that did not carry the crawler's User-Agent.
type politeSite struct {
	robots string
	mu     sync.Mutex
	times  []time.Time
	others []string // User-Agent headers other than the crawler's
}

const politeUA = "Foobot/1.0 (+https://foo.example/bot)"

func (s *politeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.UserAgent() != politeUA {
		s.others = append(s.others, r.UserAgent())
	}
	if r.URL.Path == "/robots.txt" {
		io.WriteString(w, s.robots)
		return
	}
	s.times = append(s.times, time.Now())
	io.WriteString(w, "a page for "+r.UserAgent())
}

// spaced reports whether the pages were asked for about d apart or more:
// the crawler starts its requests d apart, and they may take a little less
// or more time to arrive.
func (s *politeSite) spaced(d time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 1; i < len(s.times); i++ {
		if s.times[i].Sub(s.times[i-1]) < d*8/10 {
			return false
		}
	}
	return true
}

// A polite crawler obeys robots.txt, waits its turn at each site as its
// Crawl-delay asks, and slows down when a site answers 429 or 503. One
// Cache holds the robots.txt files, one Pacer the turns, and a Transport
// puts both in front of every request the crawler's http.Client sends.
//
// The crawler names itself once, in the cache's Options: the Transport
// sends that User-Agent header with every request, robots.txt and pages,
// and obeys the product token found in it. It takes each turn with
// Reserve, which does not wait, and sends the request on it with
// Reservation.Context once it has come: a crawler with many sites serves the
// others meanwhile, and the wait never counts against the client's
// Timeout.
func Example_politeCrawler() {
	shop := &politeSite{robots: "User-agent: *\nCrawl-delay: 0.1\nDisallow: /cart/\nSitemap: /sitemap.xml\n"}
	blog := &politeSite{robots: "User-agent: foobot\nDisallow: /drafts/\n"}
	shopSrv, blogSrv := httptest.NewServer(shop), httptest.NewServer(blog)
	defer shopSrv.Close()
	defer blogSrv.Close()

	cache := fetch.NewCache(&fetch.Options{UserAgent: politeUA})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache, Delay: 10 * time.Millisecond})
	client := &http.Client{
		Transport: fetch.NewTransport(nil, cache).WithPacer(pacer),
		Timeout:   10 * time.Second,
	}
	fmt.Println("crawling as", cache.Agent())

	ctx := context.Background()
	file, _ := cache.File(ctx, shopSrv.URL)
	for _, s := range file.Sitemaps() {
		fmt.Println("shop sitemap:", strings.TrimPrefix(s, shopSrv.URL))
	}

	crawl := []string{
		shopSrv.URL + "/", shopSrv.URL + "/products/1", shopSrv.URL + "/cart/add?id=1", shopSrv.URL + "/products/2",
		blogSrv.URL + "/", blogSrv.URL + "/drafts/next-post",
	}
	for _, u := range crawl {
		path := strings.TrimPrefix(strings.TrimPrefix(u, shopSrv.URL), blogSrv.URL)
		if d, err := cache.Decide(ctx, u); err != nil || !d.Allowed {
			fmt.Printf("skip %s: line %d, Disallow: %s\n", path, d.Line, d.Rule)
			continue
		}
		turn, err := pacer.Reserve(ctx, u)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		<-turn.Ready() // or serve other sites until turn.When()
		req, _ := http.NewRequestWithContext(turn.Context(ctx), http.MethodGet, u, nil)
		resp, err := client.Do(req)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("got  %s: %s\n", path, body)
	}
	fmt.Println("shop pages spaced by its Crawl-delay:", shop.spaced(100*time.Millisecond))
	fmt.Println("requests without the crawler's User-Agent:", len(shop.others)+len(blog.others))
	// Output:
	// crawling as Foobot
	// shop sitemap: /sitemap.xml
	// got  /: a page for Foobot/1.0 (+https://foo.example/bot)
	// got  /products/1: a page for Foobot/1.0 (+https://foo.example/bot)
	// skip /cart/add?id=1: line 3, Disallow: /cart/
	// got  /products/2: a page for Foobot/1.0 (+https://foo.example/bot)
	// got  /: a page for Foobot/1.0 (+https://foo.example/bot)
	// skip /drafts/next-post: line 2, Disallow: /drafts/
	// shop pages spaced by its Crawl-delay: true
	// requests without the crawler's User-Agent: 0
}

// A crawler that sends its requests with a client of its own asks Check
// and sends the URL Check returns, not the raw href: the href in the form
// a Transport puts on the wire ([robotstxt.NormalizeURL]), the form the
// rules were asked about. A raw space meets "Disallow: /a%20b", and
// non-ASCII bytes go out %-encoded.
func ExampleCache_Check() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /a%20b\n")
	}))
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	ctx := context.Background()
	for _, href := range []string{srv.URL + "/a b", srv.URL + "/café?q=x y"} {
		send, err := cache.Check(ctx, href)
		if err != nil {
			fmt.Println("refused:", errors.Is(err, fetch.ErrDisallowed), strings.TrimPrefix(href, srv.URL))
			continue
		}
		if err := pacer.Wait(ctx, send); err != nil { // the origin's turn
			fmt.Println(err)
			continue
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, send, nil)
		req.Header.Set("User-Agent", cache.UserAgent())
		fmt.Println("send:", strings.TrimPrefix(send, srv.URL), "as", req.UserAgent())
	}
	// Output:
	// refused: true /a b
	// send: /caf%C3%A9?q=x%20y as Foobot/1.0 (+https://foo.example/bot)
}

// A client or framework that has a RoundTripper of its own keeps it: the
// Transport wraps it, and robots.txt and the crawler's identity come
// first. Here the existing RoundTripper counts the requests that reach
// the network.
func ExampleNewTransport_wrap() {
	srv := site()
	defer srv.Close()

	var sent []string
	existing := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		sent = append(sent, req.URL.Path+" as "+req.UserAgent())
		return http.DefaultTransport.RoundTrip(req)
	})
	cache := fetch.NewCache(&fetch.Options{Client: &http.Client{Transport: existing}, UserAgent: "Foobot/1.0"})
	client := &http.Client{Transport: fetch.NewTransport(existing, cache)}
	for _, path := range []string{"/public", "/private/x"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("User-Agent", "some-framework/2.0")
		resp, err := client.Do(req)
		if err != nil {
			fmt.Println(path, "refused:", errors.Is(err, fetch.ErrDisallowed))
			continue
		}
		resp.Body.Close()
		fmt.Println(path, resp.Status)
	}
	fmt.Println(strings.Join(sent, "\n"))
	// Output:
	// /public 200 OK
	// /private/x refused: true
	// /robots.txt as Foobot/1.0
	// /public as Foobot/1.0
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
