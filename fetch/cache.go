package fetch

import (
	"container/list"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/lease"
)

// Options configure a [Cache]. The zero value of each field picks its
// default.
type Options struct {
	// Client fetches the robots.txt files; nil means a client with
	// http.DefaultTransport. It is copied, never modified (see [Fetch]).
	Client *http.Client

	// UserAgent is the crawler's User-Agent header, sent with robots.txt
	// requests and by a [Transport] with every request, in place of any
	// other; "" means Agent, the bare token. It is not what rules are
	// chosen for: that is Agent.
	UserAgent string

	// Agent is the crawler's product token, such as "Foobot": the name its
	// robots.txt groups use, which every answer of the cache chooses rules
	// for. "" means the token that
	// [robotstxt.ProductToken] finds in UserAgent, so that
	// "Foobot/1.0 (+https://foo.example/bot)" gives "Foobot". A product
	// token is made of letters, '-' and '_' only (RFC 9309 §2.2.1): a name
	// with a digit, such as "MJ12bot", is one no group can name, and
	// [Cache.IdentityErr] says so right after [NewCache].
	Agent string

	// MaxEntries bounds the number of origins kept (default
	// 10,000); the least recently asked is dropped first. Each
	// entry holds at most two parsed files of at most MaxBodySize bytes.
	MaxEntries int

	// TTL is how long a fetched robots.txt is kept when its response has
	// no Cache-Control max-age (default 24 hours). MaxTTL bounds a
	// max-age from above (default 7 days); it is never below one minute,
	// however short the max-age.
	TTL    time.Duration
	MaxTTL time.Duration

	// RetryTTL is how long an unreachable result is kept before the next
	// try (default 5 minutes).
	RetryTTL time.Duration

	// MaxRetryWait bounds how long an answer for a URL whose robots.txt
	// is unreachable, with no good copy held, waits for the next fetch of
	// that robots.txt (default 30 seconds; negative:
	// no wait). A question waits for one fetch at most, and only when
	// that fetch is due before MaxRetryWait has passed and before the
	// deadline of its context; the wait, the fetch included, ends by then.
	// Otherwise the answer is a [*RetryError] at once. See [Cache.Check].
	MaxRetryWait time.Duration

	// GiveUpAfter is how long an origin with no good copy must stay
	// unreachable before everything is allowed (default
	// 30 days, per RFC 9309 §2.3.1.4).
	GiveUpAfter time.Duration

	// Timeout bounds each robots.txt fetch (default 30 seconds). A fetch
	// does not end when the caller that started it gives up, since other
	// callers may be waiting for it; this bounds it instead.
	Timeout time.Duration

	// Now returns the current time (default time.Now). Tests set it.
	Now func() time.Time

	// The fields below share the cache through a Store and report what it
	// does; see [Store] and [FetchEvent].

	// Store, when not nil, holds the origins' fetch histories behind the
	// in-process tier, shared with the other caches that use it (in this
	// process or others), so that each robots.txt is fetched once for all
	// of them. Nil keeps everything in process.
	Store Store

	// StoreTimeout bounds each call to the Store (default
	// 250 milliseconds). A call that takes longer counts as a failure.
	StoreTimeout time.Duration

	// LeaseTTL is how long the lease that a cache takes in the Store before
	// fetching lasts unless renewed (default 2 seconds plus twice
	// StoreTimeout). The holder renews it every LeaseTTL/3 while it
	// fetches, so a fetch may take up to Timeout, while a holder that died
	// stalls the others by at most LeaseTTL (see [Store] for the bound).
	LeaseTTL time.Duration

	// StoreKey, when not empty, seals each value saved in the Store with
	// an HMAC-SHA-256 under this key instead of a CRC, and has values not
	// sealed with it refused, so that a writer to the Store without the
	// key cannot plant rules. Every cache of a fleet needs the same key;
	// a changed key has each value refused and replaced once.
	StoreKey []byte

	// StoreKeep is how long the Store keeps an origin's history after its
	// latest result expires (default GiveUpAfter), so that the last good
	// copy and the start of a run of failures outlive the result itself.
	StoreKeep time.Duration

	// StoreRetry is how long the cache does without the Store for an
	// origin after a call about it fails, and for every origin after three
	// failures in a row, before trying it again (default
	// 5 seconds).
	StoreRetry time.Duration

	// OnFetch, when not nil, is called after each refresh of an origin's
	// rules: every fetch the cache makes, and every result it takes from
	// the Store instead. See [FetchEvent].
	OnFetch func(FetchEvent)
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

// File is the robots.txt in effect for an origin: its rules, and how they
// were obtained.
type File struct {
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

// Decision is the answer of [Cache.Decide] for a URL: may it be fetched,
// by which line and rule, the robots.txt that said so, and the URL to
// send. Each fact is held once: d.Allowed, d.Line and d.Rule are those of
// d.Decision; d.Robots and d.Source those of d.File; [Decision.Usage]
// adds the usage preferences to d.Decision.
type Decision struct {
	// Decision is the answer for the URL: allowed or not, and the deciding
	// line and rule.
	robotstxt.Decision
	// File is the robots.txt the answer came from, and where it came from.
	File
	// URL is the URL to send: the URL asked about as
	// [robotstxt.NormalizeURL] writes it, the form the rules answered for
	// and the form a [Transport] puts on the wire. A crawler that sends
	// with a client of its own sends this, not the raw URL, which Go's
	// net/http may send otherwise (raw spaces and UTF-8 in the query, a
	// path with '|' escaped anew).
	URL string

	prefs robotstxt.Usage // the preferences; its Decision is the one above
}

// Usage returns what the rules say about the use of the URL: the answer
// (d.Decision) and its Content-Usage and Content-Signal preferences, as
// [robotstxt.Robots.Usage] gives them.
func (d Decision) Usage() robotstxt.Usage {
	u := d.prefs
	u.Decision = d.Decision
	return u
}

// A Cache keeps the robots.txt rules of many origins and fetches them when
// asked about an origin it does not hold or holds expired. Many goroutines
// asking about one origin at once cause one fetch, which they all wait for.
// A Cache is safe for concurrent use; create it with [NewCache].
//
// A Cache answers for one crawler: the identity its [Options] give
// ([Cache.Agent], [Cache.UserAgent]). [Cache.For] gives a view of it that
// answers for another agent.
type Cache struct {
	*core                 // the rules held, shared by every view of the cache
	agent     string      // the product token the questions are for
	userAgent string      // the User-Agent header a Transport sends
	identErr  *AgentError // why agent is refused, or nil
}

// core is what the views of a Cache share: the origins' histories, the
// fetches under way and the Store.
type core struct {
	f           fetcher
	maxEntries  int
	giveUpAfter time.Duration
	timeout     time.Duration
	retryWait   time.Duration // Options.MaxRetryWait; negative: no wait
	allowAll    *robotstxt.Robots

	mu      sync.Mutex
	entries map[string]*list.Element // origin → element of lru holding an *entry
	lru     list.List                // most recently asked first
	flights map[string]*flight       // origin → fetch under way
	counts  counts                   // guarded by mu
	// refreshing counts refresh goroutines, which outlive their flight
	// while they save to the Store and call OnFetch; guarded by mu.
	refreshing int
	flushes    []chan struct{} // closed when refreshing reaches 0; guarded by mu

	shared  // the Store and its settings; zero when there is none
	onFetch func(FetchEvent)
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
// It checks the crawler's identity (Options.UserAgent and Options.Agent)
// once, here: when they give no valid product token, such as for a crawler
// named "nc5bot", [Cache.IdentityErr] returns the error, which states the
// rule, and every question for the crawler's own token fails with it
// before anything is fetched.
func NewCache(o *Options) *Cache {
	if o == nil {
		o = &Options{}
	}
	c := &core{
		f: fetcher{
			client:    o.Client,
			userAgent: o.userAgent(),
			agent:     o.agent(),
			now:       o.Now,
			ttl:       orDefault(o.TTL, defaultTTL),
			maxTTL:    orDefault(o.MaxTTL, defaultMaxTTL),
			retryTTL:  orDefault(o.RetryTTL, defaultRetryTTL),
		},
		maxEntries:  o.MaxEntries,
		giveUpAfter: orDefault(o.GiveUpAfter, defaultGiveUpAfter),
		timeout:     orDefault(o.Timeout, defaultTimeout),
		retryWait:   o.MaxRetryWait,
		allowAll:    robotstxt.FromStatus(http.StatusNotFound, nil),
		entries:     make(map[string]*list.Element),
		flights:     make(map[string]*flight),
		onFetch:     o.OnFetch,
	}
	if c.f.client == nil {
		c.f.client = &http.Client{}
	}
	if c.f.now == nil {
		c.f.now = time.Now
	}
	if c.maxEntries <= 0 {
		c.maxEntries = defaultMaxEntries
	}
	if c.retryWait == 0 {
		c.retryWait = defaultMaxRetryWait
	}
	c.shared.init(o, c.timeout, c.giveUpAfter, c.f.now, c.f.agent)
	return &Cache{core: c, agent: c.f.agent, userAgent: c.f.userAgent,
		identErr: identityError(c.f.userAgent, c.f.agent)}
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Allowed reports whether the crawler ([Cache.Agent]) may fetch rawURL,
// by the rules in effect for rawURL's origin (see [Cache.File]). The URL
// is matched as [robotstxt.NormalizeURL] writes it, so that a raw "/ü/"
// meets the rule "Disallow: /ü/". A crawler whose identity gives no
// product token gets the [*AgentError] of [Cache.IdentityErr]; a tool that
// asks for another agent asks [Cache.For] that agent.
//
// When rawURL's robots.txt is unreachable (429, 5xx, no answer) and no
// good copy is held, the answer is false with a [*RetryError] (errors.Is
// [ErrRetryLater]), never false with a nil error: the URL is not refused,
// its answer is not known yet. Allowed first waits for the next fetch of
// the robots.txt as [Cache.Check] does. Every answer of the Cache for a
// URL (Allowed, Decide, Check, a [Transport], and pagerules.ReadPage and
// PageOf, which ask Decide) says so with the same error.
func (c *Cache) Allowed(ctx context.Context, rawURL string) (bool, error) {
	d, err := c.Decide(ctx, rawURL)
	return d.Allowed && err == nil, err
}

// Decide is [Cache.Allowed] with the reason: the deciding line and rule, and
// where the rules came from. With a [*RetryError], the Decision is filled
// in all the same (Source Unreachable: everything disallowed until the
// robots.txt answers).
func (c *Cache) Decide(ctx context.Context, rawURL string) (Decision, error) {
	d, err := c.DecideNow(ctx, rawURL)
	if err != nil {
		return Decision{}, err
	}
	if d.Source == Unreachable {
		return c.waitRefetch(ctx, rawURL, d)
	}
	return d, nil
}

// DecideNow is [Cache.Decide] without its wait for an unreachable
// robots.txt: it answers at once by the file in effect, and one that is
// unreachable with no good copy held is no error here: the Decision
// disallows everything, with Source Unreachable and Latest saying when
// the robots.txt is asked again. A scheduler that requeues such URLs
// itself asks it; so does a [Pacer], which gives such an origin its next
// turn when the robots.txt is asked again, and the sitemap walk
// (sitemap.Walk), whose entries carry their Decision. Its other errors
// are Decide's.
func (c *Cache) DecideNow(ctx context.Context, rawURL string) (Decision, error) {
	if c.identErr != nil {
		return Decision{}, c.identErr
	}
	r, err := c.File(ctx, rawURL)
	if err != nil {
		return Decision{}, err
	}
	send := robotstxt.NormalizeURL(rawURL)
	u := r.Robots.Usage(c.agent, send)
	prefs := u
	prefs.Decision = robotstxt.Decision{}
	return Decision{Decision: u.Decision, File: r, URL: send, prefs: prefs}, nil
}

// Check is the question a crawler asks right before it sends a request
// for rawURL, for its own product token ([Cache.Agent]). It returns the
// URL to send ([Decision.URL]) when the rules allow it, and otherwise an
// error:
//
//   - a [*DisallowedError] (errors.Is [ErrDisallowed]) when the rules
//     disallow it;
//   - a [*RetryError] (errors.Is [ErrRetryLater]) when the robots.txt is
//     unreachable (429, 5xx, no answer) and no good copy is held. Check
//     first waits for the next fetch when it is due within
//     Options.MaxRetryWait (30 seconds by default) and before ctx's
//     deadline, and answers on what that one fetch found; the wait, the
//     fetch included, never outlasts MaxRetryWait, with or without a
//     deadline. It fails at once when the next fetch is due later. The
//     error's When says when to ask again: requeue the URL for then;
//   - the errors of [Cache.Decide].
//
// A [Transport] asks the same question of every request it sends.
func (c *Cache) Check(ctx context.Context, rawURL string) (string, error) {
	d, err := c.check(ctx, rawURL)
	return d.URL, err
}

// check is Check with the Decision: Decide, with a disallow as an error.
func (c *Cache) check(ctx context.Context, rawURL string) (Decision, error) {
	d, err := c.Decide(ctx, rawURL)
	if err == nil && !d.Allowed {
		err = disallowedError(d, c.agent)
	}
	return d, err
}

// waitRefetch answers for rawURL, whose robots.txt d found unreachable
// with no good copy held: it waits for the next fetch when that is due
// before the wait's bound, the lesser of Options.MaxRetryWait and what is
// left of ctx's time (less waitGuard), and answers on what that one fetch
// found; the wait, the fetch included, ends at the bound. It answers with
// a [*RetryError] when the fetch is due later, or finds the robots.txt
// unreachable again, or has not ended by the bound.
func (c *Cache) waitRefetch(ctx context.Context, rawURL string, d Decision) (Decision, error) {
	at, _ := retryAt(d.Latest)
	now := c.f.now()
	bound := c.retryWait
	if dl, ok := ctx.Deadline(); ok {
		bound = min(bound, dl.Sub(now)-waitGuard)
	}
	if at.Sub(now) >= bound { // a fetch due at the bound would have no time
		return d, retryError(d, nil)
	}
	wctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	timer := time.NewTimer(at.Sub(now))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-wctx.Done():
		return d, retryError(d, ctx.Err())
	}
	d2, err := c.DecideNow(wctx, rawURL)
	switch {
	case err != nil && wctx.Err() != nil:
		// The bound or ctx ended during the fetch: d still stands.
		return d, retryError(d, ctx.Err())
	case err != nil:
		return Decision{}, err
	case d2.Source == Unreachable:
		return d2, retryError(d2, nil)
	}
	return d2, nil
}

// retryAt returns when the robots.txt of an unreachable result is asked
// again: its Expires, the one time the cache fetches it again, the
// [Pacer] gives the origin its next turn and a [*RetryError] names. It
// reports false for a result that is not unreachable.
func retryAt(res *Result) (time.Time, bool) {
	if res == nil || !res.Unreachable() {
		return time.Time{}, false
	}
	return res.Expires, true
}

// pausing reports whether an answer with status asks the client to pause:
// 429 (Too Many Requests) or 503 (Service Unavailable), the statuses whose
// Retry-After counts (RFC 9110 §10.2.3).
func pausing(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// Agent returns the product token the cache answers for: Options.Agent,
// or the token found in Options.UserAgent, or "" when neither gives one;
// for a view made by [Cache.For], the agent given. It need not be valid: a
// question for it then fails with the [*AgentError] that
// [Cache.IdentityErr] returns.
func (c *Cache) Agent() string {
	return c.agent
}

// For returns a view of c that answers for agent, a product token such as
// "Googlebot", instead of the crawler's own: a tool that asks what another
// crawler may fetch, or paces or sends requests as it would, asks the
// view. The view shares c's rules, fetches and Store: its robots.txt
// fetches are c's, made with c's User-Agent header. A [Transport] over the
// view sends agent as the User-Agent header. The agent is compared as
// [robotstxt.Robots.Allowed] does; anything but a product token, such as
// "Foobot/1.0" or a whole User-Agent header, would silently select the
// global group, so every question of the view fails with an [*AgentError]
// ([Cache.IdentityErr] returns it).
func (c *Cache) For(agent string) *Cache {
	v := &Cache{core: c.core, agent: agent, userAgent: agent}
	if !robotstxt.ValidAgent(agent) {
		v.identErr = newAgentError(agent)
	}
	return v
}

// File returns the robots.txt in effect for rawURL's origin, fetching it
// first if the cache holds none or an expired one.
//
// The error is non-nil only when rawURL is not an absolute http or https
// URL (a *robotstxt.URLError), or when ctx ends before the fetch does (the
// ctx error). An unreachable robots.txt with no good copy is no error here:
// File tells it by Source (Unreachable), while the answers for a URL
// ([Cache.Allowed] and the others) tell it with a [*RetryError]. A fetch
// runs apart from the caller's ctx, bounded by
// Options.Timeout, so that one caller giving up fails no one else.
func (c *Cache) File(ctx context.Context, rawURL string) (File, error) {
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return File{}, err
	}
	c.mu.Lock()
	now := c.f.now()
	if el, ok := c.entries[origin]; ok {
		e := el.Value.(*entry)
		if now.Before(e.latest.Expires) {
			c.lru.MoveToFront(el)
			c.counts.hits++
			st := e.state
			c.mu.Unlock()
			return c.rules(st, now), nil
		}
	}
	c.counts.misses++
	f, ok := c.flights[origin]
	if !ok {
		// The origin may be a slice of a long URL: keep only the origin.
		origin = strings.Clone(origin)
		f = &flight{done: make(chan struct{})}
		c.flights[origin] = f
		c.refreshing++
		go c.refresh(context.WithoutCancel(ctx), origin, f)
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		return c.rules(f.state, c.f.now()), nil
	case <-ctx.Done():
		return File{}, ctx.Err()
	}
}

// refresh fetches origin's robots.txt, records the result and ends f. With a
// Store, it asks the Store first (see refreshShared).
func (c *Cache) refresh(ctx context.Context, origin string, f *flight) {
	defer func() {
		c.mu.Lock()
		if c.refreshing--; c.refreshing == 0 {
			for _, ch := range c.flushes {
				close(ch)
			}
			c.flushes = nil
		}
		c.mu.Unlock()
	}()
	if c.lease != nil {
		c.refreshShared(ctx, origin, f)
		return
	}
	res := c.fetchOrigin(ctx, origin)
	st := c.update(origin, f, func(s *state) { s.record(res) })
	c.notify(FetchEvent{Origin: origin, Result: res, Fetched: true}, st)
}

// refreshShared is refresh with a Store: it takes a fresh history from the
// Store when there is one, and otherwise fetches under the origin's lease
// and saves the result.
func (c *Cache) refreshShared(ctx context.Context, origin string, f *flight) {
	ev := FetchEvent{Origin: origin}
	c.mu.Lock()
	var held state
	if el, ok := c.entries[origin]; ok {
		held = el.Value.(*entry).state
	}
	c.mu.Unlock()

	var rep lease.Report
	p := c.lease.Consult(ctx, origin, held, &rep)
	if p.Fresh {
		st := c.update(origin, f, func(s *state) { *s = p.State })
		ev.Result = st.latest
		ev.StoreErr, ev.Waited = storeError(rep.Err), rep.Waited
		c.notify(ev, st)
		return
	}
	stop := func() {}
	if p.Token != "" {
		stop = c.lease.Keep(ctx, origin, p.Token)
	}
	res := c.fetchOrigin(ctx, origin)
	stop() // before the save, which drops the lease
	st := c.update(origin, f, func(s *state) {
		if p.State.newer(*s) {
			*s = p.State
		}
		s.record(res)
	})
	ev.Result, ev.Fetched = res, true
	if p.Save {
		c.lease.Save(ctx, origin, p.Token, st, &rep)
	}
	ev.StoreErr, ev.Waited = storeError(rep.Err), rep.Waited
	c.notify(ev, st)
}

// fetchOrigin fetches origin's robots.txt, bounded by Options.Timeout.
func (c *Cache) fetchOrigin(ctx context.Context, origin string) *Result {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	res := c.f.fetch(ctx, origin+"/robots.txt")
	c.mu.Lock()
	c.counts.fetches++
	c.mu.Unlock()
	return res
}

// update changes origin's history with change, creating its entry if
// needed, and ends f, when not nil, with the new history, which it returns.
func (c *Cache) update(origin string, f *flight, change func(*state)) state {
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
			c.counts.evictions++
		}
	}
	change(&e.state)
	if f != nil {
		f.state = e.state
		delete(c.flights, origin)
		close(f.done)
	}
	return e.state
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

// rules returns the file in effect at now for an origin with history s: the
// latest answer; else the last good one; else disallow everything, until
// the origin has been unreachable for more than giveUpAfter.
func (c *Cache) rules(s state, now time.Time) File {
	switch {
	case !s.latest.Unreachable():
		return File{Robots: s.latest.Robots, Source: Fresh, Result: s.latest, Latest: s.latest}
	case s.good != nil:
		return File{Robots: s.good.Robots, Source: Stale, Result: s.good, Latest: s.latest}
	case now.Sub(s.failingSince) > c.giveUpAfter:
		return File{Robots: c.allowAll, Source: GaveUp, Result: s.latest, Latest: s.latest}
	}
	return File{Robots: s.latest.Robots, Source: Unreachable, Result: s.latest, Latest: s.latest}
}

// Len returns the number of origins the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Stats returns the cache's counters.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.counts
	st := Stats{
		Hits:           n.hits,
		Misses:         n.misses,
		Fetches:        n.fetches,
		Evictions:      n.evictions,
		InFlight:       c.refreshing,
		Entries:        c.lru.Len(),
		StoreHits:      n.storeHits,
		StoreWaits:     n.storeWaits,
		StoreErrors:    c.storeErrs.Load(),
		StoreCorrupt:   c.refusedTotal(),
		StoreGaveUp:    c.gaveUp(),
		StoreTakenOver: c.takenOver(),
	}
	r := &st.StoreRefused
	r.Format = c.refused[refusedFormat].Load()
	r.Damaged = c.refused[refusedDamaged].Load()
	r.Seal = c.refused[refusedSeal].Load()
	r.Origin = c.refused[refusedOrigin].Load()
	r.Agent = c.refused[refusedAgent].Load()
	r.TooLarge = c.refused[refusedTooLarge].Load()
	return st
}

// notify counts the refresh that ev describes, fills in ev.Source from the
// history st, and calls the OnFetch hook.
func (c *Cache) notify(ev FetchEvent, st state) {
	var se *StoreError
	c.mu.Lock()
	if !ev.Fetched {
		c.counts.storeHits++
	}
	if ev.Waited > 0 {
		c.counts.storeWaits++
	}
	c.mu.Unlock()
	if errors.As(ev.StoreErr, &se) && se.Op != "decode" {
		c.storeErrs.Add(1)
	}
	if c.onFetch != nil {
		ev.Source = c.rules(st, c.f.now()).Source
		ev.Scheme, ev.Host, ev.Port = originParts(ev.Origin)
		c.onFetch(ev)
	}
}

// originParts splits an origin that httpOrigin returned into its scheme,
// host (without the brackets of an IPv6 address) and port.
func originParts(origin string) (scheme, host string, port int) {
	scheme, hostport, _ := strings.Cut(origin, "://")
	port = 80
	if scheme == "https" {
		port = 443
	}
	host = hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.HasSuffix(hostport, "]") {
		host = hostport[:i]
		if p, err := strconv.Atoi(hostport[i+1:]); err == nil {
			port = p
		}
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return scheme, host, port
}

// Flush waits until no refresh is under way, saves to the Store and
// OnFetch calls included, or until ctx ends, when it returns ctx's error.
// A crawler calls it before it exits, after its last question, so that
// what it fetched reaches the Store for the rest of the fleet; questions
// asked meanwhile start refreshes that it waits for too.
func (c *Cache) Flush(ctx context.Context) error {
	c.mu.Lock()
	if c.refreshing == 0 {
		c.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	c.flushes = append(c.flushes, ch)
	c.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Forget drops what the cache holds for rawURL's origin, and what the Store
// holds for it when there is one, so that the next question about the
// origin fetches its robots.txt again. A refresh under way is not stopped:
// its result is kept when it ends.
//
// The call to the Store is bounded by Options.StoreTimeout, not by ctx.
// The error is a *robotstxt.URLError when rawURL is not an absolute http or
// https URL, or a *StoreError when the Store could not delete the origin's
// value (the cache's own copy is dropped all the same).
func (c *Cache) Forget(ctx context.Context, rawURL string) error {
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return err
	}
	c.mu.Lock()
	if el, ok := c.entries[origin]; ok {
		c.lru.Remove(el)
		delete(c.entries, origin)
	}
	c.mu.Unlock()
	if c.lease == nil {
		return nil
	}
	return c.shared.forget(ctx, origin)
}

// errNoResult is returned by [Cache.Put] for a nil Result or one without
// Robots.
var errNoResult = errors.New("robotstxt: no result to put: a nil Result or nil Robots")

// Put records res as the latest fetch of the robots.txt at res.RobotsURL,
// as if the cache had just made it: a crawler that kept its results can
// start warm. The cache keeps its own copy of *res, with the times it lacks
// filled in: Fetched is now when zero; TTL, when zero, is Expires-Fetched,
// or the lifetime a fetch without max-age gets when Expires is zero too; and
// Expires is Fetched+TTL when zero. A result older than the one the cache holds for the
// origin (by Fetched) is ignored.
//
// Put fills this cache only, not the Store: the Store holds what was
// fetched, and a Store is itself what warms a new cache that shares it.
//
// The error is errNoResult, or a *robotstxt.URLError when res.RobotsURL is
// not an absolute http or https URL.
func (c *Cache) Put(res *Result) error {
	if res == nil || res.Robots == nil {
		return errNoResult
	}
	origin, err := httpOrigin(res.RobotsURL)
	if err != nil {
		return err
	}
	r := *res
	if r.Fetched.IsZero() {
		r.Fetched = c.f.now()
	}
	switch {
	case r.TTL == 0 && !r.Expires.IsZero():
		r.TTL = r.Expires.Sub(r.Fetched)
	case r.TTL == 0 && r.Unreachable():
		r.TTL = c.f.retryTTL
	case r.TTL == 0:
		r.TTL = c.f.ttl
	}
	if r.Expires.IsZero() {
		r.Expires = r.Fetched.Add(r.TTL)
	}
	// The origin may be a slice of a long URL: keep only the origin.
	c.update(strings.Clone(origin), nil, func(s *state) {
		if s.latest == nil || !r.Fetched.Before(s.latest.Fetched) {
			s.record(&r)
		}
	})
	return nil
}
