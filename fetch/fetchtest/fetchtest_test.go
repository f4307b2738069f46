package fetchtest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

var errRefused = errors.New("connection refused")

func newSites() *fetchtest.Sites {
	return fetchtest.NewSites(map[string]fetchtest.Answer{
		"example.com":       {Body: "User-agent: *\nDisallow: /private/\n", Header: http.Header{"Cache-Control": {"max-age=60"}}},
		"Upper.Example":     {Body: "User-agent: *\nDisallow: /\n"},
		"port.example:8080": {Body: "User-agent: *\nDisallow: /p\n"},
		"missing.example":   {Status: 404},
		"down.example":      {Status: 503},
		"offline.example":   {Err: errRefused},
		"moved.example":     {Status: 301, Header: http.Header{"Location": {"http://example.com/robots.txt"}}},
		"slow.example":      {Body: "User-agent: *\nDisallow: /slow\n", Delay: time.Hour},
		"MÜNCHEN.example":   {Body: "User-agent: *\nDisallow: /\n"},
	}, nil)
}

// TestSitesWithFetch checks each kind of answer through the fetch layer,
// as a crawler's test would use them.
func TestSitesWithFetch(t *testing.T) {
	tests := []struct {
		url        string
		status     int
		kind       robotstxt.Kind
		err        error
		robotsHost string
		reason     string
	}{
		{"http://example.com/x", 200, robotstxt.Parsed, nil, "example.com", "a body is served with its status"},
		{"https://EXAMPLE.com:443/x", 200, robotstxt.Parsed, nil, "example.com", "hosts match without case, scheme or default port"},
		{"http://upper.example/", 200, robotstxt.Parsed, nil, "upper.example", "keys are matched without case"},
		{"http://port.example:8080/", 200, robotstxt.Parsed, nil, "port.example:8080", "a non-default port is part of the host"},
		{"http://missing.example/", 404, robotstxt.AllowAll, nil, "missing.example", "a status without body"},
		{"http://down.example/", 503, robotstxt.DisallowAll, nil, "down.example", "a server error"},
		{"http://offline.example/", 0, robotstxt.DisallowAll, errRefused, "offline.example", "Err fails the request as a network failure"},
		{"http://moved.example/", 200, robotstxt.Parsed, nil, "moved.example", "redirects are followed to other sites"},
		{"http://xn--mnchen-3ya.example/x", 200, robotstxt.Parsed, nil, "münchen.example", "hosts are named as robotstxt.Origin names them: a Unicode key serves its Punycode form"},
		{"http://nowhere.example/", 0, robotstxt.DisallowAll, nil, "", "an unknown host fails as an unknown DNS name"},
	}
	for _, tt := range tests {
		sites := newSites()
		res, err := fetch.Fetch(context.Background(), sites.Client(), "Foobot/1.0", tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != tt.status || res.Robots.Kind() != tt.kind || tt.err != nil && !errors.Is(res.Err, tt.err) {
			t.Errorf("%s: status %d, kind %v, err %v; want %d, %v, %v (%s)", tt.url, res.StatusCode, res.Robots.Kind(), res.Err, tt.status, tt.kind, tt.err, tt.reason)
		}
		if tt.robotsHost != "" && sites.Fetches(tt.robotsHost) != 1 {
			t.Errorf("%s: %d robots.txt requests counted for %s, want 1 (%s)", tt.url, sites.Fetches(tt.robotsHost), tt.robotsHost, tt.reason)
		}
	}
}

func TestSitesUnknownHost(t *testing.T) {
	_, err := newSites().Client().Get("http://nowhere.example/robots.txt")
	var dns *net.DNSError
	if !errors.As(err, &dns) || !dns.IsNotFound {
		t.Errorf("unknown host: %v, want a not-found *net.DNSError", err)
	}
}

// TestSitesDelay checks that a delayed answer gives way to the request's
// context, as a slow server does.
func TestSitesDelay(t *testing.T) {
	sites := newSites()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := fetch.Fetch(ctx, sites.Client(), "", "http://slow.example/")
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("slow site: err %v after %v; want the deadline, soon", res.Err, time.Since(start))
	}
}

// TestSitesSet checks that a test can change a site's answer between
// fetches, and that pages are counted apart from robots.txt.
func TestSitesSet(t *testing.T) {
	sites := newSites()
	client := sites.Client()
	for i, want := range []int{200, 503} {
		if i == 1 {
			sites.Set("example.com", fetchtest.Answer{Status: 503})
		}
		resp, err := client.Get("http://example.com/robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("fetch %d: status %d, want %d", i, resp.StatusCode, want)
		}
	}
	resp, err := client.Get("http://example.com/a/page")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "page /a/page\n" || sites.Fetches("example.com") != 2 || sites.Pages("example.com") != 1 {
		t.Errorf("page %q, %d fetches, %d pages; want the default page, 2, 1", b, sites.Fetches("example.com"), sites.Pages("example.com"))
	}
}

// TestSitesServer checks the same sites served over real connections, the
// Host header choosing the site.
func TestSitesServer(t *testing.T) {
	srv := httptest.NewServer(newSites())
	defer srv.Close()
	tests := []struct {
		host   string
		status int
		broken bool
		reason string
	}{
		{"example.com", 200, false, "a listed host"},
		{"down.example", 503, false, "a listed status"},
		{"offline.example", 0, true, "Err breaks the connection"},
		{"nowhere.example", http.StatusMisdirectedRequest, false, "an unknown host"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("GET", srv.URL+"/robots.txt", nil)
		req.Host = tt.host
		resp, err := srv.Client().Do(req)
		if tt.broken {
			if err == nil {
				resp.Body.Close()
				t.Errorf("%s: status %d, want a broken connection (%s)", tt.host, resp.StatusCode, tt.reason)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.host, err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d (%s)", tt.host, resp.StatusCode, tt.status, tt.reason)
		}
	}
}

// A crawler's test gives each made-up site its robots.txt answer, and the
// cache fetches them without a network.
func ExampleSites() {
	sites := fetchtest.NewSites(map[string]fetchtest.Answer{
		"example.com":  {Body: "User-agent: foobot\nDisallow: /private/\n"},
		"down.example": {Status: 503},
	}, nil)
	cache := fetch.NewCache(&fetch.Options{Client: sites.Client(), UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	ctx := context.Background()
	for _, u := range []string{"http://example.com/", "http://example.com/private/x", "http://down.example/"} {
		d, err := cache.Decide(ctx, u)
		fmt.Println(u, d.Allowed, d.Source, "ask again later:", errors.Is(err, fetch.ErrRetryLater))
	}
	fmt.Println("robots.txt requests to example.com:", sites.Fetches("example.com"))
	// Output:
	// http://example.com/ true fresh ask again later: false
	// http://example.com/private/x false fresh ask again later: false
	// http://down.example/ false unreachable ask again later: true
	// robots.txt requests to example.com: 1
}

// TestSitesServerSideRequest checks that a page handler gets the request a
// server would get, as httptest.NewRequest builds it: Host and RequestURI
// set, a URL with only path and query; after a redirect too, where the
// second hop is a request of its own (issue 17, fetchtest).
func TestSitesServerSideRequest(t *testing.T) {
	type seen struct{ host, uri, urlHost, path, remote string }
	var got []seen
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, seen{r.Host, r.RequestURI, r.URL.Host, r.URL.Path, r.RemoteAddr})
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "http://other.example/new?x=1", http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	})
	sites := fetchtest.NewSites(map[string]fetchtest.Answer{
		"example.com":   {Body: "User-agent: *\n"},
		"other.example": {Body: "User-agent: *\n"},
	}, pages)
	for _, u := range []string{"http://example.com/a%20b/c?q=%C3%BC", "http://example.com/old"} {
		resp, err := sites.Client().Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []seen{
		{"example.com", "/a%20b/c?q=%C3%BC", "", "/a b/c", "192.0.2.1:1234"},
		{"example.com", "/old", "", "/old", "192.0.2.1:1234"},
		{"other.example", "/new?x=1", "", "/new", "192.0.2.1:1234"},
	}
	if len(got) != len(want) {
		t.Fatalf("handler saw %d requests, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("request %d: handler saw %+v, want %+v", i, got[i], want[i])
		}
	}
}
