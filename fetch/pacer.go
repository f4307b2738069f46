package fetch

import (
	"container/heap"
	"container/list"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file spaces a crawler's requests to each origin. A site asks for
// spacing with Crawl-delay (read by Bing, Yandex and many others, though
// neither RFC 9309 nor Google's parser reads it), and for a pause with a
// 429 or 503 answer, often with Retry-After (RFC 9110 §10.2.3).
//
// A Pacer keeps, for each origin it has seen lately, the time before which
// no request may start, and a queue of the callers waiting for their turn.
// All origins share one timer, set for the earliest time anything is due,
// and a heap orders the origins by that time, so that thousands of origins
// cost no goroutine each. An origin with nobody waiting is forgotten as
// soon as its time has come, since from then on its next request may start
// at once anyway, unless it is backing off: then it is kept a while longer,
// so that the next 429 or 503 doubles the pause. PacerOptions.MaxOrigins
// bounds how many such idle origins are kept.

// Limits a [Pacer] uses when [PacerOptions] leaves them zero.
const (
	defaultDelay      = time.Second
	defaultMaxDelay   = 30 * time.Second
	defaultBackoff    = 10 * time.Second
	defaultMaxBackoff = time.Hour
	defaultMaxOrigins = 10000
)

// PacerOptions configure a [Pacer]. The zero value of each field picks its
// default.
type PacerOptions struct {
	// Cache gives the Crawl-delay of each origin's robots.txt, fetching it
	// if need be, for the cache's crawler ([Cache.Agent]): the requests,
	// the rules and the pacing then follow from the one identity. A pacer
	// for another agent takes a view of the cache ([Cache.For]). A cache
	// whose identity gives no product token has every turn fail with its
	// [*AgentError]. With no Cache, every origin gets Delay.
	Cache *Cache

	// Delay spaces the requests to an origin whose robots.txt has no
	// Crawl-delay for the agent (default one second); a negative Delay
	// means none.
	Delay time.Duration

	// MinDelay and MaxDelay bound the spacing, Crawl-delay or Delay, from
	// below and above (default 0 and 30 seconds). A site asking for
	// "Crawl-delay: 300000" (83 hours) gets MaxDelay unless MaxDelay
	// allows more. When MinDelay is above MaxDelay, MinDelay wins.
	MinDelay time.Duration
	MaxDelay time.Duration

	// Backoff is the first pause after a 429 or 503 answer to a page
	// without a usable Retry-After (default 10 seconds); it doubles
	// with each such answer in a row. MaxBackoff bounds every such pause,
	// Retry-After included (default one hour). The pause after an
	// unreachable robots.txt is the cache's: until it is asked again.
	Backoff    time.Duration
	MaxBackoff time.Duration

	// MaxOrigins bounds how many origins with nobody waiting are
	// remembered (default 10,000); past it, the origin idle
	// the longest is forgotten first, and its next request may start at
	// once. Origins with callers waiting are always kept: their number is
	// bounded by the callers'.
	MaxOrigins int
}

// A Pacer spaces a crawler's requests to each origin: [Pacer.Wait] returns
// when the next request to a URL's origin may start, and [Pacer.Observe]
// pushes an origin's next turn back after a 429 or 503 answer. Callers
// waiting for one origin get their turns one per spacing interval, in the
// order they join its queue: the order they call Wait, once the origin's
// robots.txt is in the cache. Origins do not wait for one another. A Pacer
// is safe for concurrent use; create it with [NewPacer]. A [Transport] paces
// the requests it sends with [Transport.WithPacer].
//
// The spacing of an origin is its robots.txt's Crawl-delay for the agent,
// or PacerOptions.Delay when there is none, bounded by MinDelay and
// MaxDelay; it runs from the start of one request to the start of the next.
type Pacer struct {
	cache               *Cache
	agent               string
	delay, minD, maxD   time.Duration
	backoff, maxBackoff time.Duration
	maxIdle             int

	mu      sync.Mutex
	origins map[string]*pace
	due     paceHeap  // every origin in origins, earliest due first
	idle    list.List // of *pace: origins nobody waits for, longest idle first
	timer   *time.Timer
	timerAt time.Time // when the timer is due; zero once it has fired
}

// pace is what a Pacer keeps for one origin.
type pace struct {
	origin   string
	next     time.Time // no request starts before then
	due      time.Time // when the timer must see to the origin (see setDue)
	delay    time.Duration
	failures int           // 429 and 503 answers in a row
	pause    time.Duration // the last pause they imposed
	waiters  list.List     // of *waiter, first come first
	index    int           // in Pacer.due
	idleAt   *list.Element

	spacing    reason    // what sets delay
	pauseUntil time.Time // the end of the latest pause, or zero
	pauseWhy   reason    // what set it
}

// waiter is a turn reserved at an origin; ready is closed when the turn
// comes, and at is then when it came. el is its place in the origin's
// queue while it waits, nil once it is granted or cancelled. notify, if
// set, is called when the timer grants the turn.
type waiter struct {
	ready  chan struct{}
	el     *list.Element
	at     time.Time
	notify func()
}

// reason says what sets a wait at an origin, for the errors that name it.
type reason struct {
	what      string        // "Crawl-delay", "Retry-After", "back-off", "retry" or "Delay"
	delay     time.Duration // the spacing or pause it asks for
	status    int           // the answer's status, for Retry-After and back-off
	robotsURL string        // the robots.txt that asked, if one did
	line      int           // the Crawl-delay line, if known
}

func (r reason) String() string {
	switch r.what {
	case "Crawl-delay":
		s := "Crawl-delay: " + strconv.FormatFloat(r.delay.Seconds(), 'f', -1, 64) + " in " + r.robotsURL
		if r.line > 0 {
			s += " line " + strconv.Itoa(r.line)
		}
		return s
	case "Retry-After", "back-off", "retry":
		answer := "no answer"
		if r.status != 0 {
			answer = "a " + strconv.Itoa(r.status)
		}
		s := r.what + " " + r.delay.String() + " after " + answer
		if r.what == "retry" {
			s = "the next fetch of an unreachable robots.txt, " + r.delay.String() + " after " + answer
		}
		if r.robotsURL != "" {
			s += " for " + r.robotsURL
		}
		return s
	}
	return "the pacer's Delay of " + r.delay.String()
}

// NewPacer returns a Pacer configured by o; nil means all defaults, with no
// Cache.
func NewPacer(o *PacerOptions) *Pacer {
	if o == nil {
		o = &PacerOptions{}
	}
	p := &Pacer{
		cache:      o.Cache,
		delay:      orDefault(o.Delay, defaultDelay),
		minD:       max(o.MinDelay, 0),
		maxD:       orDefault(o.MaxDelay, defaultMaxDelay),
		backoff:    orDefault(o.Backoff, defaultBackoff),
		maxBackoff: orDefault(o.MaxBackoff, defaultMaxBackoff),
		maxIdle:    o.MaxOrigins,
		origins:    make(map[string]*pace),
	}
	if o.Delay < 0 {
		p.delay = 0
	}
	if p.cache != nil {
		p.agent = p.cache.Agent()
	}
	if p.maxIdle <= 0 {
		p.maxIdle = defaultMaxOrigins
	}
	return p
}

// Wait waits until a request to rawURL's origin may start, and counts one
// as started then: call it right before each request. It returns nil when
// the turn has come, or an error, and then no request may start:
//
//   - a [*WaitError] (errors.Is [ErrWaitPastDeadline], and ctx's error)
//     when ctx ends first (a turn that came at that moment is spent);
//   - a [*DisallowedError] when the rules disallow rawURL: no turn is
//     spent on it;
//   - the errors of [Cache.File] when the rules cannot be read, such as
//     ctx's error while the robots.txt is fetched, or a *robotstxt.URLError
//     for a URL that is not an absolute http or https URL;
//   - an [*AgentError] when the agent is not a product token.
//
// Wait is [Pacer.Reserve], then waiting for [Reservation.Ready].
func (p *Pacer) Wait(ctx context.Context, rawURL string) error {
	r, err := p.Reserve(ctx, rawURL)
	if err != nil {
		return err
	}
	select {
	case <-r.Ready():
		return nil
	case <-ctx.Done():
	}
	when := r.When()
	r.Cancel()
	dl, _ := ctx.Deadline()
	return r.waitError(rawURL, when, dl, ctx.Err())
}

// Reserve sets aside the next turn at rawURL's origin without waiting for
// it, in the manner of golang.org/x/time/rate's Reserve, so that a
// scheduler can ask "when may I next send to this origin?" and serve other
// origins meanwhile; [Scheduler] is one, for a pool of workers. The turn comes at [Reservation.When], when
// [Reservation.Ready] is closed; a request sent then counts as that turn
// (pass the reservation to a [Transport] with [Reservation.Context]). A turn
// no longer wanted is given back with [Reservation.Cancel]; until then the
// origin's later turns wait behind it.
//
// Reserve waits only for the origin's robots.txt, when the cache has to
// fetch it to read the rules. It knows the rules before it reserves: a URL
// they disallow is refused with a [*DisallowedError] and costs no turn.
// When the robots.txt is unreachable (a 429 or 5xx answer, or none), the
// origin's next turn comes when the cache asks for it again (see
// [Result.Expires]), and the request sent on it is answered on what that
// fetch finds. The errors are those of [Pacer.Wait], but for the
// WaitError.
func (p *Pacer) Reserve(ctx context.Context, rawURL string) (*Reservation, error) {
	return p.reserve(ctx, rawURL, nil)
}

// reserve is Reserve, with notify called once the turn comes, when it does
// not come at once: from the pacer's timer, with p.mu not held.
func (p *Pacer) reserve(ctx context.Context, rawURL string, notify func()) (*Reservation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return nil, err
	}
	delay, why, latest, err := p.spacing(ctx, rawURL)
	if err != nil {
		return nil, err
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	pc := p.lookup(origin, now)
	pc.delay, pc.spacing = delay, why
	p.robotsPause(pc, latest, now)
	w := &waiter{ready: make(chan struct{}), notify: notify}
	r := &Reservation{p: p, pc: pc, w: w}
	if pc.waiters.Len() == 0 && !now.Before(pc.next) {
		w.at = now
		close(w.ready)
		p.grant(pc, now)
		p.arm(now)
		return r, nil
	}
	w.el = pc.waiters.PushBack(w)
	p.setBusy(pc)
	p.setDue(pc)
	p.arm(now)
	return r, nil
}

// robotsPause pushes pc's next turn back to when the origin's robots.txt
// is asked again, when its latest fetch found it unreachable (a 429 or
// 5xx answer, or none): the one time the cache fetches it again
// ([retryAt]), from the answer's Retry-After or the cache's RetryTTL.
func (p *Pacer) robotsPause(pc *pace, res *Result, now time.Time) {
	until, ok := retryAt(res)
	if !ok || !until.After(now) || !until.After(pc.next) {
		return
	}
	pc.next, pc.pauseUntil = until, until
	pc.pauseWhy = reason{what: "retry", delay: until.Sub(res.Fetched), status: res.StatusCode, robotsURL: res.RobotsURL}
	if res.RetryAfter > 0 {
		pc.pauseWhy.what = "Retry-After"
	}
	p.setDue(pc)
}

// spacing returns the spacing for rawURL's origin, what sets it, and the
// latest fetch of its robots.txt (nil without a cache). With a cache, it
// refuses a URL the rules disallow with a [*DisallowedError], so that no
// turn is spent on it; a URL of an origin whose robots.txt is unreachable
// is not refused, as its turn comes when the robots.txt is asked again.
func (p *Pacer) spacing(ctx context.Context, rawURL string) (time.Duration, reason, *Result, error) {
	d := p.delay
	why := reason{what: "Delay"}
	var latest *Result
	if p.cache != nil {
		dec, err := p.cache.DecideNow(ctx, rawURL)
		if err != nil {
			return 0, why, nil, err
		}
		if !dec.Allowed && dec.Source != Unreachable {
			return 0, why, nil, disallowedError(dec, p.agent)
		}
		latest = dec.Latest
		if cd, line := dec.Robots.Group(p.agent).CrawlDelayLine(); line != 0 {
			d = cd
			why = reason{what: "Crawl-delay", robotsURL: dec.Result.RobotsURL, line: line}
		}
	}
	d = max(min(d, p.maxD), p.minD)
	why.delay = d
	return d, why, latest, nil
}

// A Reservation is a turn at an origin, set aside by [Pacer.Reserve].
type Reservation struct {
	p    *Pacer
	pc   *pace
	w    *waiter
	used bool // a Transport has sent a request on it; guarded by p.mu
}

// Origin returns the origin the turn is at, such as "https://example.com".
func (r *Reservation) Origin() string { return r.pc.origin }

// Ready returns a channel that is closed when the turn comes.
func (r *Reservation) Ready() <-chan struct{} { return r.w.ready }

// When returns when the turn comes: the time it came, once it has, or else
// when it will come if nothing changes; a 429 or 503 answer meanwhile
// ([Pacer.Observe]) pushes it back. It returns the zero time for a turn
// given back with Cancel.
func (r *Reservation) When() time.Time {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	return r.when(time.Now())
}

// Delay returns how long from now until the turn comes: 0 once it has.
func (r *Reservation) Delay() time.Duration {
	return max(time.Until(r.When()), 0)
}

// when is When with p.mu held.
func (r *Reservation) when(now time.Time) time.Time {
	if r.w.el == nil {
		return r.w.at
	}
	pc := r.pc
	at := pc.next
	if at.Before(now) {
		at = now
	}
	for e := pc.waiters.Front(); e != nil && e != r.w.el; e = e.Next() {
		at = at.Add(pc.delay)
	}
	return at
}

// why returns what sets the wait for a turn that comes at when: the pause,
// when the turn is the first after it, else the origin's spacing.
func (r *Reservation) why(when time.Time) reason {
	pc := r.pc
	if !pc.pauseUntil.IsZero() && !when.Before(pc.pauseUntil) && when.Sub(pc.pauseUntil) < max(pc.delay, time.Millisecond) {
		return pc.pauseWhy
	}
	return pc.spacing
}

// Cancel gives the turn back when it has not come yet, so that the turns
// behind it move up. A turn that has come is spent: the origin's spacing
// runs from it whether or not a request was sent. Cancel may be called
// more than once.
func (r *Reservation) Cancel() {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.w.el == nil {
		return
	}
	pc := r.pc
	pc.waiters.Remove(r.w.el)
	r.w.el = nil
	if pc.waiters.Len() == 0 {
		p.setIdle(pc)
		p.setDue(pc)
	}
}

// Observe tells the pacer the status and header of the answer to a request
// for rawURL. A 429 (Too Many Requests) or 503 (Service Unavailable)
// pushes the origin's next turn back by the answer's Retry-After, in
// seconds or as an HTTP date, or else by the back-off, which doubles with
// each such answer in a row; either is bounded by MaxBackoff. Any other
// status ends the run. Observe returns the pause it imposed, 0 for none.
func (p *Pacer) Observe(rawURL string, status int, h http.Header) time.Duration {
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if !pausing(status) {
		if pc, ok := p.origins[origin]; ok && pc.failures > 0 {
			pc.failures, pc.pause = 0, 0
			p.setDue(pc)
		}
		return 0
	}
	pc := p.lookup(origin, now)
	pc.failures++
	wait, ok := retryAfter(h, now)
	if !ok {
		wait = p.backoff
		for i := 1; i < pc.failures && wait < p.maxBackoff; i++ {
			wait *= 2
		}
	}
	wait = min(wait, p.maxBackoff)
	if until := now.Add(wait); until.After(pc.next) {
		pc.next = until
		pc.pauseUntil = until
		pc.pauseWhy = reason{what: "back-off", delay: wait, status: status}
		if ok {
			pc.pauseWhy.what = "Retry-After"
		}
	}
	pc.pause = wait
	p.setDue(pc)
	p.arm(now)
	return wait
}

// retryAfter reads a Retry-After header (RFC 9110 §10.2.3): delay-seconds
// or an HTTP date, as a wait from now; a date in the past is no wait. It
// reports false when there is none or it is invalid.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, err := strconv.ParseUint(v, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false
		}
		// Too many digits for an integer means the largest value, as
		// for max-age; MaxBackoff bounds it.
		return time.Duration(min(secs, maxAgeCap)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// Len returns the number of origins the pacer remembers: those with callers
// waiting, and those whose last turn was too recent to forget.
func (p *Pacer) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.origins)
}

// lookup returns the entry of origin, making one, free to go at now, if
// there is none.
func (p *Pacer) lookup(origin string, now time.Time) *pace {
	if pc, ok := p.origins[origin]; ok {
		return pc
	}
	// The origin may be a slice of a long URL: keep only the origin.
	pc := &pace{origin: strings.Clone(origin), next: now, due: now}
	p.origins[pc.origin] = pc
	heap.Push(&p.due, pc)
	p.setIdle(pc)
	return pc
}

// handOut records that r's turn, which has come, is handed out at now to
// be sent: the spacing runs from the start of one request to the start of
// the next, so a turn handed out later than it came pushes the origin's
// next turn back to a spacing after now. An origin forgotten meanwhile is
// remembered again until then.
func (p *Pacer) handOut(r *Reservation, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pc, ok := p.origins[r.pc.origin]
	if !ok {
		pc = p.lookup(r.pc.origin, now)
		pc.delay, pc.spacing = r.pc.delay, r.pc.spacing
	}
	if next := now.Add(pc.delay); next.After(pc.next) {
		pc.next = next
		p.setDue(pc)
		p.arm(now)
	}
}

// grant starts a turn of pc at now: the next may start a spacing later.
func (p *Pacer) grant(pc *pace, now time.Time) {
	pc.next = now.Add(pc.delay)
	p.setDue(pc)
}

// setDue sets when the timer must see to pc: at its next time when someone
// waits, to give a turn, or when nobody does, to forget it; but an idle
// origin backing off is remembered for one more pause, at least Backoff,
// so that a 429 or 503 after its pause counts as one more in a row.
func (p *Pacer) setDue(pc *pace) {
	pc.due = pc.next
	if pc.waiters.Len() == 0 && pc.failures > 0 {
		pc.due = pc.due.Add(max(pc.pause, p.backoff))
	}
	heap.Fix(&p.due, pc.index)
}

// setIdle records that nobody waits for pc, forgetting the origin idle the
// longest if there are too many.
func (p *Pacer) setIdle(pc *pace) {
	pc.idleAt = p.idle.PushBack(pc)
	if p.idle.Len() > p.maxIdle {
		p.forget(p.idle.Front().Value.(*pace))
	}
}

// setBusy records that someone waits for pc.
func (p *Pacer) setBusy(pc *pace) {
	if pc.idleAt != nil {
		p.idle.Remove(pc.idleAt)
		pc.idleAt = nil
	}
}

// forget drops pc, which nobody waits for.
func (p *Pacer) forget(pc *pace) {
	p.setBusy(pc)
	heap.Remove(&p.due, pc.index)
	delete(p.origins, pc.origin)
}

// arm makes sure the timer fires by the time the earliest origin is due.
func (p *Pacer) arm(now time.Time) {
	if len(p.due) == 0 {
		return
	}
	at := p.due[0].due
	if !p.timerAt.IsZero() && !at.Before(p.timerAt) {
		return // the timer fires in time
	}
	p.timerAt = at
	if p.timer == nil {
		p.timer = time.AfterFunc(at.Sub(now), p.fire)
	} else {
		p.timer.Reset(at.Sub(now))
	}
}

// fire gives the turns that are due, then tells those who asked to be told.
func (p *Pacer) fire() {
	for _, notify := range p.grantDue() {
		notify()
	}
}

// grantDue gives the turns that are due, forgets the origins nobody waits
// for once their time has come, and sets the timer for what is due next.
// It returns the notify functions of the turns given.
func (p *Pacer) grantDue() (notify []func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timerAt = time.Time{}
	now := time.Now()
	for len(p.due) > 0 && !now.Before(p.due[0].due) {
		pc := p.due[0]
		if pc.waiters.Len() == 0 {
			p.forget(pc)
			continue
		}
		w := pc.waiters.Remove(pc.waiters.Front()).(*waiter)
		w.el, w.at = nil, now
		close(w.ready)
		if w.notify != nil {
			notify = append(notify, w.notify)
		}
		if pc.waiters.Len() == 0 {
			p.setIdle(pc)
		}
		p.grant(pc, now)
	}
	p.arm(now)
	return notify
}

// paceHeap orders origins by their next time; it implements heap.Interface.
type paceHeap []*pace

func (h paceHeap) Len() int           { return len(h) }
func (h paceHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h paceHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *paceHeap) Push(x any) {
	pc := x.(*pace)
	pc.index = len(*h)
	*h = append(*h, pc)
}

func (h *paceHeap) Pop() any {
	old := *h
	pc := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return pc
}
