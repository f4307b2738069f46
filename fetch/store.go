package fetch

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
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
// lease; a cache that finds the lease taken waits for the holder's value
// (polling), at most until the lease runs out, and then takes the lease
// itself. A holder that died thus delays the others by at most LeaseTTL.
//
// The Store failing never fails a question. Each call is bounded by
// Options.StoreTimeout, whether or not the Store honours its context; a
// call that fails or takes longer makes the cache fetch by itself, report
// it (FetchEvent.StoreErr, Stats.StoreErrors) and do without the Store for
// Options.StoreRetry, then try it again. A value that does not load
// (damaged, foreign, another version's) is ignored and replaced by the next
// save.
//
// Values are opaque bytes, versioned and checksummed by the cache. Keys are
// origins (scheme://host[:port]); a Store names its keys from them, and
// keeps each origin's value apart from its lease. Expiry is judged by the
// cache with its own clock (Options.Now), from the times in the value; the
// Store's ttl only bounds how long it keeps a value or a lease.
//
// Implementations must be safe for concurrent use.
type Store interface {
	// Load returns the value saved for origin, or nil and no error when
	// there is none.
	Load(ctx context.Context, origin string) ([]byte, error)

	// Lease takes the lease on origin for ttl under the name token, unless
	// someone holds it, and reports whether it did. It also returns the
	// value saved for origin when the lease was tried (nil when none): a
	// holder saves and drops the lease in one step, so a lease taken with
	// no fresh value means that no one is about to save one. Both must
	// happen atomically, as SET NX PX and GET in one transaction do.
	Lease(ctx context.Context, origin, token string, ttl time.Duration) (value []byte, taken bool, err error)

	// Save saves value for origin, kept for ttl, and drops the lease on
	// origin if token holds it, atomically. An empty token drops no lease.
	Save(ctx context.Context, origin, token string, value []byte, ttl time.Duration) error

	// Release drops the lease on origin if token holds it.
	Release(ctx context.Context, origin, token string) error

	// Delete removes the value saved for origin.
	Delete(ctx context.Context, origin string) error
}

// StoreError tells that a call to a [Store] failed, or that the cache did
// not call a Store that had failed shortly before. The cache went on
// without the Store.
type StoreError struct {
	// Op is the call: "load", "lease", "save", "release" or "delete";
	// "skip" when the cache did not call the Store because it had failed
	// within Options.StoreRetry (Err is then that failure's error); or
	// "decode" when a value did not load (the Store itself worked).
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
)

// Bounds of the pause between two looks at the Store while another cache
// holds the lease: short first, since a robots.txt fetch may take a few
// milliseconds, then doubling, so that many waiters (a fleet starting
// together waits on every origin at once) do not flood the Store. Each
// pause is drawn within ±25% of its value, so that waiters spread out.
const (
	firstPause = 10 * time.Millisecond
	maxPause   = 250 * time.Millisecond
)

// shared is a cache's Store and its settings. Times here are real times,
// not Options.Now: they bound calls over the network.
type shared struct {
	store        Store
	storeTimeout time.Duration
	leaseTTL     time.Duration
	storeKeep    time.Duration
	storeRetry   time.Duration
	now          func() time.Time // the cache's clock, which judges expiry

	// Counters of Stats, kept here since the store protocol counts them.
	storeErrs, corrupts atomic.Uint64

	downMu    sync.Mutex
	downUntil time.Time // the Store is not called before then
	downErr   error     // the failure that set downUntil
}

// init sets s from the Options, given the cache's fetch timeout,
// GiveUpAfter and clock.
func (s *shared) init(o *Options, timeout, giveUpAfter time.Duration, now func() time.Time) {
	if o.Store == nil {
		return
	}
	s.store, s.now = o.Store, now
	s.storeTimeout = orDefault(o.StoreTimeout, DefaultStoreTimeout)
	s.storeKeep = orDefault(o.StoreKeep, giveUpAfter)
	s.storeRetry = orDefault(o.StoreRetry, DefaultStoreRetry)
	s.leaseTTL = orDefault(o.LeaseTTL, timeout+2*s.storeTimeout)
}

// storeReady returns nil when the Store may be called, and a "skip"
// *StoreError while it is resting after a failure.
func (s *shared) storeReady() error {
	s.downMu.Lock()
	defer s.downMu.Unlock()
	if time.Now().Before(s.downUntil) {
		return &StoreError{Op: "skip", Err: s.downErr}
	}
	return nil
}

// storeCall calls the Store through call, bounded by StoreTimeout even if
// call does not return when its context ends: it then finishes on its own
// and its result is dropped. A failure rests the Store for StoreRetry.
func storeCall[T any](c *shared, ctx context.Context, op string, call func(context.Context) (T, error)) (T, error) {
	type outcome struct {
		v   T
		err error
	}
	ctx, cancel := context.WithTimeout(ctx, c.storeTimeout)
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
	if out.err != nil {
		err := &StoreError{Op: op, Err: out.err}
		c.downMu.Lock()
		c.downUntil, c.downErr = time.Now().Add(c.storeRetry), err
		c.downMu.Unlock()
		var zero T
		return zero, err
	}
	return out.v, nil
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
func (c *shared) consult(ctx context.Context, origin string, held state, ev *FetchEvent) plan {
	p := plan{state: held}
	if err := c.storeReady(); err != nil {
		ev.StoreErr = err
		return p
	}
	v, err := storeCall(c, ctx, "load", func(ctx context.Context) ([]byte, error) {
		return c.store.Load(ctx, origin)
	})
	if err != nil {
		ev.StoreErr = err
		return p
	}
	p.save = true
	if c.adopt(&p, v, ev) {
		return p
	}

	type leased struct {
		value []byte
		taken bool
	}
	token := newToken()
	start := time.Now()
	deadline := start.Add(c.leaseTTL + c.storeTimeout)
	pause := firstPause
	for {
		l, err := storeCall(c, ctx, "lease", func(ctx context.Context) (leased, error) {
			v, taken, err := c.store.Lease(ctx, origin, token, c.leaseTTL)
			return leased{v, taken}, err
		})
		if err != nil {
			ev.StoreErr = err
			p.save = false
			return p
		}
		if c.adopt(&p, l.value, ev) {
			if l.taken {
				// The holder saved between the load and the lease.
				c.release(ctx, origin, token, ev)
			}
			return p
		}
		if l.taken {
			p.token = token
			return p
		}
		// Another cache holds the lease. Past the deadline its lease has
		// run out and another has taken it, again and again: fetch.
		if time.Now().After(deadline) {
			return p
		}
		time.Sleep(pause*3/4 + rand.N(pause/2))
		ev.Waited = time.Since(start)
		pause = min(2*pause, maxPause)
	}
}

// adopt merges the Store's value v into p.state and reports whether it
// is fresh. A value that does not load is reported in ev and ignored.
func (c *shared) adopt(p *plan, v []byte, ev *FetchEvent) bool {
	if v == nil {
		return false
	}
	st, err := decodeState(v)
	if err != nil {
		if ev.StoreErr == nil { // count each refresh once
			ev.StoreErr = &StoreError{Op: "decode", Err: err}
			c.corrupts.Add(1)
		}
		return false
	}
	if c.now().Before(st.latest.Expires) {
		p.state, p.fresh = st, true
		return true
	}
	if st.newer(p.state) {
		p.state = st
	}
	return false
}

// save writes the history st of origin to the Store, dropping the lease
// token when not "".
func (c *shared) save(ctx context.Context, origin, token string, st state, ev *FetchEvent) {
	if err := c.storeReady(); err != nil {
		// The Store failed during the fetch; a lease held runs out.
		ev.StoreErr = err
		return
	}
	value, err := encodeState(st)
	if err != nil {
		// A Robots that cannot be encoded is the core's bug; the cache
		// works on without saving, and says so.
		ev.StoreErr = &StoreError{Op: "save", Err: err}
		c.release(ctx, origin, token, ev)
		return
	}
	ttl := max(st.latest.Expires.Sub(c.now()), 0) + c.storeKeep
	_, err = storeCall(c, ctx, "save", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.store.Save(ctx, origin, token, value, ttl)
	})
	if err != nil {
		ev.StoreErr = err
	}
}

// release drops the lease token on origin, if not "".
func (c *shared) release(ctx context.Context, origin, token string, ev *FetchEvent) {
	if token == "" {
		return
	}
	_, err := storeCall(c, ctx, "release", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.store.Release(ctx, origin, token)
	})
	if err != nil {
		ev.StoreErr = err
	}
}

// forget deletes origin's value from the Store, bounded by StoreTimeout
// rather than by ctx, and counts a failure.
func (c *shared) forget(ctx context.Context, origin string) error {
	if err := c.storeReady(); err != nil {
		c.storeErrs.Add(1)
		return err
	}
	// The caller giving up is not the Store failing: StoreTimeout bounds
	// the call instead.
	_, err := storeCall(c, context.WithoutCancel(ctx), "delete", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.store.Delete(ctx, origin)
	})
	if err != nil {
		c.storeErrs.Add(1)
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
