package fetch

import (
	"errors"
	"net/http"
	"strconv"
)

// ErrDisallowed is what a [Transport] refuses a request with, wrapped in a
// [*DisallowedError]: match it with errors.Is.
var ErrDisallowed = errors.New("robotstxt: disallowed by robots.txt")

// DisallowedError tells why a [Transport] refused a request.
type DisallowedError struct {
	URL       string // the URL refused
	Agent     string // the agent the rules were chosen for
	RobotsURL string
	Line      int    // the deciding line, or 0 when everything is disallowed
	Rule      string // the deciding rule's value as written, or ""
	Source    Source // where the rules came from
}

func (e *DisallowedError) Error() string {
	msg := "robotstxt: " + e.URL + " disallowed for " + strconv.Quote(e.Agent) + " by " + e.RobotsURL
	if e.Line == 0 {
		return msg + " (" + e.Source.String() + ": everything disallowed)"
	}
	return msg + " line " + strconv.Itoa(e.Line) + " (Disallow: " + e.Rule + ")"
}

// Unwrap returns ErrDisallowed.
func (e *DisallowedError) Unwrap() error { return ErrDisallowed }

// Transport is an http.RoundTripper that sends a request on only when the
// robots.txt of its origin allows it, and refuses it with a
// [*DisallowedError] otherwise. Create it with [NewTransport]:
//
//	client := &http.Client{Transport: fetch.NewTransport(nil, "Foobot", nil)}
//
// The agent rules are chosen for is the product token given to NewTransport,
// or the cache's ([Cache.Agent]), not the request's User-Agent header: a
// User-Agent header such as "Mozilla/5.0 (compatible; Foobot/2.1)" names no
// group of any file, and an agent that is not a product token makes every
// request fail with an [*AgentError]. The URL is matched as
// [robotstxt.NormalizeURL] writes it.
//
// With a [Pacer] ([Transport.WithPacer]), each request allowed also waits
// for its turn at its origin, and 429 and 503 answers push the origin's
// next turn back.
//
// Requests for /robots.txt itself, and the robots.txt fetches of the cache
// (with their redirects), pass through unchecked, so a cache whose client
// uses this Transport does not ask itself. Errors of the cache (ctx ended,
// a URL with no host) are returned as they are.
type Transport struct {
	base  http.RoundTripper
	agent string
	cache *Cache
	pacer *Pacer
}

// NewTransport returns a Transport that sends allowed requests through base
// (nil: http.DefaultTransport) and checks them for agent with cache. An
// agent "" means the cache's, [Cache.Agent]. A nil cache means a new one
// with default [Options], fetching through base with agent as its
// User-Agent header.
func NewTransport(base http.RoundTripper, agent string, cache *Cache) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	if cache == nil {
		cache = NewCache(&Options{Client: &http.Client{Transport: base}, UserAgent: agent})
	}
	if agent == "" {
		agent = cache.Agent()
	}
	return &Transport{base: base, agent: agent, cache: cache}
}

// WithPacer returns a copy of t that also paces the requests it sends
// with p: each allowed request waits for [Pacer.Wait], and each answer is
// told to [Pacer.Observe]. A nil p paces nothing. The pacer reads the
// Crawl-delay of its own agent (PacerOptions.Agent), normally the same.
func (t *Transport) WithPacer(p *Pacer) *Transport {
	t2 := *t
	t2.pacer = p
	return &t2
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" || isRobotsFetch(req.Context()) {
		return t.base.RoundTrip(req)
	}
	u := req.URL.String()
	d, err := t.cache.Decide(req.Context(), t.agent, u)
	if err == nil && !d.Allowed {
		err = &DisallowedError{
			URL:       u,
			Agent:     t.agent,
			RobotsURL: d.Result.RobotsURL,
			Line:      d.Line,
			Rule:      d.Rule,
			Source:    d.Source,
		}
	}
	if err == nil && t.pacer != nil {
		err = t.pacer.Wait(req.Context(), u)
	}
	if err != nil {
		// A RoundTripper must close the body, even on errors.
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if t.pacer != nil && resp != nil {
		t.pacer.Observe(u, resp.StatusCode, resp.Header)
	}
	return resp, err
}

// CloseIdleConnections closes the idle connections of the base transport,
// if it has such a method.
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
