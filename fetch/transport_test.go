package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// closeTracker is a request body that records being closed.
type closeTracker struct {
	io.Reader
	closed atomic.Bool
}

func (c *closeTracker) Close() error { c.closed.Store(true); return nil }

func TestTransport(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /private\n\nUser-agent: Foobot\nDisallow: /foo-only\n"
	var pages, robotsFetches atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			io.WriteString(w, robots)
			return
		}
		pages.Add(1)
		io.WriteString(w, "page")
	})
	base := srv.Client().Transport
	tests := []struct {
		agent, path string
		allowed     bool
		line        int
		reason      string
	}{
		{"Otherbot", "/public", true, 0, "no rule matches: the request goes through"},
		{"Otherbot", "/private/a", false, 2, "the global group disallows it, line 2"},
		{"Foobot", "/private/a", true, 0, "Foobot has its own group, which does not name /private"},
		{"Foobot", "/foo-only?q", false, 5, "Foobot's group disallows it, line 5"},
		{"Otherbot", "/robots.txt", true, 0, "robots.txt itself always passes through"},
	}
	for _, tt := range tests {
		client := &http.Client{Transport: NewTransport(base, NewCache(&Options{Client: &http.Client{Transport: base}, UserAgent: tt.agent}))}
		resp, err := client.Get(srv.URL + tt.path)
		if tt.allowed {
			if err != nil {
				t.Errorf("%s GET %s: %v, want it sent (%s)", tt.agent, tt.path, err, tt.reason)
				continue
			}
			resp.Body.Close()
			continue
		}
		var de *DisallowedError
		if !errors.Is(err, ErrDisallowed) || !errors.As(err, &de) {
			t.Errorf("%s GET %s: %v, want ErrDisallowed (%s)", tt.agent, tt.path, err, tt.reason)
			continue
		}
		if de.Line != tt.line || de.Agent != tt.agent || de.URL != srv.URL+tt.path || de.RobotsURL != srv.URL+"/robots.txt" || de.Source != Fresh {
			t.Errorf("%s GET %s: %+v; want line %d (%s)", tt.agent, tt.path, de, tt.line, tt.reason)
		}
		if !strings.Contains(err.Error(), "line") || !strings.HasPrefix(de.Error(), "robotstxt: ") {
			t.Errorf("error text %q should name the line and start with the package", err)
		}
	}
	if n := pages.Load(); n != 2 {
		t.Errorf("server served %d pages, want the 2 allowed ones", n)
	}
}

// TestTransportClosesBody checks the RoundTripper contract on refusal.
func TestTransportClosesBody(t *testing.T) {
	_, srv := newSite(t, "User-agent: *\nDisallow: /\n")
	client := &http.Client{Transport: NewTransport(srv.Client().Transport, clientCache(srv.Client(), "Foobot"))}
	body := &closeTracker{Reader: strings.NewReader("data")}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/form", body)
	if _, err := client.Do(req); !errors.Is(err, ErrDisallowed) {
		t.Fatalf("POST /form: %v, want ErrDisallowed", err)
	}
	if !body.closed.Load() {
		t.Error("the refused request's body was not closed")
	}
}

// TestTransportUnreachable checks the error of a request whose robots.txt
// is unreachable and asked again only after the request's deadline: a
// retryable error at once, naming the status and when, never a refusal.
func TestTransportUnreachable(t *testing.T) {
	s, srv := newSite(t, "")
	s.set(503, "", "")
	client := &http.Client{Transport: NewTransport(srv.Client().Transport, clientCache(srv.Client(), "Foobot")), Timeout: 10 * time.Second}
	start := time.Now()
	_, err := client.Get(srv.URL + "/page")
	var re *RetryError
	if !errors.As(err, &re) || errors.Is(err, ErrDisallowed) || re.Status != 503 ||
		time.Until(re.When) < 4*time.Minute || !strings.Contains(err.Error(), "unreachable (status 503)") {
		t.Errorf("GET with robots.txt 503: %v, want a RetryError naming unreachable, status 503, asked again in 5m", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the request failed after %v, want at once", time.Since(start))
	}
}

// TestTransportNoRecursion gives the transport a cache whose client sends
// its robots.txt fetches back through the same transport, and a robots.txt
// that redirects to a path other than /robots.txt: the fetch must pass
// through instead of waiting for itself.
func TestTransportNoRecursion(t *testing.T) {
	var robotsHits atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/real-robots", http.StatusFound)
		case "/real-robots":
			robotsHits.Add(1)
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		default:
			io.WriteString(w, "page")
		}
	})
	base := srv.Client().Transport
	var tr *Transport
	loop := roundTripFunc(func(r *http.Request) (*http.Response, error) { return tr.RoundTrip(r) })
	tr = NewTransport(base, NewCache(&Options{Client: &http.Client{Transport: loop}, UserAgent: "Foobot"}))
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/private/x", nil)
	_, err := client.Do(req)
	if !errors.Is(err, ErrDisallowed) || robotsHits.Load() != 1 {
		t.Errorf("GET /private/x: %v after %d robots.txt fetches; want ErrDisallowed after 1", err, robotsHits.Load())
	}
}

// TestTransportIdentity checks that the Transport's agent is its cache's,
// or a view's, and that an invalid one refuses every request before
// anything is sent.
func TestTransportIdentity(t *testing.T) {
	tests := []struct {
		agent   string   // "": the cache itself, else the view Cache.For(agent)
		options *Options // nil: no cache
		path    string
		allowed bool
		invalid bool
		reason  string
	}{
		{"", &Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"}, "/foo/x", false, false, "the cache's token, found in its User-Agent"},
		{"", &Options{Agent: "Foobot"}, "/all/x", true, false, "the cache's Agent, whose group does not name /all/"},
		{"Barbot", &Options{Agent: "Foobot"}, "/all/x", false, false, "a view for another agent obeys that agent's rules, not the cache's"},
		{"Foobot/1.0", &Options{}, "/", false, true, "a view for a header, not a product token, is refused"},
		{"", &Options{}, "/", false, true, "no agent anywhere"},
		{"", nil, "/", false, true, "no cache: no identity"},
		{"", &Options{UserAgent: "Mozilla/5.0 (compatible; Foobot/1.0)"}, "/foo/x", false, false, "a browser-like header: its token, Foobot, is obeyed"},
		{"", &Options{UserAgent: "Mozilla/5.0 (X11; Linux x86_64)"}, "/", false, true, "a header with no readable token is refused, saying so"},
		{"", &Options{UserAgent: "Barbot/1.0"}, "/%c3%bc/x", false, false, "the URL is normalised: a lower-case escape meets Disallow: /ü/"},
	}
	for _, tt := range tests {
		sites := foobotSites()
		var cache *Cache
		if tt.options != nil {
			tt.options.Client = sites.Client()
			cache = NewCache(tt.options)
			if tt.agent != "" {
				cache = cache.For(tt.agent)
			}
		}
		client := &http.Client{Transport: NewTransport(sites, cache)}
		resp, err := client.Get("http://example.com" + tt.path)
		switch {
		case tt.invalid:
			if !errors.Is(err, errInvalidAgent) || sites.Pages("example.com") != 0 {
				t.Errorf("agent %q: %v, %d pages sent; want errInvalidAgent and none (%s)", tt.agent, err, sites.Pages("example.com"), tt.reason)
			}
		case tt.allowed:
			if err != nil {
				t.Errorf("agent %q GET %s: %v, want it sent (%s)", tt.agent, tt.path, err, tt.reason)
				continue
			}
			resp.Body.Close()
		default:
			if !errors.Is(err, ErrDisallowed) {
				t.Errorf("agent %q GET %s: %v, want ErrDisallowed (%s)", tt.agent, tt.path, err, tt.reason)
			}
		}
	}
}

// TestTransportPacer checks a paced Transport: requests to one origin one
// Crawl-delay apart, other origins not held up, and a 429 answer with
// Retry-After holding back the next request.
func TestTransportPacer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		sent := map[string]time.Duration{}
		pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			sent[r.Host+r.URL.Path] = time.Since(start)
			mu.Unlock()
			if r.URL.Path == "/busy" {
				w.Header().Set("Retry-After", "60")
				w.WriteHeader(http.StatusTooManyRequests)
			}
		})
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"a.example": {Body: "User-agent: *\nCrawl-delay: 2\nDisallow: /private\n"},
			"b.example": {Body: "User-agent: *\nCrawl-delay: 5\n"},
		}, pages)
		cache := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
		tr := NewTransport(sites, cache).WithPacer(NewPacer(&PacerOptions{Cache: cache}))
		client := &http.Client{Transport: tr}
		for _, u := range []string{"http://a.example/1", "http://b.example/1", "http://a.example/private", "http://a.example/2",
			"http://a.example/busy", "http://b.example/2", "http://a.example/3"} {
			resp, err := client.Get(u)
			if err == nil {
				resp.Body.Close()
			} else if !errors.Is(err, ErrDisallowed) {
				t.Fatal(err)
			}
		}
		want := map[string]time.Duration{
			"a.example/1":    0,
			"b.example/1":    0,                // another origin is not held up
			"a.example/2":    2 * time.Second,  // the refused /private took no turn
			"a.example/busy": 4 * time.Second,  // answered 429, Retry-After: 60
			"b.example/2":    5 * time.Second,  // b's Crawl-delay
			"a.example/3":    64 * time.Second, // after the pause
		}
		if len(sent) != len(want) {
			t.Errorf("sent %v, want %v", sent, want)
		}
		for k, w := range want {
			if got, ok := sent[k]; !ok || got != w {
				t.Errorf("%s sent at %v (%v), want %v", k, got, ok, w)
			}
		}
	})
}

// clientCache returns a cache that fetches with client for the crawler
// whose User-Agent header is userAgent.
func clientCache(client *http.Client, userAgent string) *Cache {
	return NewCache(&Options{Client: client, UserAgent: userAgent})
}
