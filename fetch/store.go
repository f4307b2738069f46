package fetch

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// A Store holds origins' fetch histories for caches that share it, so that
// a fleet of crawler processes fetches each robots.txt once instead of once
// per process, and a new process starts warm. Set Options.Store to use one;
// the module github.com/robotstxt-go/robotstxt/redisstore implements it on
// Redis.
//
// The cache keeps its in-process tier in front: a question about an origin
// it holds fresh never reaches the Store. On a miss or an expiry it loads
// the origin's value from the Store and uses it if it is fresh. If not, it
// takes the origin's lease, fetches, saves the new history and drops the
// lease in one step. While it fetches it renews the lease every third of
// Options.LeaseTTL, so that the lease lasts as long as the fetch does
// (at most Options.Timeout) and no longer than LeaseTTL after its holder
// dies.
//
// A cache that finds the lease taken waits for the holder's value,
// polling, and follows the lease rather than its own clock: when the lease
// runs out, one waiter takes it over and fetches, and the others wait for
// that one. Behind a holder that died, a question thus waits at most
// LeaseTTL (the dead lease running out), the new holder's fetch, two
// pauses of at most 250 ms and two calls to the Store. A waiter gives up and
// fetches without the lease only when a holder keeps its lease past
// Options.Timeout and LeaseTTL, when the lease has changed hands three
// times without a value, or when the Store fails (Stats.StoreGaveUp).
//
// The Store failing never fails a question. Each call is bounded by
// Options.StoreTimeout, whether or not the Store honours its context; a
// call that fails or takes longer makes the cache fetch by itself, report
// it (FetchEvent.StoreErr, Stats.StoreErrors) and do without the Store for
// that origin for Options.StoreRetry, then try it again. Three failures in
// a row, of any origins, rest the Store for every origin for StoreRetry: a
// Store that is down costs a few timeouts, not one per origin, while one
// slow origin does not switch sharing off for the others.
//
// Values are opaque bytes, versioned and checksummed by the cache, and
// bound to the origin and the crawler's product token (Options.Agent) they
// were fetched for: a value that does not load (damaged, of another origin
// or crawler, of another version, longer than [MaxStoreValue], or not sealed
// with Options.StoreKey) is refused, the origin fetched, and the value
// replaced by the save (Stats.StoreRefused). Keys are origins
// (scheme://host[:port]); a Store names its keys from them, and keeps each
// origin's value apart from its lease. Expiry is judged by the cache with
// its own clock (Options.Now), from the times in the value; the Store's
// ttl only bounds how long it keeps a value or a lease.
//
// Implementations must be safe for concurrent use.
type Store interface {
	// Load returns the value saved for origin, or nil and no error when
	// there is none. A value longer than MaxStoreValue is not read: Load
	// returns ErrValueTooLarge for it.
	Load(ctx context.Context, origin string) ([]byte, error)

	// Lease takes the lease on origin for ttl under the name token when
	// no one holds it, renews it for ttl when token holds it, and returns
	// it as it then stands, with the value saved for origin, atomically (as
	// a Redis script does). A holder saves and drops the lease in one step,
	// so a lease taken with no fresh value means that no one is about to
	// save one.
	Lease(ctx context.Context, origin, token string, ttl time.Duration) (Lease, error)

	// Save saves value for origin, kept for ttl, and drops the lease on
	// origin if token holds it, atomically. An empty token drops no lease.
	Save(ctx context.Context, origin, token string, value []byte, ttl time.Duration) error

	// Release drops the lease on origin if token holds it.
	Release(ctx context.Context, origin, token string) error

	// Delete removes the value saved for origin.
	Delete(ctx context.Context, origin string) error
}

// Lease is an origin's lease in a [Store], as [Store.Lease] finds it, and
// the origin's value.
type Lease struct {
	// Holder is the token of the cache that holds the lease: the caller's
	// own when it took or renewed it.
	Holder string
	// Left is how long the lease has left; 0 or less when the Store does
	// not know.
	Left time.Duration
	// Value is the value saved for the origin, nil when there is none or
	// when it is TooLarge.
	Value []byte
	// TooLarge reports that the value is longer than MaxStoreValue and was
	// not read.
	TooLarge bool
}

// ErrValueTooLarge is returned by [Store.Load] for a value longer than
// [MaxStoreValue], which it does not read.
var ErrValueTooLarge = errors.New("robotstxt: store value longer than MaxStoreValue")

// StoreError tells that a call to a [Store] failed, or that the cache did
// not call a Store that had failed shortly before. The cache went on
// without the Store.
type StoreError struct {
	// Op is the call: "load", "lease", "save", "release" or "delete";
	// "skip" when the cache did not call the Store because it had failed
	// within Options.StoreRetry (Err is then that failure's error); or
	// "decode" when a value was refused (the Store itself worked).
	Op  string
	Err error
}

func (e *StoreError) Error() string {
	return "robotstxt: store " + e.Op + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *StoreError) Unwrap() error { return e.Err }

// Defaults of the Store settings in [Options].
const (
	DefaultStoreTimeout = 250 * time.Millisecond
	DefaultStoreRetry   = 5 * time.Second
	// DefaultLeaseTTL plus twice StoreTimeout is the default LeaseTTL:
	// long enough that a renewal which fails once, or lands late, does
	// not lose the lease; short, since it is what a holder that died
	// costs the others.
	DefaultLeaseTTL = 2 * time.Second
)

// Bounds of the pause between two looks at the Store while another cache
// holds the lease: short first, since a robots.txt fetch may take a few
// milliseconds, then doubling, so that many waiters (a fleet starting
// together waits on every origin at once) do not flood the Store. Each
// pause is drawn within ±25% of its value, so that waiters spread out, and
// ends early when the lease runs out.
const (
	firstPause = 10 * time.Millisecond
	maxPause   = 250 * time.Millisecond
)

// maxHolders is how many holders in turn a waiter waits for before it
// fetches without the lease.
const maxHolders = 3

// tripAfter is how many Store failures in a row, of any origins, rest the
// Store for every origin.
const tripAfter = 3

// maxResting bounds the origins kept resting apart; past it, the expired
// ones are dropped, and if none has, the Store rests for every origin.
const maxResting = 4096

// shared is a cache's Store and its settings. Times here are real times,
// not Options.Now: they bound calls over the network.
type shared struct {
	store        Store
	storeTimeout time.Duration
	timeout      time.Duration // of a fetch
	leaseTTL     time.Duration
	storeKeep    time.Duration
	storeRetry   time.Duration
	now          func() time.Time // the cache's clock, which judges expiry
	bind         binding          // agent and key; origin set per value

	// Counters of Stats, kept here since the store protocol counts them.
	storeErrs, gaveUp, takenOver atomic.Uint64
	refused                      [numReasons]atomic.Uint64

	downMu   sync.Mutex
	downAll  time.Time // no origin calls the Store before then
	downErr  error     // the failure that set downAll
	failures int       // Store failures in a row
	resting  map[string]rest
}

// rest is an origin's rest after a failure of the Store.
type rest struct {
	until time.Time
	err   error
}

// Reasons a value is refused, indexes of shared.refused.
const (
	refusedFormat = iota
	refusedDamaged
	refusedSeal
	refusedOrigin
	refusedAgent
	refusedTooLarge
	numReasons
)

// init sets s from the Options, given the cache's fetch timeout,
// GiveUpAfter, clock and product token.
func (s *shared) init(o *Options, timeout, giveUpAfter time.Duration, now func() time.Time, agent string) {
	if o.Store == nil {
		return
	}
	s.store, s.now, s.timeout = o.Store, now, timeout
	s.bind = binding{agent: grammar.LowerString(agent), key: bytes.Clone(o.StoreKey)}
	s.storeTimeout = orDefault(o.StoreTimeout, DefaultStoreTimeout)
	s.storeKeep = orDefault(o.StoreKeep, giveUpAfter)
	s.storeRetry = orDefault(o.StoreRetry, DefaultStoreRetry)
	s.leaseTTL = orDefault(o.LeaseTTL, DefaultLeaseTTL+2*s.storeTimeout)
	s.resting = make(map[string]rest)
}

// storeReady returns nil when the Store may be called for origin, and a
// "skip" *StoreError while it rests after a failure, for every origin or
// for this one.
func (s *shared) storeReady(origin string) error {
	s.downMu.Lock()
	defer s.downMu.Unlock()
	now := time.Now()
	if now.Before(s.downAll) {
		return &StoreError{Op: "skip", Err: s.downErr}
	}
	if r, ok := s.resting[origin]; ok {
		if now.Before(r.until) {
			return &StoreError{Op: "skip", Err: r.err}
		}
		delete(s.resting, origin)
	}
	return nil
}

// failed rests origin after the Store failed with err, and every origin
// after tripAfter failures in a row.
func (s *shared) failed(origin string, err error) {
	s.downMu.Lock()
	defer s.downMu.Unlock()
	now := time.Now()
	until := now.Add(s.storeRetry)
	if len(s.resting) >= maxResting {
		for o, r := range s.resting {
			if !now.Before(r.until) {
				delete(s.resting, o)
			}
		}
	}
	s.failures++
	if s.failures >= tripAfter || len(s.resting) >= maxResting {
		s.downAll, s.downErr, s.failures = until, err, 0
		return
	}
	s.resting[origin] = rest{until, err}
}

// succeeded ends a run of failures.
func (s *shared) succeeded() {
	s.downMu.Lock()
	s.failures = 0
	s.downMu.Unlock()
}

// storeCall calls the Store about origin through call, bounded by
// StoreTimeout even if call does not return when its context ends: it then
// finishes on its own and its result is dropped. A failure rests the
// Store (see failed); ErrValueTooLarge is not a failure.
func storeCall[T any](s *shared, ctx context.Context, origin, op string, call func(context.Context) (T, error)) (T, error) {
	type outcome struct {
		v   T
		err error
	}
	ctx, cancel := context.WithTimeout(ctx, s.storeTimeout)
	done := make(chan outcome, 1)
	go func() {
		defer cancel()
		v, err := call(ctx)
		done <- outcome{v, err}
	}()
	var out outcome
	select {
	case out = <-done:
	case <-ctx.Done():
		// The call cancels ctx once it has sent its outcome: look again.
		select {
		case out = <-done:
		default:
			out.err = ctx.Err()
		}
	}
	if out.err != nil && !errors.Is(out.err, ErrValueTooLarge) {
		err := &StoreError{Op: op, Err: out.err}
		s.failed(origin, err)
		var zero T
		return zero, err
	}
	s.succeeded()
	return out.v, out.err
}

// plan is what a cache learned from the Store before fetching.
type plan struct {
	state state  // the newest history known, the Store's or the cache's
	fresh bool   // state is fresh: use it, do not fetch
	save  bool   // the Store answers: save what the fetch gives
	token string // the lease held, or ""
}

// consult asks the Store about origin, whose history in this cache is held.
// Store problems are recorded in ev.StoreErr.
func (s *shared) consult(ctx context.Context, origin string, held state, ev *FetchEvent) plan {
	p := plan{state: held}
	if err := s.storeReady(origin); err != nil {
		ev.StoreErr = err
		return p
	}
	v, err := storeCall(s, ctx, origin, "load", func(ctx context.Context) ([]byte, error) {
		return s.store.Load(ctx, origin)
	})
	if errors.Is(err, ErrValueTooLarge) {
		s.refuse(ev, errEntryTooLarge)
	} else if err != nil {
		ev.StoreErr = err
		return p
	}
	p.save = true
	if s.adopt(&p, origin, v, ev) {
		return p
	}

	token := newToken()
	start := time.Now()
	var holder string   // the holder waited for
	var since time.Time // when it was first seen
	holders := 0
	pause := firstPause
	for {
		l, err := storeCall(s, ctx, origin, "lease", func(ctx context.Context) (Lease, error) {
			return s.store.Lease(ctx, origin, token, s.leaseTTL)
		})
		if err != nil {
			ev.StoreErr = err
			p.save = false
			if holders > 0 {
				s.gaveUp.Add(1)
			}
			return p
		}
		if l.TooLarge {
			s.refuse(ev, errEntryTooLarge)
		}
		if s.adopt(&p, origin, l.Value, ev) {
			if l.Holder == token {
				// The holder saved between the load and the lease.
				s.release(ctx, origin, token, ev)
			}
			return p
		}
		if l.Holder == token {
			p.token = token
			if holders > 0 {
				s.takenOver.Add(1)
			}
			return p
		}
		now := time.Now()
		if l.Holder != holder {
			// The lease changed hands: wait for the new holder.
			holder, since, pause = l.Holder, now, firstPause
			if holders++; holders > maxHolders {
				s.gaveUp.Add(1)
				return p
			}
		}
		// A live holder renews its lease until its fetch ends, within
		// Timeout, and saves; one whose lease never runs out is broken.
		limit := s.timeout + s.leaseTTL + 2*s.storeTimeout
		if l.Left <= 0 {
			limit = s.leaseTTL + s.storeTimeout
		}
		if now.Sub(since) > limit {
			s.gaveUp.Add(1)
			return p
		}
		d := pause*3/4 + rand.N(pause/2)
		if l.Left > 0 {
			d = min(d, l.Left+time.Millisecond) // look again as it runs out
		}
		time.Sleep(d)
		ev.Waited = time.Since(start)
		pause = min(2*pause, maxPause)
	}
}

// adopt merges the Store's value v for origin into p.state and reports
// whether it is fresh. A value that does not load is refused.
func (s *shared) adopt(p *plan, origin string, v []byte, ev *FetchEvent) bool {
	if v == nil {
		return false
	}
	b := s.bind
	b.origin = origin
	st, err := decodeState(v, b)
	if err != nil {
		s.refuse(ev, err)
		return false
	}
	if s.now().Before(st.latest.Expires) {
		p.state, p.fresh = st, true
		return true
	}
	if st.newer(p.state) {
		p.state = st
	}
	return false
}

// refuse reports and counts a value refused for err, once per refresh.
func (s *shared) refuse(ev *FetchEvent, err error) {
	if se := (*StoreError)(nil); ev.StoreErr != nil && errors.As(ev.StoreErr, &se) && se.Op == "decode" {
		return
	}
	if ev.StoreErr == nil {
		ev.StoreErr = &StoreError{Op: "decode", Err: err}
	}
	reason := refusedDamaged
	switch {
	case errors.Is(err, errEntryFormat):
		reason = refusedFormat
	case errors.Is(err, errEntrySeal):
		reason = refusedSeal
	case errors.Is(err, errEntryOrigin):
		reason = refusedOrigin
	case errors.Is(err, errEntryAgent):
		reason = refusedAgent
	case errors.Is(err, errEntryTooLarge):
		reason = refusedTooLarge
	}
	s.refused[reason].Add(1)
}

// refusedTotal returns the number of values refused, for every reason.
func (s *shared) refusedTotal() uint64 {
	var n uint64
	for i := range s.refused {
		n += s.refused[i].Load()
	}
	return n
}

// keep renews the lease token on origin every third of LeaseTTL until the
// function it returns is called, which waits for it to stop.
func (s *shared) keep(ctx context.Context, origin, token string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(max(s.leaseTTL/3, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			l, err := storeCall(s, ctx, origin, "lease", func(ctx context.Context) (Lease, error) {
				return s.store.Lease(ctx, origin, token, s.leaseTTL)
			})
			if err != nil || l.Holder != token {
				return // the lease is lost; the save writes all the same
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// save writes the history st of origin to the Store, dropping the lease
// token when not "".
func (s *shared) save(ctx context.Context, origin, token string, st state, ev *FetchEvent) {
	if err := s.storeReady(origin); err != nil {
		// The Store failed during the fetch; a lease held runs out.
		ev.StoreErr = err
		return
	}
	b := s.bind
	b.origin = origin
	value, err := encodeState(st, b)
	if err != nil {
		// Rules that cannot be encoded, or that no cache would read: the
		// cache works on without saving, and says so.
		ev.StoreErr = &StoreError{Op: "save", Err: err}
		s.release(ctx, origin, token, ev)
		return
	}
	ttl := max(st.latest.Expires.Sub(s.now()), 0) + s.storeKeep
	_, err = storeCall(s, ctx, origin, "save", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, s.store.Save(ctx, origin, token, value, ttl)
	})
	if err != nil {
		ev.StoreErr = err
	}
}

// release drops the lease token on origin, if not "".
func (s *shared) release(ctx context.Context, origin, token string, ev *FetchEvent) {
	if token == "" {
		return
	}
	_, err := storeCall(s, ctx, origin, "release", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, s.store.Release(ctx, origin, token)
	})
	if err != nil {
		ev.StoreErr = err
	}
}

// forget deletes origin's value from the Store, bounded by StoreTimeout
// rather than by ctx, and counts a failure.
func (s *shared) forget(ctx context.Context, origin string) error {
	if err := s.storeReady(origin); err != nil {
		s.storeErrs.Add(1)
		return err
	}
	// The caller giving up is not the Store failing: StoreTimeout bounds
	// the call instead.
	_, err := storeCall(s, context.WithoutCancel(ctx), origin, "delete", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, s.store.Delete(ctx, origin)
	})
	if err != nil {
		s.storeErrs.Add(1)
	}
	return err
}

// newer reports whether s holds a later fetch than t.
func (s state) newer(t state) bool {
	return s.latest != nil && (t.latest == nil || s.latest.Fetched.After(t.latest.Fetched))
}

// newToken returns a random lease name, unique across a fleet.
func newToken() string {
	var b [16]byte
	crand.Read(b[:]) // never fails
	return hex.EncodeToString(b[:])
}
