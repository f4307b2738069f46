// Package lease runs the protocol by which the caches of a crawler fleet
// share each origin's robots.txt history through a store, so that the
// fleet fetches each robots.txt once: load the origin's value and use it
// when fresh; else take the origin's lease, renew it while fetching, and
// save the new value, dropping the lease in one step; or, when another
// cache holds the lease, wait for its value, following the lease rather
// than a clock of one's own. A store that fails never fails a question:
// each call is bounded, and a failure rests the store for the origin, or
// for every origin after a few in a row.
//
// Package fetch documents the contract (fetch.Store) and runs a Protocol
// for each cache with a Store. The values are opaque here: a Codec reads
// and writes them.
package lease

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Store is fetch.Store, with this package's Lease.
type Store interface {
	Load(ctx context.Context, origin string) ([]byte, error)
	Lease(ctx context.Context, origin, token string, ttl time.Duration) (Lease, error)
	Save(ctx context.Context, origin, token string, value []byte, ttl time.Duration) error
	Release(ctx context.Context, origin, token string) error
	Delete(ctx context.Context, origin string) error
}

// Lease is fetch.Lease: an origin's lease as the Store finds it, and the
// origin's value.
type Lease struct {
	Holder   string
	Left     time.Duration
	Value    []byte
	TooLarge bool
}

// Error tells that a call to the Store failed ("load", "lease", "save",
// "release", "delete"), that it was skipped while the Store rests after a
// failure ("skip"), or that a value was refused ("decode"). Package fetch
// hands it on as a fetch.StoreError.
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string { return "robotstxt: store " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Codec reads and writes an origin's history, of type S, as a value of
// the Store.
type Codec[S any] interface {
	// Decode reads the value v of origin; its error is why v is refused.
	Decode(v []byte, origin string) (S, error)
	// Encode writes s, the history of origin, as a value.
	Encode(s S, origin string) ([]byte, error)
	// Fresh reports whether s may be used at now without a fetch.
	Fresh(s S, now time.Time) bool
	// Newer reports whether s holds a later fetch than t.
	Newer(s, t S) bool
	// Expires returns when s stops being fresh.
	Expires(s S) time.Time
}

// Config sets a Protocol. Times here are real times, not the cache's
// clock, except Now, which judges freshness: they bound calls over the
// network.
type Config struct {
	Timeout      time.Duration // of a robots.txt fetch
	StoreTimeout time.Duration // of each call to the Store
	LeaseTTL     time.Duration
	Keep         time.Duration // how long a value outlives its expiry
	Retry        time.Duration // how long the Store rests after a failure
	Now          func() time.Time

	// TooLarge is the error the Store's Load returns for a value too long
	// to read: no failure of the Store. TooLargeRefusal is the reason a
	// refusal of such a value gives to Refused.
	TooLarge, TooLargeRefusal error

	// Refused, when not nil, is called with the reason for each value
	// refused: the error of Codec.Decode, or TooLargeRefusal.
	Refused func(reason error)
}

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

// Protocol is the protocol of one cache with a Store. It is safe for
// concurrent use.
type Protocol[S any] struct {
	store Store
	codec Codec[S]
	cfg   Config

	gaveUp, takenOver atomic.Uint64

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

// New returns the protocol of a cache with store, whose values codec
// reads and writes.
func New[S any](store Store, codec Codec[S], cfg Config) *Protocol[S] {
	return &Protocol[S]{store: store, codec: codec, cfg: cfg, resting: make(map[string]rest)}
}

// Config returns the settings p runs with.
func (p *Protocol[S]) Config() Config { return p.cfg }

// GaveUp counts the waits for another holder's value given up.
func (p *Protocol[S]) GaveUp() uint64 { return p.gaveUp.Load() }

// TakenOver counts the leases taken over from a holder that did not save.
func (p *Protocol[S]) TakenOver() uint64 { return p.takenOver.Load() }

// Report is what the Store did during one refresh of an origin.
type Report struct {
	Err    error         // an *Error: the Store failed, rested, or a value was refused
	Waited time.Duration // how long the refresh waited for another holder
}

// Plan is what a cache learned from the Store before fetching.
type Plan[S any] struct {
	State S      // the newest history known, the Store's or the cache's
	Fresh bool   // State is fresh: use it, do not fetch
	Save  bool   // the Store answers: save what the fetch gives
	Token string // the lease held, or ""
}

// ready returns nil when the Store may be called for origin, and a "skip"
// *Error while it rests after a failure, for every origin or for this one.
func (p *Protocol[S]) ready(origin string) error {
	p.downMu.Lock()
	defer p.downMu.Unlock()
	now := time.Now()
	if now.Before(p.downAll) {
		return &Error{Op: "skip", Err: p.downErr}
	}
	if r, ok := p.resting[origin]; ok {
		if now.Before(r.until) {
			return &Error{Op: "skip", Err: r.err}
		}
		delete(p.resting, origin)
	}
	return nil
}

// failed rests origin after the Store failed with err, and every origin
// after tripAfter failures in a row.
func (p *Protocol[S]) failed(origin string, err error) {
	p.downMu.Lock()
	defer p.downMu.Unlock()
	now := time.Now()
	until := now.Add(p.cfg.Retry)
	if len(p.resting) >= maxResting {
		for o, r := range p.resting {
			if !now.Before(r.until) {
				delete(p.resting, o)
			}
		}
	}
	p.failures++
	if p.failures >= tripAfter || len(p.resting) >= maxResting {
		p.downAll, p.downErr, p.failures = until, err, 0
		return
	}
	p.resting[origin] = rest{until, err}
}

// succeeded ends a run of failures.
func (p *Protocol[S]) succeeded() {
	p.downMu.Lock()
	p.failures = 0
	p.downMu.Unlock()
}

// call calls the Store about origin through fn, bounded by StoreTimeout
// even if fn does not return when its context ends: it then finishes on
// its own and its result is dropped. A failure rests the Store (see
// failed); TooLarge is not a failure.
func call[T, S any](p *Protocol[S], ctx context.Context, origin, op string, fn func(context.Context) (T, error)) (T, error) {
	type outcome struct {
		v   T
		err error
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.StoreTimeout)
	done := make(chan outcome, 1)
	go func() {
		defer cancel()
		v, err := fn(ctx)
		done <- outcome{v, err}
	}()
	var out outcome
	select {
	case out = <-done:
	case <-ctx.Done():
		// fn cancels ctx once it has sent its outcome: look again.
		select {
		case out = <-done:
		default:
			out.err = ctx.Err()
		}
	}
	if out.err != nil && !errors.Is(out.err, p.cfg.TooLarge) {
		err := &Error{Op: op, Err: out.err}
		p.failed(origin, err)
		var zero T
		return zero, err
	}
	p.succeeded()
	return out.v, out.err
}

// Consult asks the Store about origin, whose history in this cache is
// held. Store problems are recorded in r.Err.
func (p *Protocol[S]) Consult(ctx context.Context, origin string, held S, r *Report) Plan[S] {
	pl := Plan[S]{State: held}
	if err := p.ready(origin); err != nil {
		r.Err = err
		return pl
	}
	v, err := call(p, ctx, origin, "load", func(ctx context.Context) ([]byte, error) {
		return p.store.Load(ctx, origin)
	})
	if errors.Is(err, p.cfg.TooLarge) {
		p.refuse(r, p.cfg.TooLargeRefusal)
	} else if err != nil {
		r.Err = err
		return pl
	}
	pl.Save = true
	if p.adopt(&pl, origin, v, r) {
		return pl
	}

	token := newToken()
	start := time.Now()
	var holder string   // the holder waited for
	var since time.Time // when it was first seen
	holders := 0
	pause := firstPause
	for {
		l, err := call(p, ctx, origin, "lease", func(ctx context.Context) (Lease, error) {
			return p.store.Lease(ctx, origin, token, p.cfg.LeaseTTL)
		})
		if err != nil {
			r.Err = err
			pl.Save = false
			if holders > 0 {
				p.gaveUp.Add(1)
			}
			return pl
		}
		if l.TooLarge {
			p.refuse(r, p.cfg.TooLargeRefusal)
		}
		if p.adopt(&pl, origin, l.Value, r) {
			if l.Holder == token {
				// The holder saved between the load and the lease.
				p.release(ctx, origin, token, r)
			}
			return pl
		}
		if l.Holder == token {
			pl.Token = token
			if holders > 0 {
				p.takenOver.Add(1)
			}
			return pl
		}
		now := time.Now()
		if l.Holder != holder {
			// The lease changed hands: wait for the new holder.
			holder, since, pause = l.Holder, now, firstPause
			if holders++; holders > maxHolders {
				p.gaveUp.Add(1)
				return pl
			}
		}
		// A live holder renews its lease until its fetch ends, within
		// Timeout, and saves; one whose lease never runs out is broken.
		limit := p.cfg.Timeout + p.cfg.LeaseTTL + 2*p.cfg.StoreTimeout
		if l.Left <= 0 {
			limit = p.cfg.LeaseTTL + p.cfg.StoreTimeout
		}
		if now.Sub(since) > limit {
			p.gaveUp.Add(1)
			return pl
		}
		d := pause*3/4 + rand.N(pause/2)
		if l.Left > 0 {
			d = min(d, l.Left+time.Millisecond) // look again as it runs out
		}
		time.Sleep(d)
		r.Waited = time.Since(start)
		pause = min(2*pause, maxPause)
	}
}

// adopt merges the Store's value v for origin into pl.State and reports
// whether it is fresh. A value that does not load is refused.
func (p *Protocol[S]) adopt(pl *Plan[S], origin string, v []byte, r *Report) bool {
	if v == nil {
		return false
	}
	st, err := p.codec.Decode(v, origin)
	if err != nil {
		p.refuse(r, err)
		return false
	}
	if p.codec.Fresh(st, p.cfg.Now()) {
		pl.State, pl.Fresh = st, true
		return true
	}
	if p.codec.Newer(st, pl.State) {
		pl.State = st
	}
	return false
}

// refuse reports a value refused for reason, once per refresh, and hands
// the reason to Config.Refused.
func (p *Protocol[S]) refuse(r *Report, reason error) {
	if e := (*Error)(nil); r.Err != nil && errors.As(r.Err, &e) && e.Op == "decode" {
		return
	}
	if r.Err == nil {
		r.Err = &Error{Op: "decode", Err: reason}
	}
	if p.cfg.Refused != nil {
		p.cfg.Refused(reason)
	}
}

// Keep renews the lease token on origin every third of LeaseTTL until the
// function it returns is called, which waits for it to stop.
func (p *Protocol[S]) Keep(ctx context.Context, origin, token string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(max(p.cfg.LeaseTTL/3, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			l, err := call(p, ctx, origin, "lease", func(ctx context.Context) (Lease, error) {
				return p.store.Lease(ctx, origin, token, p.cfg.LeaseTTL)
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

// Save writes the history st of origin to the Store, dropping the lease
// token when not "".
func (p *Protocol[S]) Save(ctx context.Context, origin, token string, st S, r *Report) {
	if err := p.ready(origin); err != nil {
		// The Store failed during the fetch; a lease held runs out.
		r.Err = err
		return
	}
	value, err := p.codec.Encode(st, origin)
	if err != nil {
		// Rules that cannot be encoded, or that no cache would read: the
		// cache works on without saving, and says so.
		r.Err = &Error{Op: "save", Err: err}
		p.release(ctx, origin, token, r)
		return
	}
	ttl := max(p.codec.Expires(st).Sub(p.cfg.Now()), 0) + p.cfg.Keep
	_, err = call(p, ctx, origin, "save", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, p.store.Save(ctx, origin, token, value, ttl)
	})
	if err != nil {
		r.Err = err
	}
}

// release drops the lease token on origin, if not "".
func (p *Protocol[S]) release(ctx context.Context, origin, token string, r *Report) {
	if token == "" {
		return
	}
	_, err := call(p, ctx, origin, "release", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, p.store.Release(ctx, origin, token)
	})
	if err != nil {
		r.Err = err
	}
}

// Forget deletes origin's value from the Store, bounded by StoreTimeout
// rather than by ctx. Its error is an *Error: the Store failed, or rests.
func (p *Protocol[S]) Forget(ctx context.Context, origin string) error {
	if err := p.ready(origin); err != nil {
		return err
	}
	// The caller giving up is not the Store failing: StoreTimeout bounds
	// the call instead.
	_, err := call(p, context.WithoutCancel(ctx), origin, "delete", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, p.store.Delete(ctx, origin)
	})
	return err
}

// newToken returns a random lease name, unique across a fleet.
func newToken() string {
	var b [16]byte
	crand.Read(b[:]) // never fails
	return hex.EncodeToString(b[:])
}
