package fetch

import "time"

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

// counts are the counters kept under Cache.mu; Stats adds the gauges and
// the Store's counters.
type counts struct {
	hits, misses, fetches, evictions uint64
	storeHits, storeWaits            uint64
}
