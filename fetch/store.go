package fetch

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/lease"
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
	defaultStoreTimeout = 250 * time.Millisecond
	defaultStoreRetry   = 5 * time.Second
	// defaultLeaseTTL plus twice StoreTimeout is the default LeaseTTL:
	// long enough that a renewal which fails once, or lands late, does
	// not lose the lease; short, since it is what a holder that died
	// costs the others.
	defaultLeaseTTL = 2 * time.Second
)

// shared is a cache's Store, run by the lease protocol, and the counters
// of Stats about it.
type shared struct {
	lease *lease.Protocol[state] // nil when there is no Store

	storeErrs atomic.Uint64
	refused   [numReasons]atomic.Uint64
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
	storeTimeout := orDefault(o.StoreTimeout, defaultStoreTimeout)
	s.lease = lease.New[state](leaseStore{o.Store},
		codec{lease.Binding{Agent: grammar.LowerString(agent), Key: bytes.Clone(o.StoreKey)}},
		lease.Config{
			Timeout:         timeout,
			StoreTimeout:    storeTimeout,
			LeaseTTL:        orDefault(o.LeaseTTL, defaultLeaseTTL+2*storeTimeout),
			Keep:            orDefault(o.StoreKeep, giveUpAfter),
			Retry:           orDefault(o.StoreRetry, defaultStoreRetry),
			Now:             now,
			TooLarge:        ErrValueTooLarge,
			TooLargeRefusal: errEntryTooLarge,
			Refused:         s.countRefused,
		})
}

// leaseStore is a Store as the lease protocol calls it.
type leaseStore struct{ Store }

func (s leaseStore) Lease(ctx context.Context, origin, token string, ttl time.Duration) (lease.Lease, error) {
	l, err := s.Store.Lease(ctx, origin, token, ttl)
	return lease.Lease(l), err
}

// codec reads and writes an origin's history as a value of the Store,
// bound to the origin, the crawler and the fleet's key (see encodeState).
type codec struct{ bind lease.Binding }

func (c codec) Decode(v []byte, origin string) (state, error) {
	b := c.bind
	b.Origin = origin
	return decodeState(v, b)
}

func (c codec) Encode(st state, origin string) ([]byte, error) {
	b := c.bind
	b.Origin = origin
	return encodeState(st, b)
}

func (codec) Fresh(st state, now time.Time) bool { return now.Before(st.latest.Expires) }
func (codec) Newer(st, t state) bool             { return st.newer(t) }
func (codec) Expires(st state) time.Time         { return st.latest.Expires }

// storeError is err, an error of the lease protocol, as a *StoreError.
func storeError(err error) error {
	if e, ok := err.(*lease.Error); ok {
		return &StoreError{Op: e.Op, Err: e.Err}
	}
	return err
}

// countRefused counts a value refused for reason.
func (s *shared) countRefused(reason error) {
	i := refusedDamaged
	switch {
	case errors.Is(reason, lease.ErrFormat):
		i = refusedFormat
	case errors.Is(reason, lease.ErrSeal):
		i = refusedSeal
	case errors.Is(reason, lease.ErrOrigin):
		i = refusedOrigin
	case errors.Is(reason, lease.ErrAgent):
		i = refusedAgent
	case errors.Is(reason, errEntryTooLarge):
		i = refusedTooLarge
	}
	s.refused[i].Add(1)
}

// refusedTotal returns the number of values refused, for every reason.
func (s *shared) refusedTotal() uint64 {
	var n uint64
	for i := range s.refused {
		n += s.refused[i].Load()
	}
	return n
}

// gaveUp and takenOver return the protocol's counters; 0 without a Store.
func (s *shared) gaveUp() uint64 {
	if s.lease == nil {
		return 0
	}
	return s.lease.GaveUp()
}

func (s *shared) takenOver() uint64 {
	if s.lease == nil {
		return 0
	}
	return s.lease.TakenOver()
}

// forget deletes origin's value from the Store, bounded by StoreTimeout
// rather than by ctx, and counts a failure.
func (s *shared) forget(ctx context.Context, origin string) error {
	if err := s.lease.Forget(ctx, origin); err != nil {
		s.storeErrs.Add(1)
		return storeError(err)
	}
	return nil
}

// newer reports whether s holds a later fetch than t.
func (s state) newer(t state) bool {
	return s.latest != nil && (t.latest == nil || s.latest.Fetched.After(t.latest.Fetched))
}
