package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// ErrDisallowed is what a [Transport] refuses a request with, wrapped in a
// [*DisallowedError]: match it with errors.Is.
var ErrDisallowed = errors.New("robotstxt: disallowed by robots.txt")

// DisallowedError tells why a [Transport] refused a request.
type DisallowedError struct {
	URL       string // the URL refused, as it would have been sent
	Agent     string // the agent the rules were chosen for
	RobotsURL string
	Line      int    // the deciding line, or 0 when everything is disallowed
	Rule      string // the deciding rule's value as written, or ""
	Source    Source // where the rules came from

	// Status is the status of the latest answer for the robots.txt when
	// it is unreachable (Source Unreachable): 429, 503 or another 5xx, or
	// 0 for a network failure. Retry is when the cache asks for the
	// robots.txt again: a crawler may requeue the URL for then.
	Status int
	Retry  time.Time
}

func (e *DisallowedError) Error() string {
	msg := "robotstxt: " + e.URL + " disallowed for " + strconv.Quote(e.Agent) + " by " + e.RobotsURL
	if e.Line == 0 {
		what := e.Source.String()
		if e.Source == Unreachable {
			what = "unreachable: "
			if e.Status != 0 {
				what += "status " + strconv.Itoa(e.Status)
			} else {
				what += "no answer"
			}
			if !e.Retry.IsZero() {
				what += ", asked again at " + e.Retry.UTC().Format(time.RFC3339)
			}
		}
		return msg + " (" + what + ": everything disallowed)"
	}
	return msg + " line " + strconv.Itoa(e.Line) + " (Disallow: " + e.Rule + ")"
}

// Unwrap returns ErrDisallowed.
func (e *DisallowedError) Unwrap() error { return ErrDisallowed }

// ErrWaitPastDeadline is the cause of a [*WaitError] whose request would
// have had to wait for its turn past its deadline: match it with
// errors.Is.
var ErrWaitPastDeadline = errors.New("robotstxt: the wait for the origin's turn would pass the request's deadline")

// ErrIdentityConflict is the error of every request through a [Transport]
// made with an agent that is not its cache's.
var ErrIdentityConflict = errors.New("robotstxt: NewTransport's agent is not its cache's: pass \"\" to use the cache's")

// WaitError is the error of a request that a paced [Transport] did not
// send because its turn at the origin would come too late: after the
// request's deadline (Err is ErrWaitPastDeadline, and the request fails at
// once, before any wait), or after its context ended during the wait (Err
// is the context's error). It names what asked for the wait.
type WaitError struct {
	URL    string        // the URL not sent
	Origin string        // its origin
	Delay  time.Duration // how long the request would have waited for its turn
	// Reason tells what set the wait: the origin's Crawl-delay, with the
	// robots.txt and line it is on; a Retry-After or back-off after a 429
	// or 503 answer; or the pacer's Delay.
	Reason   string
	Deadline time.Time // the request's deadline, or zero
	Err      error
}

func (e *WaitError) Error() string {
	msg := "robotstxt: " + e.URL + " not sent: its turn at " + e.Origin + " comes in " + e.Delay.Round(time.Millisecond).String() +
		" (" + e.Reason + ")"
	if errors.Is(e.Err, ErrWaitPastDeadline) {
		return msg + ", past the request's deadline in " + max(time.Until(e.Deadline), 0).Round(time.Millisecond).String()
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *WaitError) Unwrap() error { return e.Err }

// Transport is an http.RoundTripper that sends a request on only when the
// robots.txt of its origin allows it, and refuses it with a
// [*DisallowedError] otherwise. Create it with [NewTransport]:
//
//	client := &http.Client{Transport: fetch.NewTransport(nil, "Foobot/1.0 (+https://foo.example/bot)", nil)}
//
// The crawler has one identity, its cache's ([Cache.UserAgent],
// [Cache.Agent]): the Transport sets that User-Agent header on every
// request that has none, pages and robots.txt alike, and chooses rules for
// the product token found in it. A request that sets its own User-Agent
// keeps it. A header in which no product token can be read makes every
// request fail with an [*AgentError] saying so; set Options.Agent then.
//
// The URL asked about is the URL sent: the request goes out with its path
// and query in the form [robotstxt.NormalizeURL] writes them (bytes that no
// URI holds raw %-encoded, escapes with upper-case hex digits, nothing
// decoded), and the rules are asked about exactly that.
//
// With a [Pacer] ([Transport.WithPacer]), each request allowed also waits
// for its turn at its origin, and 429 and 503 answers push the origin's
// next turn back. The wait runs inside RoundTrip, so it counts against the
// request's deadline, such as http.Client.Timeout: when the turn would
// come after the deadline, the request fails at once with a [*WaitError]
// (errors.Is ErrWaitPastDeadline) naming the origin, the wait and what
// asked for it, instead of timing out later. A scheduler that takes its
// turns itself with [Pacer.Reserve] and passes each to its request with
// [WithReservation] keeps the wait out of the request's time.
//
// Requests for /robots.txt itself, and the robots.txt fetches of the cache
// (with their redirects), pass through unchecked, so a cache whose client
// uses this Transport does not ask itself. Errors of the cache (ctx ended,
// a URL with no host) are returned as they are.
type Transport struct {
	base      http.RoundTripper
	userAgent string // the header set on requests that have none
	agent     string // the product token rules are chosen for
	cache     *Cache
	pacer     *Pacer
	err       error // set when the Transport can send nothing
}

// NewTransport returns a Transport that sends allowed requests through base
// (nil: http.DefaultTransport) and checks them with cache. The crawler's
// identity is the cache's ([Cache.UserAgent], [Cache.Agent]); agent should
// then be "". A nil cache means a new one with default [Options], fetching
// through base, with agent as the crawler's User-Agent header: a product
// token ("Foobot") or a whole header ("Foobot/1.0 (+https://foo.example/bot)")
// in which the token is found. A cache configured with no identity takes
// agent's the same way. An agent naming another token than the cache's
// makes every request fail with ErrIdentityConflict, as the crawler would
// otherwise obey robots.txt under one name and fetch under another; an
// identity in which no product token can be read makes every request fail
// with an [*AgentError] that says how to set one.
func NewTransport(base http.RoundTripper, agent string, cache *Cache) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{base: base}
	switch {
	case cache == nil:
		cache = NewCache(&Options{Client: &http.Client{Transport: base}, UserAgent: agent})
		t.userAgent, t.agent = cache.UserAgent(), cache.Agent()
	case cache.UserAgent() == "" && agent != "":
		t.userAgent, t.agent = agent, tokenOf(agent)
	default:
		t.userAgent, t.agent = cache.UserAgent(), cache.Agent()
		if agent != "" && !strings.EqualFold(tokenOf(agent), t.agent) {
			t.err = ErrIdentityConflict
		}
	}
	t.cache = cache
	if t.err == nil && !robotstxt.ValidAgent(t.agent) {
		e := newAgentError(t.agent)
		if t.agent == "" {
			e.UserAgent = t.userAgent
		}
		t.err = e
	}
	return t
}

// tokenOf returns the product token of an identity given as a token or as
// a User-Agent header.
func tokenOf(agent string) string {
	if robotstxt.ValidAgent(agent) {
		return agent
	}
	return robotstxt.ProductToken(agent)
}

// WithPacer returns a copy of t that also paces the requests it sends
// with p: each allowed request waits for its turn ([Pacer.Reserve]), and
// each answer is told to [Pacer.Observe]. A nil p paces nothing. The pacer
// should read the Crawl-delay for the same crawler: give it the same Cache
// and no PacerOptions.Agent.
func (t *Transport) WithPacer(p *Pacer) *Transport {
	t2 := *t
	t2.pacer = p
	return &t2
}

// reservationKey marks a context that carries a turn taken with
// [Pacer.Reserve].
type reservationKey struct{}

// WithReservation returns a copy of ctx that carries r, so that a paced
// [Transport] sends the request made with it on r's turn instead of taking
// a new one: it waits only until r's turn comes, which a scheduler that
// waited for [Reservation.Ready] has seen already. The turn serves one
// request to r's origin; a second request with the same context, such as
// a redirect, takes a turn of its own.
func WithReservation(ctx context.Context, r *Reservation) context.Context {
	return context.WithValue(ctx, reservationKey{}, r)
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" || isRobotsFetch(req.Context()) {
		return t.base.RoundTrip(t.identify(req, nil))
	}
	out, u := t.wire(req)
	err := t.err
	if err == nil {
		err = t.check(req.Context(), u)
	}
	if err == nil && t.pacer != nil {
		err = t.pace(req.Context(), u)
	}
	if err != nil {
		// A RoundTripper must close the body, even on errors.
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(out)
	if t.pacer != nil && resp != nil {
		t.pacer.Observe(u, resp.StatusCode, resp.Header)
	}
	return resp, err
}

// check asks the cache whether u may be fetched.
func (t *Transport) check(ctx context.Context, u string) error {
	d, err := t.cache.Decide(ctx, t.agent, u)
	if err != nil || d.Allowed {
		return err
	}
	e := &DisallowedError{
		URL:       u,
		Agent:     t.agent,
		RobotsURL: d.Result.RobotsURL,
		Line:      d.Line,
		Rule:      d.Rule,
		Source:    d.Source,
	}
	if d.Source == Unreachable {
		e.Status, e.Retry = d.Latest.StatusCode, d.Latest.Expires
	}
	return e
}

// pace waits for u's turn at its origin: the turn ctx carries, or a new
// one. It fails at once when the turn would come after ctx's deadline.
func (t *Transport) pace(ctx context.Context, u string) error {
	r, _ := ctx.Value(reservationKey{}).(*Reservation)
	if r != nil && !r.take(u) {
		r = nil
	}
	if r == nil {
		var err error
		if r, err = t.pacer.Reserve(ctx, u); err != nil {
			return err
		}
	}
	select {
	case <-r.Ready():
		return nil
	default:
	}
	when := r.When()
	if dl, ok := ctx.Deadline(); ok && when.After(dl) {
		r.Cancel()
		return r.waitError(u, when, dl, ErrWaitPastDeadline)
	}
	select {
	case <-r.Ready():
		return nil
	case <-ctx.Done():
	}
	when = r.When()
	r.Cancel()
	dl, _ := ctx.Deadline()
	return r.waitError(u, when, dl, ctx.Err())
}

// take reports whether the reservation may serve a request for u, its
// first to r's origin, and marks it used.
func (r *Reservation) take(u string) bool {
	origin, err := httpOrigin(u)
	if err != nil || origin != r.pc.origin {
		return false
	}
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	if r.used {
		return false
	}
	r.used = true
	return true
}

// waitError describes a request for u not sent because its turn comes at
// when.
func (r *Reservation) waitError(u string, when, deadline time.Time, err error) *WaitError {
	r.p.mu.Lock()
	why := r.why(when)
	r.p.mu.Unlock()
	return &WaitError{
		URL:      u,
		Origin:   r.pc.origin,
		Delay:    max(time.Until(when), 0),
		Reason:   why.String(),
		Deadline: deadline,
		Err:      err,
	}
}

// wire returns the request to send for req, with the crawler's User-Agent
// and the URL's path and query in the form NormalizeURL writes, and that
// URL as a string without userinfo and fragment: what the rules are asked
// about. req itself is not modified, as a RoundTripper must not; when
// nothing changes, req is returned.
func (t *Transport) wire(req *http.Request) (*http.Request, string) {
	if req.URL.Opaque != "" {
		// The caller wrote the request target itself: ask about it.
		return t.identify(req, nil), req.URL.Scheme + "://" + req.URL.Host + req.URL.RequestURI()
	}
	// The path as the caller wrote it: RawPath when it is the path's
	// escaped form, even one Go would not send, so that nothing the
	// caller escaped is decoded.
	path := req.URL.RawPath
	if path == "" || unescapedPath(path) != req.URL.Path {
		path = req.URL.EscapedPath()
	}
	path = robotstxt.NormalizeURL(path)
	query := robotstxt.NormalizeURL(req.URL.RawQuery)
	asked := req.URL.Scheme + "://" + req.URL.Host + path
	if path == "" {
		asked += "/" // as Go sends it
	}
	if query != "" || req.URL.ForceQuery {
		asked += "?" + query
	}
	sent := *req.URL
	sent.RawPath, sent.RawQuery = path, query
	if sent.EscapedPath() != path {
		// Go would not send this RawPath as it is: send it verbatim.
		sent.Opaque = path
	}
	if sent.EscapedPath() == req.URL.EscapedPath() && query == req.URL.RawQuery {
		return t.identify(req, nil), asked
	}
	return t.identify(req, &sent), asked
}

// unescapedPath returns the decoded form of a path, or "\x00" when it is
// not a valid escaped path.
func unescapedPath(p string) string {
	s, err := url.PathUnescape(p)
	if err != nil {
		return "\x00"
	}
	return s
}

// identify returns req with the crawler's User-Agent header when it has
// none, and with u as its URL when u is not nil: a copy, when anything
// changes.
func (t *Transport) identify(req *http.Request, u *url.URL) *http.Request {
	ua := t.userAgent
	_, has := req.Header["User-Agent"]
	setUA := ua != "" && !has
	if !setUA && u == nil {
		return req
	}
	out := req.Clone(req.Context())
	if setUA {
		out.Header.Set("User-Agent", ua)
	}
	if u != nil {
		out.URL = u
	}
	return out
}

// CloseIdleConnections closes the idle connections of the base transport,
// if it has such a method.
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
