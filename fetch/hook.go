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

	// Scheme ("http" or "https"), Host and Port are the origin's parts:
	// Host as in the URL but without the brackets of an IPv6 address, and
	// Port the port asked, 80 or 443 when the URL names none.
	Scheme string
	Host   string
	Port   int

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
	// they refused: StoreRefused tells why. The refresh fetched, and its
	// save replaced the value.
	StoreCorrupt uint64
	// StoreRefused counts the refused values by reason.
	StoreRefused struct {
		// Format counts values that are not a robots.txt history of this
		// format version: another program's, or another version's.
		Format uint64
		// Damaged counts values that fail their checksum or do not parse.
		Damaged uint64
		// Seal counts values not sealed with Options.StoreKey: forged, or
		// sealed with another key, or with none where one is set (or one
		// where none is).
		Seal uint64
		// Origin counts values of another origin than their key's.
		Origin uint64
		// Agent counts values fetched for another crawler (Options.Agent).
		Agent uint64
		// TooLarge counts values longer than MaxStoreValue, refused unread.
		TooLarge uint64
	}
	// StoreGaveUp counts refreshes that waited for other caches' leases
	// and then fetched without the lease (see [Store] for when).
	StoreGaveUp uint64
	// StoreTakenOver counts leases this cache took after waiting for
	// another holder whose lease ran out without a value: most likely the
	// holder died.
	StoreTakenOver uint64
}

// counts are the counters kept under Cache.mu; Stats adds the gauges and
// the Store's counters.
type counts struct {
	hits, misses, fetches, evictions uint64
	storeHits, storeWaits            uint64
}
