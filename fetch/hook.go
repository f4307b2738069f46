package fetch

import (
	"context"
	"errors"
	"strings"
	"time"
)

// A FetchEvent tells what one refresh of an origin's rules did: a refresh
// happens when a question finds the origin missing or expired, and many
// questions at once share one. [Options].OnFetch receives one per refresh,
// for logs and metrics.
//
// The hook runs on the goroutine that did the refresh, after the questions
// waiting for it have their answer and after the Store has been written.
// It may be called concurrently for different origins, and should return
// quickly: until it does, a Store lease taken for the refresh may be held.
type FetchEvent struct {
	// Origin is the origin refreshed, as in scheme://host[:port].
	Origin string

	// Result is the latest result for the origin now: the fetch this cache
	// made when Fetched is true, else the one it took from the Store.
	Result *Result

	// Fetched reports whether this cache fetched the robots.txt itself.
	// False means another cache sharing the Store had fetched it.
	Fetched bool

	// Source tells where the rules in effect now come from.
	Source Source

	// Waited is how long the refresh waited for another cache that held the
	// Store's lease on the origin, or 0.
	Waited time.Duration

	// StoreErr is nil, or a *StoreError: the Store's failure met by the
	// refresh, else a value in the Store that did not load (Op "decode").
	// When the Store failed, the cache did without it from then on.
	StoreErr error
}

// Stats are a cache's counters since it was created, as [Cache.Stats]
// returns them.
type Stats struct {
	// Hits counts questions answered by the in-process tier, Misses the
	// others: they found their origin missing or expired and waited for a
	// refresh (or gave up waiting).
	Hits, Misses uint64
	// Fetches counts the robots.txt fetches this cache made.
	Fetches uint64
	// Evictions counts origins dropped to stay within Options.MaxEntries.
	Evictions uint64
	// InFlight is the number of refreshes under way, from the first
	// question that misses until the result is saved and OnFetch has
	// returned, and Entries the number of origins held.
	InFlight, Entries int

	// StoreHits counts refreshes that took a fresh result from the Store,
	// fetched by another cache, instead of fetching.
	StoreHits uint64
	// StoreWaits counts refreshes that waited for another cache holding
	// the Store's lease on their origin.
	StoreWaits uint64
	// StoreErrors counts refreshes (and calls to Forget) that met a failing
	// Store, or did without it because it had failed within StoreRetry.
	StoreErrors uint64
	// StoreCorrupt counts refreshes that found a value in the Store that
	// did not load: another program's, another version's, or damaged. The
	// refresh fetched, and its save replaced the value.
	StoreCorrupt uint64
}

// counts are the counters kept under Cache.mu; Stats adds the gauges.
type counts struct {
	hits, misses, fetches, evictions           uint64
	storeHits, storeWaits, storeErrs, corrupts uint64
}

// Stats returns the cache's counters.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.counts
	return Stats{
		Hits:         n.hits,
		Misses:       n.misses,
		Fetches:      n.fetches,
		Evictions:    n.evictions,
		InFlight:     c.refreshing,
		Entries:      c.lru.Len(),
		StoreHits:    n.storeHits,
		StoreWaits:   n.storeWaits,
		StoreErrors:  n.storeErrs,
		StoreCorrupt: n.corrupts,
	}
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
	if errors.As(ev.StoreErr, &se) && se.Op != "decode" {
		c.counts.storeErrs++
	}
	c.mu.Unlock()
	if c.onFetch != nil {
		ev.Source = c.rules(st, c.f.now()).Source
		c.onFetch(ev)
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
	if c.store == nil {
		return nil
	}
	if err := c.storeReady(); err != nil {
		c.countStoreError()
		return err
	}
	// The caller giving up is not the Store failing: StoreTimeout bounds
	// the call instead.
	_, err = storeCall(c, context.WithoutCancel(ctx), "delete", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.store.Delete(ctx, origin)
	})
	if err != nil {
		c.countStoreError()
	}
	return err
}

func (c *Cache) countStoreError() {
	c.mu.Lock()
	c.counts.storeErrs++
	c.mu.Unlock()
}

// ErrNoResult is returned by [Cache.Put] for a nil Result or one without
// Robots.
var ErrNoResult = errors.New("robotstxt: no result to put: a nil Result or nil Robots")

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
// The error is ErrNoResult, or a *robotstxt.URLError when res.RobotsURL is
// not an absolute http or https URL.
func (c *Cache) Put(res *Result) error {
	if res == nil || res.Robots == nil {
		return ErrNoResult
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
