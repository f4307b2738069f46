package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// ErrDisallowed is what a [Transport], [Cache.Check] and [Pacer.Reserve]
// refuse a URL the rules disallow with, wrapped in a [*DisallowedError]:
// match it with errors.Is.
var ErrDisallowed = errors.New("robotstxt: disallowed by robots.txt")

// DisallowedError tells why a URL was refused.
type DisallowedError struct {
	URL       string // the URL refused, as it would have been sent
	Agent     string // the agent the rules were chosen for
	RobotsURL string
	Line      int    // the deciding line, or 0 when everything is disallowed
	Rule      string // the deciding rule's value as written, or ""
	Source    Source // where the rules came from
}

// disallowedError returns the error of a URL that d disallows for agent.
func disallowedError(d Decision, agent string) *DisallowedError {
	return &DisallowedError{
		URL:       d.URL,
		Agent:     agent,
		RobotsURL: d.Result.RobotsURL,
		Line:      d.Line,
		Rule:      d.Rule,
		Source:    d.Source,
	}
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

// ErrRetryLater is the cause of every [*RetryError]: match it with
// errors.Is.
var ErrRetryLater = errors.New("robotstxt: robots.txt unreachable: ask again later")

// RetryError is the error of a URL whose origin's robots.txt is
// unreachable (a 429 or 5xx answer, or none) with no good copy held. A
// request waits for the next fetch of the robots.txt once, when it is due
// within Options.MaxRetryWait (30 seconds by default) and
// before the request's deadline, and for no longer than that in all; it
// gets a RetryError at once when that fetch is due later, and after it when
// that fetch finds the robots.txt unreachable again or has not ended in
// time. It is no refusal: the URL may be allowed once the robots.txt
// answers, so a crawler requeues it for When.
type RetryError struct {
	URL       string // the URL not sent
	RobotsURL string
	Status    int // the robots.txt's latest status: 429, 5xx, or 0 for no answer
	// Cause is why the latest fetch gave no answer to use ([Result].Err):
	// a network failure or a timeout (Status is 0), or a body cut short
	// (Status is that of the answer, such as 200); nil for a 429 or 5xx.
	Cause error
	// When is when the robots.txt is asked again: the cache fetches it
	// then, and a [Pacer] gives the origin no turn before.
	When time.Time
	// Err is the context's error when the request's context ended while
	// it waited for that fetch, or nil.
	Err error
}

// retryError returns the error of the URL d answered for, whose robots.txt
// is unreachable; err is the context's error, if it ended.
func retryError(d Decision, err error) *RetryError {
	e := &RetryError{URL: d.URL, RobotsURL: d.Latest.RobotsURL, Status: d.Latest.StatusCode, Cause: d.Latest.Err, Err: err}
	e.When, _ = retryAt(d.Latest)
	return e
}

func (e *RetryError) Error() string {
	msg := "robotstxt: " + e.URL + " not sent: " + e.RobotsURL + " is unreachable ("
	switch {
	case e.Status != 0 && e.Cause != nil:
		msg += "status " + strconv.Itoa(e.Status) + ": " + e.Cause.Error()
	case e.Status != 0:
		msg += "status " + strconv.Itoa(e.Status)
	case e.Cause != nil:
		msg += e.Cause.Error()
	default:
		msg += "no answer"
	}
	msg += "); it is asked again at " + e.When.UTC().Format(time.RFC3339) + ", in " + max(time.Until(e.When), 0).Round(time.Millisecond).String()
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns ErrRetryLater, and the context's error when there is one.
func (e *RetryError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrRetryLater, e.Err}
	}
	return []error{ErrRetryLater}
}

// ErrWaitPastDeadline is the cause of every [*WaitError]: a request that
// would have had to wait for its turn past its deadline, or whose context
// ended while it waited. Match it with errors.Is.
var ErrWaitPastDeadline = errors.New("robotstxt: the wait for the origin's turn would pass the request's deadline")

// WaitError is the error of a request that was not sent because its turn
// at the origin came too late: after the request's deadline (the request
// fails at once, before any wait, and Err is ErrWaitPastDeadline), or
// after its context ended during the wait (Err is the context's error).
// Either way errors.Is finds ErrWaitPastDeadline. It names the origin, the
// wait and what asked for it.
type WaitError struct {
	URL    string        // the URL not sent
	Origin string        // its origin
	Delay  time.Duration // how long the request would have waited for its turn
	// Reason tells what set the wait: the origin's Crawl-delay, with the
	// robots.txt and line it is on; a Retry-After or back-off after a 429
	// or 503 answer; the next fetch of an unreachable robots.txt; or the
	// pacer's Delay.
	Reason   string
	Deadline time.Time // the request's deadline, or zero
	Err      error
}

func (e *WaitError) Error() string {
	msg := "robotstxt: " + e.URL + " not sent: its turn at " + e.Origin + " comes in " + e.Delay.Round(time.Millisecond).String() +
		" (" + e.Reason + ")"
	if e.Err == ErrWaitPastDeadline {
		return msg + ", past the request's deadline in " + max(time.Until(e.Deadline), 0).Round(time.Millisecond).String()
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns ErrWaitPastDeadline, and the context's error when the
// context ended during the wait.
func (e *WaitError) Unwrap() []error {
	if e.Err == nil || e.Err == ErrWaitPastDeadline {
		return []error{ErrWaitPastDeadline}
	}
	return []error{ErrWaitPastDeadline, e.Err}
}

// Transport is an http.RoundTripper that sends a request on only when the
// robots.txt of its origin allows it, and refuses it with a
// [*DisallowedError] otherwise. Create it with [NewTransport]:
//
//	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
//	client := &http.Client{Transport: fetch.NewTransport(nil, cache)}
//
// The crawler has one identity, its cache's ([Cache.UserAgent],
// [Cache.Agent]): the Transport sends that User-Agent header with every
// request, pages and robots.txt alike, and chooses rules for the product
// token found in it. A User-Agent the request carries is replaced, so that
// no page goes out under another name than the one robots.txt was obeyed
// for: a framework that sets its own on every request (colly sends
// "colly - https://github.com/gocolly/colly") needs no setting of its own.
// The caller's request is not modified. A header in which no product token
// can be read, or an Options.Agent that is none, makes every request fail
// with an [*AgentError] that states the rule, before anything is sent;
// [Transport.Err] returns it right after [NewTransport].
//
// The URL asked about is the URL sent: the request goes out with its path
// and query in the form [robotstxt.NormalizeURL] writes them (bytes that no
// URI holds raw %-encoded, escapes with upper-case hex digits, nothing
// decoded), and the rules are asked about exactly that, with
// [Cache.Check]: a URL they disallow is refused with a [*DisallowedError],
// and one whose robots.txt is unreachable waits for its next fetch when
// that comes within Options.MaxRetryWait (30 seconds by default) and
// before the request's deadline, or fails at once with a [*RetryError]
// saying when to try again: a client with no Timeout waits no longer.
//
// With a [Pacer] ([Transport.WithPacer]), each request allowed also waits
// for its turn at its origin, and 429 and 503 answers push the origin's
// next turn back. The wait runs inside RoundTrip, so it counts against the
// request's deadline, such as http.Client.Timeout: when the turn would
// come after the deadline (or within 100 ms of it), the request fails at
// once with a [*WaitError] (errors.Is ErrWaitPastDeadline) naming the
// origin, the wait and what asked for it, instead of timing out later. A
// turn pushed back during the wait (a 429 or 503 meanwhile) ends the wait
// 100 ms before the deadline with the same error, ahead of the client's
// own timeout and its "Client.Timeout exceeded", which would hide it; a
// request whose context ends while it waits gets one too. A scheduler that takes its
// turns itself with [Pacer.Reserve] and passes each to its request with
// [Reservation.Context] keeps the wait out of the request's time.
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
// (nil: http.DefaultTransport) and checks them with cache, whose identity
// is the crawler's ([Cache.UserAgent], [Cache.Agent]): the one set in its
// [Options]. A cache whose identity gives no product token, or a nil
// cache, which has none, makes every request fail with an [*AgentError]
// that says how to set one; [Transport.Err] returns it. A tool that sends
// requests as another crawler passes a view of the cache for that agent
// ([Cache.For]).
func NewTransport(base http.RoundTripper, cache *Cache) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	if cache == nil {
		cache = NewCache(&Options{Client: &http.Client{Transport: base}})
	}
	t := &Transport{base: base, userAgent: cache.UserAgent(), agent: cache.Agent(), cache: cache}
	if err := cache.IdentityErr(); err != nil {
		t.err = err
	}
	return t
}

// Err returns the error that every request through t fails with, before
// anything is sent, because of the crawler's identity: the [*AgentError]
// of [Cache.IdentityErr]; nil when t can send. NewTransport cannot return
// it: a crawler calls Err right after it to fail at start-up rather than
// at its first request.
func (t *Transport) Err() error { return t.err }

// WithPacer returns a copy of t that also paces the requests it sends
// with p: each allowed request waits for its turn ([Pacer.Reserve]), and
// each answer is told to [Pacer.Observe]. A nil p paces nothing. The pacer
// should read the Crawl-delay for the same crawler: give it the same Cache.
func (t *Transport) WithPacer(p *Pacer) *Transport {
	t2 := *t
	t2.pacer = p
	return &t2
}

// reservationKey marks a context that carries a turn taken with
// [Pacer.Reserve].
type reservationKey struct{}

// Context returns a copy of parent that carries r, for the request to be
// sent on r's turn: a paced [Transport] sends the request made with it on
// r's turn instead of taking a new one, and waits only until r's turn
// comes, which a scheduler that waited for [Reservation.Ready] has seen
// already. The turn serves one request to r's origin; a second request
// with the same context, such as a redirect, takes a turn of its own. A
// nil r, such as the Reservation [Scheduler.Turns] yields with an error,
// carries no turn: the request takes one of its own.
func (r *Reservation) Context(parent context.Context) context.Context {
	return context.WithValue(parent, reservationKey{}, r)
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" || isRobotsFetch(req.Context()) {
		return t.base.RoundTrip(t.identify(req, nil))
	}
	out, u := t.wire(req)
	err := t.err
	if err == nil {
		_, err = t.cache.check(req.Context(), u)
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
	dl, hasDL := ctx.Deadline()
	last := dl.Add(-waitGuard)
	if hasDL && when.After(last) {
		r.Cancel()
		return r.waitError(u, when, dl, ErrWaitPastDeadline)
	}
	// The wait ends by itself just before the deadline: a turn pushed
	// back meanwhile (a 429 or 503) must not leave the request to the
	// client's timeout, whose error would hide this one.
	var guard <-chan time.Time
	if hasDL {
		tm := time.NewTimer(time.Until(last))
		defer tm.Stop()
		guard = tm.C
	}
	var err error
	select {
	case <-r.Ready():
		return nil
	case <-guard:
		err = ErrWaitPastDeadline
	case <-ctx.Done():
		err = ctx.Err()
	}
	select {
	case <-r.Ready(): // it came as the wait ended: take it
		return nil
	default:
	}
	when = r.When()
	r.Cancel()
	return r.waitError(u, when, dl, err)
}

// waitGuard is how long before a request's deadline its wait for a turn,
// or for the next fetch of an unreachable robots.txt, must end: a turn
// that comes later counts as past the deadline, as the request would have
// next to no time left, and the wait ends with an error of this package
// before an http.Client's own timeout ends it with one of its own.
const waitGuard = 100 * time.Millisecond

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

// identify returns req with the crawler's User-Agent header, in place of
// any other, and with u as its URL when u is not nil: a copy, when
// anything changes.
func (t *Transport) identify(req *http.Request, u *url.URL) *http.Request {
	ua := t.userAgent
	setUA := ua != "" && (len(req.Header["User-Agent"]) != 1 || req.Header.Get("User-Agent") != ua)
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
