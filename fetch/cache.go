package fetch

import (
	"container/list"
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// Options configure a [Cache]. The zero value of each field picks its
// default.
type Options struct {
	// Client fetches the robots.txt files; nil means a client with
	// http.DefaultTransport. It is copied, never modified (see [Fetch]).
	Client *http.Client

	// UserAgent is the crawler's User-Agent header, sent with robots.txt
	// requests; "" sends Go's default. It is not what rules are chosen
	// for: that is Agent.
	UserAgent string

	// Agent is the crawler's product token, such as "Foobot": the name its
	// robots.txt groups use, which [Cache.AllowedURL] and [Cache.DecideURL]
	// choose rules for. "" means the token that
	// [robotstxt.ProductToken] finds in UserAgent, so that
	// "Foobot/1.0 (+https://foo.example/bot)" gives "Foobot".
	Agent string

	// MaxEntries bounds the number of origins kept (default
	// DefaultMaxEntries); the least recently asked is dropped first. Each
	// entry holds at most two parsed files of at most MaxBodySize bytes.
	MaxEntries int

	// TTL is how long a fetched robots.txt is kept when its response has
	// no Cache-Control max-age (default DefaultTTL). MaxTTL bounds a
	// max-age from above (default DefaultMaxTTL); [MinTTL] bounds it below.
	TTL    time.Duration
	MaxTTL time.Duration

	// RetryTTL is how long an unreachable result is kept before the next
	// try (default DefaultRetryTTL).
	RetryTTL time.Duration

	// GiveUpAfter is how long an origin with no good copy must stay
	// unreachable before everything is allowed (default
	// DefaultGiveUpAfter, 30 days, per RFC 9309 §2.3.1.4).
	GiveUpAfter time.Duration

	// Timeout bounds each robots.txt fetch (default DefaultTimeout). A fetch
	// does not end when the caller that started it gives up, since other
	// callers may be waiting for it; this bounds it instead.
	Timeout time.Duration

	// Now returns the current time (default time.Now). Tests set it.
	Now func() time.Time
}

// Source tells where the rules in effect for an origin came from.
type Source uint8

const (
	// Fresh rules come from the latest fetch, which got an answer: a 2xx
	// body, or everything allowed after a 4xx or too many redirects.
	Fresh Source = iota
	// Stale rules come from the last good fetch, kept because the fetches
	// since have found the robots.txt unreachable.
	Stale
	// Unreachable means the robots.txt is unreachable and no good copy is
	// held: everything is disallowed.
	Unreachable
	// GaveUp means the robots.txt has been unreachable for more than
	// Options.GiveUpAfter and no good copy is held: everything is allowed.
	GaveUp
)

func (s Source) String() string {
	switch s {
	case Fresh:
		return "fresh"
	case Stale:
		return "stale"
	case Unreachable:
		return "unreachable"
	case GaveUp:
		return "gave-up"
	}
	return "Source(?)"
}

// Rules are the robots.txt rules in effect for an origin and how they were
// obtained.
type Rules struct {
	// Robots holds the rules; never nil.
	Robots *robotstxt.Robots
	// Source tells where they came from.
	Source Source
	// Result is the fetch the rules came from: the last good fetch when
	// Source is Stale, the latest fetch otherwise.
	Result *Result
	// Latest is the latest fetch. It is Result unless Source is Stale.
	Latest *Result
}

// Decision is the answer of [Cache.Decide]: the core decision for the URL,
// and the rules that gave it.
type Decision struct {
	robotstxt.Decision
	Rules
}

// A Cache keeps the robots.txt rules of many origins and fetches them when
// asked about an origin it does not hold or holds expired. Many goroutines
// asking about one origin at once cause one fetch, which they all wait for.
// A Cache is safe for concurrent use; create it with [NewCache].
type Cache struct {
	f           fetcher
	maxEntries  int
	giveUpAfter time.Duration
	timeout     time.Duration
	allowAll    *robotstxt.Robots

	mu      sync.Mutex
	entries map[string]*list.Element // origin → element of lru holding an *entry
	lru     list.List                // most recently asked first
	flights map[string]*flight       // origin → fetch under way
}

// entry is what the cache holds for one origin.
type entry struct {
	origin string
	state
}

// state is an origin's fetch history, as far as it matters.
type state struct {
	latest       *Result
	good         *Result   // the latest result that was not unreachable, or nil
	failingSince time.Time // when the current run of unreachable results began
}

// flight is a fetch under way. state is set before done is closed.
type flight struct {
	done  chan struct{}
	state state
}

// NewCache returns an empty cache configured by o; nil means all defaults.
func NewCache(o *Options) *Cache {
	if o == nil {
		o = &Options{}
	}
	c := &Cache{
		f: fetcher{
			client:    o.Client,
			userAgent: o.UserAgent,
			agent:     o.agent(),
			now:       o.Now,
			ttl:       orDefault(o.TTL, DefaultTTL),
			maxTTL:    orDefault(o.MaxTTL, DefaultMaxTTL),
			retryTTL:  orDefault(o.RetryTTL, DefaultRetryTTL),
		},
		maxEntries:  o.MaxEntries,
		giveUpAfter: orDefault(o.GiveUpAfter, DefaultGiveUpAfter),
		timeout:     orDefault(o.Timeout, DefaultTimeout),
		allowAll:    robotstxt.FromStatus(http.StatusNotFound, nil),
		entries:     make(map[string]*list.Element),
		flights:     make(map[string]*flight),
	}
	if c.f.client == nil {
		c.f.client = &http.Client{}
	}
	if c.f.now == nil {
		c.f.now = time.Now
	}
	if c.maxEntries <= 0 {
		c.maxEntries = DefaultMaxEntries
	}
	return c
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Allowed reports whether agent may fetch rawURL, by the rules in effect for
// rawURL's origin (see [Cache.Rules]). The agent is a product token, such
// as "Foobot", compared as [robotstxt.Robots.Allowed] does; anything else,
// such as "Foobot/1.0" or a whole User-Agent header, would silently select
// the global group, so it is refused with an [*AgentError]. The URL is
// matched as [robotstxt.NormalizeURL] writes it, so that a raw "/ü/" meets
// the rule "Disallow: /ü/". [Cache.AllowedURL] asks for the crawler's own
// token.
func (c *Cache) Allowed(ctx context.Context, agent, rawURL string) (bool, error) {
	d, err := c.Decide(ctx, agent, rawURL)
	return d.Allowed, err
}

// Decide is [Cache.Allowed] with the reason: the deciding line and rule, and
// where the rules came from.
func (c *Cache) Decide(ctx context.Context, agent, rawURL string) (Decision, error) {
	if !robotstxt.ValidAgent(agent) {
		return Decision{}, newAgentError(agent)
	}
	r, err := c.Rules(ctx, rawURL)
	if err != nil {
		return Decision{}, err
	}
	return Decision{Decision: r.Robots.Decide(agent, robotstxt.NormalizeURL(rawURL)), Rules: r}, nil
}

// Rules returns the rules in effect for rawURL's origin, fetching its
// robots.txt first if the cache holds none or an expired one.
//
// The error is non-nil only when rawURL is not an absolute http or https
// URL (a *robotstxt.URLError), or when ctx ends before the fetch does (the
// ctx error). A fetch runs apart from the caller's ctx, bounded by
// Options.Timeout, so that one caller giving up fails no one else.
func (c *Cache) Rules(ctx context.Context, rawURL string) (Rules, error) {
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return Rules{}, err
	}
	c.mu.Lock()
	now := c.f.now()
	if el, ok := c.entries[origin]; ok {
		e := el.Value.(*entry)
		if now.Before(e.latest.Expires) {
			c.lru.MoveToFront(el)
			st := e.state
			c.mu.Unlock()
			return c.rules(st, now), nil
		}
	}
	f, ok := c.flights[origin]
	if !ok {
		// The origin may be a slice of a long URL: keep only the origin.
		origin = strings.Clone(origin)
		f = &flight{done: make(chan struct{})}
		c.flights[origin] = f
		go c.refresh(context.WithoutCancel(ctx), origin, f)
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		return c.rules(f.state, c.f.now()), nil
	case <-ctx.Done():
		return Rules{}, ctx.Err()
	}
}

// refresh fetches origin's robots.txt, records the result and ends f.
func (c *Cache) refresh(ctx context.Context, origin string, f *flight) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	res := c.f.fetch(ctx, origin+"/robots.txt")
	cancel()

	c.mu.Lock()
	defer c.mu.Unlock()
	var e *entry
	if el, ok := c.entries[origin]; ok {
		e = el.Value.(*entry)
		c.lru.MoveToFront(el)
	} else {
		e = &entry{origin: origin}
		c.entries[origin] = c.lru.PushFront(e)
		for c.lru.Len() > c.maxEntries {
			old := c.lru.Remove(c.lru.Back()).(*entry)
			delete(c.entries, old.origin)
		}
	}
	e.record(res)
	f.state = e.state
	delete(c.flights, origin)
	close(f.done)
}

// record adds a fetch result to the history.
func (s *state) record(res *Result) {
	if !res.Unreachable() {
		s.good, s.failingSince = res, time.Time{}
	} else if s.latest == nil || !s.latest.Unreachable() {
		s.failingSince = res.Fetched
	}
	s.latest = res
}

// rules returns the rules in effect at now for an origin with history s: the
// latest answer; else the last good one; else disallow everything, until
// the origin has been unreachable for more than giveUpAfter.
func (c *Cache) rules(s state, now time.Time) Rules {
	switch {
	case !s.latest.Unreachable():
		return Rules{Robots: s.latest.Robots, Source: Fresh, Result: s.latest, Latest: s.latest}
	case s.good != nil:
		return Rules{Robots: s.good.Robots, Source: Stale, Result: s.good, Latest: s.latest}
	case now.Sub(s.failingSince) > c.giveUpAfter:
		return Rules{Robots: c.allowAll, Source: GaveUp, Result: s.latest, Latest: s.latest}
	}
	return Rules{Robots: s.latest.Robots, Source: Unreachable, Result: s.latest, Latest: s.latest}
}

// Len returns the number of origins the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}
