package redisstore

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// clock is a fake clock for fetch.Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

const day = 24 * time.Hour

// TestRulesAcrossCaches checks expiry, stale-on-error and the 30-day rule
// of RFC 9309 for three caches that share nothing but Redis, as three
// processes would: each has its own client and its own fake clock, all moved
// together. The fleet must answer as one cache would, and fetch as often.
func TestRulesAcrossCaches(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	var clocks []*clock
	var caches []*fetch.Cache
	for range 3 {
		clk := &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
		clocks = append(clocks, clk)
		caches = append(caches, fetch.NewCache(&fetch.Options{
			Client: o.client(t), Store: New(r.client(t), "clock:"), Now: clk.Now,
		}))
	}
	type answer struct {
		status int
		body   string
	}
	steps := []struct {
		advance time.Duration
		set     *answer // the origins' answer from this step on, when not nil
		cache   int
		url     string
		allowed bool
		source  fetch.Source
		fetches int // of the URL's host, after the step
		reason  string
	}{
		{0, &answer{200, disallowX}, 0, "http://a.test/x", false, fetch.Fresh, 1, "cache 0 fetches"},
		{0, nil, 1, "http://a.test/x", false, fetch.Fresh, 1, "cache 1 takes the file from Redis"},
		{23 * time.Hour, nil, 2, "http://a.test/y", true, fetch.Fresh, 1, "cache 2 too, 23 hours later: still fresh (24h TTL)"},
		{time.Hour, &answer{200, ""}, 1, "http://a.test/x", true, fetch.Fresh, 2, "at 24 hours cache 1 fetches the new, empty file"},
		{0, nil, 0, "http://a.test/x", true, fetch.Fresh, 2, "cache 0's copy expired too: it takes the new file from Redis"},
		{day, &answer{503, ""}, 2, "http://a.test/x", true, fetch.Stale, 3, "RFC 9309 §2.3.1.4: the refresh fails, the last good copy is used"},
		{0, nil, 0, "http://a.test/x", true, fetch.Stale, 3, "cache 0 finds the failure in Redis, with the good copy: no fetch"},
		{5 * time.Minute, nil, 1, "http://a.test/x", true, fetch.Stale, 4, "after the 5-minute retry interval cache 1 tries again"},
		{40 * day, nil, 2, "http://a.test/x", true, fetch.Stale, 5, "past 30 days the good copy still counts"},

		{0, &answer{503, ""}, 0, "http://b.test/y", false, fetch.Unreachable, 1, "unreachable with no copy: everything disallowed"},
		{15 * day, nil, 1, "http://b.test/y", false, fetch.Unreachable, 2, "15 days in, still disallowed"},
		{15 * day, nil, 2, "http://b.test/y", false, fetch.Unreachable, 3, "30 days since cache 0's first failure: not more than 30"},
		{time.Minute, nil, 0, "http://b.test/y", true, fetch.GaveUp, 3, "more than 30 days since cache 0's first failure: everything allowed, on cache 2's result"},
		{5 * time.Minute, nil, 0, "http://b.test/y", true, fetch.GaveUp, 4, "still retried every 5 minutes"},
		{0, nil, 1, "http://b.test/y", true, fetch.GaveUp, 4, "for cache 1 too, from Redis"},
	}
	for i, st := range steps {
		for _, clk := range clocks {
			clk.advance(st.advance)
		}
		if st.set != nil {
			o.set(st.set.status, st.set.body, 0)
		}
		d, err := caches[st.cache].For("Foobot").Decide(context.Background(), st.url)
		// Unreachable with no good copy is no answer yet: a RetryError,
		// with the Decision filled in all the same.
		if st.source == fetch.Unreachable && !errors.Is(err, fetch.ErrRetryLater) || st.source != fetch.Unreachable && err != nil {
			t.Fatalf("step %d: %v (%s)", i, err, st.reason)
		}
		h := st.url[len("http://"):len("http://a.test")]
		if d.Allowed != st.allowed || d.Source != st.source || o.count(h) != st.fetches {
			t.Errorf("step %d (cache %d, +%v, %s): %v, %v, %d fetches; want %v, %v, %d (%s)",
				i, st.cache, st.advance, st.url, d.Allowed, d.Source, o.count(h), st.allowed, st.source, st.fetches, st.reason)
		}
		for _, c := range caches {
			idleCache(c) // the next step's cache sees this one's save
		}
	}
}
