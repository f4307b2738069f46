// Package fetch fetches robots.txt files over HTTP and caches them per
// origin, the way RFC 9309 §2.3 and Google describe a crawler doing it, so
// that a crawler can ask "may I fetch this URL?" in one call.
//
// It offers four parts, each usable alone:
//
//   - [Fetch] fetches the robots.txt of one URL's origin once and tells what
//     happened: status, redirects, bytes read, and the rules that follow.
//   - A [Cache] keeps the rules of many origins, refreshes them when they
//     expire, and answers [Cache.Allowed] for any URL.
//   - A [Pacer] spaces the requests to each origin as its Crawl-delay asks,
//     and backs off when a site answers 429 or 503.
//   - A [Transport] is an http.RoundTripper that refuses the requests
//     robots.txt disallows, and with a Pacer waits for each one's turn.
//
// Two lines make an http.Client obey robots.txt:
//
//	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
//	client := &http.Client{Transport: fetch.NewTransport(nil, cache)}
//	_, err := client.Get("https://example.com/private/x")
//	if errors.Is(err, fetch.ErrDisallowed) { ... }
//
// A crawler states its identity once, in [Options]: the User-Agent header it
// sends and the product token its robots.txt groups use, found in the header
// when not given ("Foobot/1.0 (+https://foo.example/bot)" gives "Foobot").
// The robots.txt requests carry that header, and a [Transport] sends it
// with every request, in place of any other; the Transport, the [Pacer]
// and every answer of the Cache take the identity from the Cache, and
// nowhere else. A tool that asks about another crawler asks a view of the
// cache for that agent ([Cache.For]). An agent that is not a product
// token fails with an [*AgentError] rather than being answered for the
// global group, which is what the core package does with such an agent. URLs are matched in the form a Transport sends them
// ([robotstxt.NormalizeURL]), so a raw href with non-ASCII bytes or a space
// meets the rule written for the URL that goes out. Package fetchtest
// serves made-up sites to a crawler's tests.
//
// # Timeouts, schedulers and other HTTP clients
//
// A paced Transport waits for the origin's turn inside RoundTrip, so the
// wait counts against the request's deadline: http.Client.Timeout, or the
// request context's. It never eats that deadline silently: a request whose
// turn would come after its deadline fails at once with a [*WaitError]
// (errors.Is [ErrWaitPastDeadline]) naming the origin, the wait and what
// asked for it (a Crawl-delay line, a Retry-After). A crawler with many
// origins takes turns with [Pacer.Reserve], which does not wait, serves
// other origins until [Reservation.When], and sends the request with
// [Reservation.Context]: the Transport then sends it on that turn, and the
// client's timeout covers only the request itself.
//
// Crawler frameworks that take an http.RoundTripper, such as colly with
// WithTransport, run their own timeout around it (colly's is 10 s): with
// many requests queued for one slow origin, later ones get WaitErrors.
// Give the framework's own rate limit the spacing and leave the pacer out
// of the Transport, or raise its timeout above the queue's wait.
//
// # How a fetch is read
//
// A robots.txt is fetched with an unconditional GET of
// scheme://host[:port]/robots.txt (see [robotstxt.RobotsURL]); only http and
// https URLs can be fetched. At most [MaxBodySize] bytes of the body are
// read and the rest is ignored; the connection is then closed, not drained.
// Up to five redirects are followed, to any host; the rules found
// apply to the origin first asked. Then, per RFC 9309 §2.3.1 and
// [robotstxt.FromStatus]:
//
//	2xx                            the body is parsed
//	4xx except 429                 no robots.txt: everything is allowed
//	a sixth redirect (loops too)   as for a 404: everything is allowed
//	429, 5xx, other codes          unreachable: everything is disallowed
//	network failure, timeout,      unreachable: everything is disallowed
//	or a body cut short
//
// # Caching
//
// A [Cache] keeps each origin's rules for 24 hours by default. A
// Cache-Control max-age on the robots.txt response lengthens or shortens
// that, within one minute and Options.MaxTTL (7 days by default; RFC 9309 §2.4
// asks for at most 24 hours, which setting MaxTTL to 24h enforces).
// "no-store" and "no-cache" mean "as short as allowed": a crawler that
// fetched robots.txt before every request would double its load on the
// site, so they shorten the lifetime to one minute rather than disabling the
// cache. Age and Expires headers are ignored.
//
// An unreachable result is retried after the Retry-After of its 429 or 503
// answer (at least one second), or else after
// Options.RetryTTL (5 minutes by default): that one time, the result's
// Expires, is when the cache asks again, when a [Pacer] gives the origin
// its next turn, and what a [*RetryError] names. While an origin stays
// unreachable, the cache answers with the last good copy it holds, however
// old (a 2xx or a 4xx answer counts as good); with none, everything is
// disallowed, until the origin has been unreachable for more than 30 days
// (Options.GiveUpAfter), when everything is allowed (RFC 9309 §2.3.1.4).
// [File.Source] tells which case applies. A URL asked about with
// [Cache.Allowed], [Cache.Decide], [Cache.Check] or the other answers of
// the cache, or sent through a [Transport], is not refused for an origin
// that is unreachable with no good copy: the answer waits for the next
// fetch when that comes within Options.MaxRetryWait (30 seconds by
// default) and before its deadline, and is a [*RetryError] otherwise.
//
// A fleet of crawler processes can share one cache: set Options.Store
// (module github.com/robotstxt-go/robotstxt/redisstore keeps it in Redis),
// and each robots.txt is fetched once for the whole fleet. See [Store].
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/redirect"
	"github.com/robotstxt-go/robotstxt/lint"
)

// MaxBodySize is how much of a robots.txt body is read: 500 KiB, Google's
// limit and the least RFC 9309 §2.5 allows.
const MaxBodySize = grammar.MaxBodySize

// maxRedirects is how many redirects a fetch follows (RFC 9309 §2.3.1.2:
// at least five). One more is answered as a 404 would be. The audit module
// follows recorded redirects by the same rule.
const maxRedirects = redirect.Max

// Lifetimes and limits used when [Options] leaves them zero, and by [Fetch].
// The doc comment of each Options field states its value, and Fetch's doc
// the timeout of its nil client; TestZeroOptionsDefaults holds them.
const (
	// defaultTimeout bounds each robots.txt fetch of a [Cache] whose
	// Options.Timeout is zero, and each fetch of [Fetch] given a nil client.
	defaultTimeout     = 30 * time.Second
	defaultTTL         = 24 * time.Hour
	defaultMaxTTL      = 7 * 24 * time.Hour
	defaultRetryTTL    = 5 * time.Minute
	defaultGiveUpAfter = 30 * 24 * time.Hour
	defaultMaxEntries  = 10000
	// defaultMaxRetryWait is the default of Options.MaxRetryWait: the
	// longest an answer waits for the next fetch of an unreachable
	// robots.txt, so that a request through a client with no Timeout
	// fails with a [*RetryError] rather than seem to hang for RetryTTL.
	defaultMaxRetryWait = 30 * time.Second
)

// minTTL is the shortest time a fetched robots.txt is kept, whatever its
// Cache-Control says.
const minTTL = time.Minute

// minRetryAfter is the shortest wait before an unreachable robots.txt is
// asked again, however short the Retry-After of its 429 or 503 answer
// ("0", or a date already past): a server that asks to be asked again at
// once gets a second's rest.
const minRetryAfter = time.Second

var (
	// errTooManyRedirects is the Result.Err of a fetch that met more than
	// maxRedirects redirects; its rules allow everything.
	errTooManyRedirects = errors.New("robotstxt: more than 5 redirects, answered as a 404")
	// errRedirectLoop is the Result.Err of a fetch whose redirects came back
	// to a URL already visited and went on past maxRedirects; its rules
	// allow everything.
	errRedirectLoop = errors.New("robotstxt: redirect loop, answered as a 404")
	// ErrUnsupportedScheme is returned, wrapped in a *robotstxt.URLError,
	// for URLs whose scheme is neither http nor https.
	ErrUnsupportedScheme = errors.New("scheme is not http or https")
)

// Result is what one fetch of a robots.txt found. Results handed out by a
// [Cache] are shared: treat them as read-only.
type Result struct {
	// RobotsURL is the URL fetched: scheme://host[:port]/robots.txt.
	RobotsURL string
	// FinalURL is the URL that gave the final response, after redirects,
	// or "" when no response arrived.
	FinalURL string
	// StatusCode is the status of the final response, or 0 when none
	// arrived.
	StatusCode int
	// Redirects is the number of redirects followed.
	Redirects int
	// Bytes is the number of body bytes read, at most MaxBodySize. Only
	// 2xx bodies are read.
	Bytes int
	// Truncated reports whether the body went on past MaxBodySize, or
	// broke off right after MaxBodySize bytes; the rest was ignored.
	Truncated bool
	// Robots holds the rules that follow from the fetch; never nil. Its
	// Kind is Parsed for a 2xx body, AllowAll and DisallowAll otherwise.
	Robots *robotstxt.Robots
	// Err tells why the fetch gave no answer to use as is: a network
	// failure, a timeout or a body cut short (Robots disallows
	// everything), or an error saying that the redirects went on past
	// five, in a loop or not (Robots allows everything). It is nil when a status code decided, 429 and
	// 5xx included.
	Err error
	// Fetched is when the fetch ended, and Duration how long it took.
	Fetched  time.Time
	Duration time.Duration
	// TTL is how long the result may be used, and Expires is Fetched+TTL:
	// from Cache-Control max-age or the default for a good result; for an
	// unreachable one, the retry interval, or the answer's Retry-After
	// when it has one, bounded by one second and MaxTTL. The Expires of
	// an unreachable result is when the robots.txt is asked again: a
	// [Cache] fetches it again then, a [Pacer] gives the origin no turn
	// before then, and a [*RetryError] says so.
	TTL     time.Duration
	Expires time.Time
	// RetryAfter is the Retry-After of a 429 or 503 answer (RFC 9110
	// §10.2.3), as a wait from Fetched, at least one second, or 0 when
	// there is none.
	RetryAfter time.Duration
	// NotRobots, when not nil, tells that the 2xx body is no robots.txt at
	// all: an HTML page (an error page or a login form served with 200) or
	// other markup (an XML sitemap), UTF-16 text or binary data
	// (lint.NotRobots). It wraps lint.ErrHTML or
	// lint.ErrEncoding. The body is parsed all the same, as Google's
	// parser reads it, and yields no rules a crawler would expect.
	NotRobots error
}

// Unreachable reports whether the fetch found the robots.txt unreachable
// (429, 5xx, network failure...), so that its rules disallow everything.
func (r *Result) Unreachable() bool {
	return r.Robots.Kind() == robotstxt.DisallowAll
}

// Fetch fetches the robots.txt that applies to rawURL with client (nil: a
// client with a 30-second timeout) and sends userAgent as the
// User-Agent header ("" sends Go's default). The client is not modified: its
// Transport, Jar and Timeout are used, and its CheckRedirect, if any, is
// consulted for each redirect within the limit of five.
//
// The error is non-nil only when rawURL has no robots.txt to fetch: it is
// not an absolute http or https URL (a *robotstxt.URLError). Whatever the
// server or the network does, a timeout and ctx ending included, is told by
// the Result. Result.TTL uses the defaults of [Options].
func Fetch(ctx context.Context, client *http.Client, userAgent, rawURL string) (*Result, error) {
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return nil, err
	}
	f := oneFetch(client, userAgent)
	return f.fetch(ctx, origin+"/robots.txt"), nil
}

// oneFetch returns the fetcher of [Fetch]: client, or one bounded by
// defaultTimeout when it is nil, with the lifetimes [Options] defaults to.
func oneFetch(client *http.Client, userAgent string) fetcher {
	if client == nil {
		client = &http.Client{Timeout: defaultTimeout}
	}
	return fetcher{
		client:    client,
		userAgent: userAgent,
		now:       time.Now,
		ttl:       defaultTTL,
		maxTTL:    defaultMaxTTL,
		retryTTL:  defaultRetryTTL,
	}
}

// httpOrigin returns the canonical origin of an http or https URL.
func httpOrigin(rawURL string) (string, error) {
	origin, err := robotstxt.Origin(rawURL)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(origin, "http://") && !strings.HasPrefix(origin, "https://") {
		return "", &robotstxt.URLError{URL: rawURL, Err: ErrUnsupportedScheme}
	}
	return origin, nil
}

// fetcher fetches robots.txt files and dates the results.
type fetcher struct {
	client    *http.Client
	userAgent string
	agent     string // the product token questions without one use
	now       func() time.Time
	ttl       time.Duration // of a good result without max-age
	maxTTL    time.Duration // bound on max-age
	retryTTL  time.Duration // of an unreachable result
}

// robotsFetchKey marks the context of a robots.txt request, so that a
// Transport passes it, and its redirects, through unchecked.
type robotsFetchKey struct{}

func isRobotsFetch(ctx context.Context) bool {
	return ctx.Value(robotsFetchKey{}) != nil
}

// fetch fetches robotsURL. It always returns a Result.
func (f *fetcher) fetch(ctx context.Context, robotsURL string) *Result {
	start := f.now()
	res := &Result{RobotsURL: robotsURL, Robots: robotstxt.FromStatus(http.StatusServiceUnavailable, nil)}
	header := f.get(context.WithValue(ctx, robotsFetchKey{}, true), res)
	res.Fetched = f.now()
	res.Duration = res.Fetched.Sub(start)
	res.TTL = f.lifetime(res, header)
	res.Expires = res.Fetched.Add(res.TTL)
	return res
}

// get does the request and fills in res, except its times. It returns the
// final response's header, or nil.
func (f *fetcher) get(ctx context.Context, res *Result) http.Header {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, res.RobotsURL, nil)
	if err != nil {
		res.Err = err
		return nil
	}
	if f.userAgent != "" {
		req.Header.Set("User-Agent", f.userAgent)
	}
	var overflow error // set when the redirect limit stops the chain
	var pastStatus int // what the chain is then read as
	client := *f.client
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if status, past := redirect.Past(len(via)); past {
			overflow, pastStatus = errTooManyRedirects, status
			if redirect.Looped(req, via) {
				overflow = errRedirectLoop
			}
			return http.ErrUseLastResponse
		}
		if check := f.client.CheckRedirect; check != nil {
			if err := check(req, via); err != nil {
				return err
			}
		}
		res.Redirects = len(via)
		return nil
	}
	resp, err := client.Do(req)
	if resp != nil {
		res.StatusCode = resp.StatusCode
		res.FinalURL = resp.Request.URL.String()
	}
	if err != nil {
		res.Err = err
		return nil
	}
	// Closing a body that was not read to the end closes the connection
	// instead of draining what is left of a large file.
	defer resp.Body.Close()
	switch {
	case overflow != nil:
		res.Robots, res.Err = robotstxt.FromStatus(pastStatus, nil), overflow
	case robotstxt.FromStatus(resp.StatusCode, nil).Kind() == robotstxt.Parsed: // 2xx
		body, truncated, err := readBody(resp.Body, MaxBodySize, resp.ContentLength)
		res.Bytes, res.Truncated = len(body), truncated
		if err != nil {
			res.Err = fmt.Errorf("robotstxt: reading %s: %w", res.FinalURL, err)
			return resp.Header
		}
		res.Robots = robotstxt.FromStatus(resp.StatusCode, body)
		res.NotRobots = lint.NotRobots(body)
	default:
		res.Robots = robotstxt.FromStatus(resp.StatusCode, nil)
	}
	return resp.Header
}

// readBody reads at most limit bytes of r. It reports whether r had more,
// and any error met before the limit: a body cut short is an error, so a
// partial file is never taken for the whole. An error met once limit bytes
// are in, such as a connection closed after exactly limit bytes of a larger
// announced body, is no error: everything past the limit is ignored anyway,
// and the body is reported as truncated, since it was meant to go on.
// sizeHint is the announced Content-Length, or -1.
func readBody(r io.Reader, limit int, sizeHint int64) ([]byte, bool, error) {
	size := 16 << 10
	if 0 <= sizeHint && sizeHint < int64(limit) {
		size = int(sizeHint) + 1 // +1 to see EOF without growing
	}
	buf := make([]byte, 0, min(size, limit+1))
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), limit+1-cap(buf)))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		if len(buf) > limit {
			return buf[:limit], true, nil
		}
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			if len(buf) == limit {
				return buf, true, nil
			}
			return buf, false, err
		}
	}
}

// lifetime returns how long res may be used.
func (f *fetcher) lifetime(res *Result, h http.Header) time.Duration {
	if pausing(res.StatusCode) {
		if wait, ok := retryAfter(h, res.Fetched); ok {
			res.RetryAfter = max(wait, minRetryAfter)
		}
	}
	if res.Unreachable() {
		if res.RetryAfter > 0 {
			return min(res.RetryAfter, max(f.maxTTL, minRetryAfter))
		}
		return f.retryTTL
	}
	age, ok := maxAge(h)
	if !ok {
		return f.ttl
	}
	return min(max(age, minTTL), max(f.maxTTL, minTTL))
}

// maxAgeCap bounds a max-age before it becomes a Duration, far above any
// MaxTTL, so that the arithmetic cannot overflow.
const maxAgeCap = 100 * 365 * 24 * 3600

// maxAge reads the Cache-Control max-age of h (RFC 9111 §5.2.2.1). It
// reports no-store and no-cache as 0. A value too large for an integer is
// taken as the largest one, as RFC 9111 §1.2.2 says for delta-seconds, so
// that it is capped like any other large value rather than ignored.
func maxAge(h http.Header) (time.Duration, bool) {
	var age time.Duration
	found := false
	for _, v := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(v, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store", "no-cache":
				return 0, true
			case "max-age":
				secs, err := strconv.ParseUint(strings.Trim(strings.TrimSpace(value), `"`), 10, 64)
				if errors.Is(err, strconv.ErrRange) {
					// Only digits, too many of them: ParseUint has set
					// secs to the largest uint64.
					err = nil
				}
				if err != nil || found {
					continue // invalid, or a second max-age: keep the first
				}
				found = true
				age = time.Duration(min(secs, maxAgeCap)) * time.Second
			}
		}
	}
	return age, found
}
