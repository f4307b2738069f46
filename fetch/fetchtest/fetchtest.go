// Package fetchtest serves made-up web sites to the tests of a crawler, so
// that they run without a network: each host answers /robots.txt as the
// test says (status, body, headers, a delay, or a network failure) and
// every other path from a handler. It is meant for tests only.
//
// A [Sites] is an http.RoundTripper, to put in the http.Client a crawler
// or a fetch.Cache uses, and an http.Handler, to serve the same sites from
// an httptest.Server when a test needs real connections:
//
//	sites := fetchtest.NewSites(map[string]fetchtest.Answer{
//		"example.com":     {Body: "User-agent: *\nDisallow: /private/\n"},
//		"down.example":    {Status: 503},
//		"slow.example":    {Body: "User-agent: *\nCrawl-delay: 2\n", Delay: time.Second},
//		"offline.example": {Err: errors.New("connection refused")},
//	}, nil)
//	cache := fetch.NewCache(&fetch.Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
//
// Hosts are matched as robotstxt.Origin writes them, without the scheme
// and without the scheme's default port: "example.com" serves
// http://example.com/ and https://EXAMPLE.com:443/, and "münchen.example"
// serves http://xn--mnchen-3ya.example/. A host not listed fails as an unknown DNS name
// would.
package fetchtest

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// Answer is how a host answers its /robots.txt.
type Answer struct {
	// Status is the status code; 0 means 200.
	Status int
	// Body is the body, sent with a Content-Length.
	Body string
	// Header holds headers to send, such as Cache-Control, Location or
	// Retry-After.
	Header http.Header
	// Delay is how long the host takes before it answers. A request whose
	// context ends first fails with the context's error.
	Delay time.Duration
	// Err, when set, makes the request fail with it after Delay, as a
	// network failure would, instead of answering.
	Err error
}

// Sites is a set of made-up web sites. It is safe for concurrent use.
type Sites struct {
	pages http.Handler

	mu     sync.Mutex
	robots map[string]Answer // canonical host → answer
	counts map[string]*counts
}

// counts are the requests a host has had.
type counts struct {
	robots, pages int
}

// NewSites returns sites whose hosts answer /robots.txt as robots says,
// keyed by host name with an optional port, and every other path with
// pages; nil pages answers 200 with a short text naming the URL.
func NewSites(robots map[string]Answer, pages http.Handler) *Sites {
	if pages == nil {
		pages = http.HandlerFunc(page)
	}
	s := &Sites{pages: pages, robots: make(map[string]Answer), counts: make(map[string]*counts)}
	for host, a := range robots {
		s.robots[canonicalHost("", host)] = a
	}
	return s
}

// page is the default page handler.
func page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("page " + r.URL.Path + "\n"))
}

// Set makes host answer its /robots.txt with a from now on; host need not
// have been listed before.
func (s *Sites) Set(host string, a Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.robots[canonicalHost("", host)] = a
}

// Client returns an http.Client that sends its requests to the sites.
func (s *Sites) Client() *http.Client {
	return &http.Client{Transport: s}
}

// Fetches returns how many /robots.txt requests host has had.
func (s *Sites) Fetches(host string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.counts[canonicalHost("", host)]; ok {
		return c.robots
	}
	return 0
}

// Pages returns how many requests for other paths host has had.
func (s *Sites) Pages(host string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.counts[canonicalHost("", host)]; ok {
		return c.pages
	}
	return 0
}

// lookup finds the answer for host's robots.txt and counts the request.
func (s *Sites) lookup(host, path string) (Answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.robots[host]
	if !ok {
		return Answer{}, false
	}
	c := s.counts[host]
	if c == nil {
		c = &counts{}
		s.counts[host] = c
	}
	if path == "/robots.txt" {
		c.robots++
	} else {
		c.pages++
	}
	return a, true
}

// RoundTrip implements http.RoundTripper: it answers req as the sites do,
// without a network.
func (s *Sites) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		// A RoundTripper closes the body, whatever happens; a page
		// handler reads it first.
		defer req.Body.Close()
	}
	host := canonicalHost(req.URL.Scheme, req.URL.Host)
	a, ok := s.lookup(host, req.URL.Path)
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: req.URL.Hostname(), IsNotFound: true}
	}
	if req.URL.Path != "/robots.txt" {
		rec := httptest.NewRecorder()
		s.pages.ServeHTTP(rec, serverRequest(req))
		resp := rec.Result()
		resp.Request = req
		return resp, nil
	}
	if err := sleep(req.Context(), a.Delay); err != nil {
		return nil, err
	}
	if a.Err != nil {
		return nil, a.Err
	}
	status := a.status()
	header := a.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Length", strconv.Itoa(len(a.Body)))
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          &body{Reader: strings.NewReader(a.Body)},
		ContentLength: int64(len(a.Body)),
		Request:       req,
	}, nil
}

// serverRequest returns req as a server would receive it, the way
// httptest.NewRequest builds one: RequestURI is the request target as
// written on the wire, URL holds only its path and query, Host is the Host
// header (the URL's host when none is set), RemoteAddr is set, and TLS for
// https. A handler thus sees what it would see behind a real listener,
// after a redirect too, since each hop comes here as a request of its own.
func serverRequest(req *http.Request) *http.Request {
	r := req.Clone(req.Context())
	r.RequestURI = req.URL.RequestURI()
	r.URL = &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery, ForceQuery: req.URL.ForceQuery}
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
		r.URL = u
	}
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.RemoteAddr = "192.0.2.1:1234"
	if req.URL.Scheme == "https" {
		r.TLS = &tls.ConnectionState{Version: tls.VersionTLS12, HandshakeComplete: true, ServerName: req.URL.Hostname()}
	}
	return r
}

// ServeHTTP implements http.Handler: it answers r as the site named by its
// Host header does. A host not listed gets 421 Misdirected Request; an
// Answer with Err set breaks the connection.
func (s *Sites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a, ok := s.lookup(canonicalHost("", r.Host), r.URL.Path)
	if !ok {
		http.Error(w, "fetchtest: no such host "+r.Host, http.StatusMisdirectedRequest)
		return
	}
	if r.URL.Path != "/robots.txt" {
		s.pages.ServeHTTP(w, r)
		return
	}
	if sleep(r.Context(), a.Delay) != nil {
		return
	}
	if a.Err != nil {
		panic(http.ErrAbortHandler) // closes the connection without an answer
	}
	for k, v := range a.Header {
		w.Header()[k] = append([]string(nil), v...)
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(a.Body)))
	w.WriteHeader(a.status())
	w.Write([]byte(a.Body))
}

func (a Answer) status() int {
	if a.Status == 0 {
		return http.StatusOK
	}
	return a.Status
}

// body is a response body that can be closed.
type body struct{ *strings.Reader }

func (body) Close() error { return nil }

// sleep waits for d, or until ctx ends and returns its error.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// canonicalHost names host as robotstxt.Origin names it, as the cache
// does: in lower case, a Unicode name in its Punycode form, the scheme's
// default port dropped, so that "EXAMPLE.com:80" and "example.com" are one
// site over http. Without a scheme, as in the keys a test gives and in Host
// headers, both :80 and :443 are dropped. A host Origin refuses is only
// folded to lower case, so that such a key still names itself.
func canonicalHost(scheme, host string) string {
	if scheme == "" {
		scheme, host = "http", strings.TrimSuffix(host, ":443")
	}
	origin, err := robotstxt.Origin(scheme + "://" + host + "/")
	if err != nil {
		return grammar.LowerString(host)
	}
	return origin[strings.Index(origin, "://")+3:]
}
