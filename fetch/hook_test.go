package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/lease"
)

// TestOnFetch checks that the hook sees every refresh, and only those.
func TestOnFetch(t *testing.T) {
	s, srv := newSite(t, disallowX)
	clk := newClock()
	var evs events
	c := NewCache(&Options{Client: srv.Client(), Now: clk.Now, OnFetch: evs.add})
	tests := []struct {
		advance time.Duration
		set     func(*site)
		events  int
		source  Source
		status  int
		reason  string
	}{
		{0, nil, 1, Fresh, 200, "the first question fetches: one event"},
		{time.Hour, nil, 1, Fresh, 200, "a hit: no event"},
		{defaultTTL, answer(503, "", ""), 2, Stale, 503, "an expired entry is refreshed: the event tells the fetch and the rules now in effect"},
		{defaultRetryTTL, answer(404, "", ""), 3, Fresh, 404, "and again after the retry interval"},
	}
	for i, tt := range tests {
		clk.Advance(tt.advance)
		if tt.set != nil {
			tt.set(s)
		}
		if _, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x"); err != nil {
			t.Fatal(err)
		}
		idle(t, c)
		evs.mu.Lock()
		n := len(evs.list)
		evs.mu.Unlock()
		if n != tt.events {
			t.Errorf("row %d: %d events, want %d (%s)", i, n, tt.events, tt.reason)
			continue
		}
		ev := evs.last(t, c)
		if ev.Origin != srv.URL || !ev.Fetched || ev.Source != tt.source || ev.Result.StatusCode != tt.status || ev.StoreErr != nil || ev.Waited != 0 {
			t.Errorf("row %d: event %+v; want a fetch of %s giving %d, %v (%s)", i, ev, srv.URL, tt.status, tt.source, tt.reason)
		}
	}
}

// TestStats checks each counter.
func TestStats(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Host == "slow.test" {
			<-release
		}
		io.WriteString(w, disallowX)
	})
	client := hostRouter(srv)
	defer client.CloseIdleConnections()
	c := NewCache(&Options{Client: client, MaxEntries: 2, Now: newClock().Now})
	ask := func(host string) {
		t.Helper()
		if _, err := c.For("Foobot").Allowed(context.Background(), "http://"+host+"/x"); err != nil {
			t.Fatal(err)
		}
	}
	ask("a.test")
	ask("a.test")
	ask("a.test")
	ask("b.test")
	ask("c.test") // evicts a.test
	idle(t, c)    // a refresh stays in flight until its hook has run, after its callers are answered
	want := Stats{Hits: 2, Misses: 3, Fetches: 3, Evictions: 1, Entries: 2}
	if got := c.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	var wg sync.WaitGroup
	wg.Go(func() { ask("slow.test") })
	for c.Stats().Misses != 4 {
		time.Sleep(time.Millisecond)
	}
	if got := c.Stats(); got.InFlight != 1 {
		t.Errorf("during a fetch: InFlight = %d, want 1", got.InFlight)
	}
	close(release)
	wg.Wait()
	idle(t, c)
	if got := c.Stats(); got.InFlight != 0 || got.Fetches != 4 || got.Evictions != 2 {
		t.Errorf("after it: %+v; want nothing in flight, 4 fetches, 2 evictions", got)
	}
}

func TestForget(t *testing.T) {
	s, srv := newSite(t, disallowX)
	store := newMemStore()
	c := NewCache(&Options{Client: srv.Client(), Store: store, StoreRetry: time.Nanosecond})
	other := NewCache(&Options{Client: srv.Client(), Store: store})
	ctx := context.Background()
	if _, err := c.For("Foobot").Allowed(ctx, srv.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	idle(t, c)
	if err := c.Forget(ctx, srv.URL+"/any/path"); err != nil {
		t.Fatalf("Forget: %v", err)
	}
	if c.Len() != 0 || store.value(srv.URL) != nil {
		t.Errorf("after Forget: %d entries, stored value %v; want both gone", c.Len(), store.value(srv.URL) != nil)
	}
	if _, err := other.For("Foobot").Allowed(ctx, srv.URL+"/x"); err != nil || s.fetches.Load() != 2 {
		t.Errorf("another cache after Forget: %v, %d fetches; want a new fetch", err, s.fetches.Load())
	}
	if err := c.Forget(ctx, "/relative"); !errors.Is(err, robotstxt.ErrRelativeURL) {
		t.Errorf("Forget of a relative URL: %v, want ErrRelativeURL", err)
	}
	if _, err := c.For("Foobot").Allowed(ctx, srv.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	idle(t, c)
	store.set(errors.New("down"), 0)
	if err := c.Forget(ctx, srv.URL); storeOp(err) != "delete" || c.Len() != 0 {
		t.Errorf("Forget with the store down: %v, %d entries; want a delete error, the entry dropped", err, c.Len())
	}
	if n := c.Stats().StoreErrors; n != 1 {
		t.Errorf("StoreErrors = %d, want 1", n)
	}
}

func TestPut(t *testing.T) {
	s, srv := newSite(t, "User-agent: *\nDisallow: /y\n")
	clk := newClock()
	c := NewCache(&Options{Client: srv.Client(), Now: clk.Now})
	ctx := context.Background()
	known := &Result{RobotsURL: srv.URL + "/robots.txt", StatusCode: 200, Robots: robotsOf(200, disallowX)}
	if err := c.Put(known); err != nil {
		t.Fatal(err)
	}
	d, err := c.For("Foobot").Decide(ctx, srv.URL+"/x")
	if err != nil || d.Allowed || d.Source != Fresh || s.fetches.Load() != 0 {
		t.Fatalf("after Put: %+v, %v, %d fetches; want the put rules, no fetch", d.Decision, err, s.fetches.Load())
	}
	if want := clk.Now().Add(defaultTTL); !d.Result.Expires.Equal(want) || d.Result == known {
		t.Errorf("Put kept %+v; want a copy expiring at now+defaultTTL (%v)", d.Result, want)
	}
	older := *known
	older.Fetched, older.Robots = clk.Now().Add(-time.Hour), robotsOf(404, "")
	if err := c.Put(&older); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.For("Foobot").Allowed(ctx, srv.URL+"/x"); ok {
		t.Errorf("an older result replaced a newer one")
	}
	down := &Result{RobotsURL: srv.URL + "/robots.txt", StatusCode: 503, Robots: robotsOf(503, "")}
	if err := c.Put(down); err != nil {
		t.Fatal(err)
	}
	if d, _ := c.For("Foobot").Decide(ctx, srv.URL+"/x"); d.Allowed || d.Source != Stale || !d.Latest.Expires.Equal(clk.Now().Add(defaultRetryTTL)) {
		t.Errorf("after putting an unreachable result: %v, %v, expires %v; want the good copy, Stale, for the retry interval", d.Allowed, d.Source, d.Latest.Expires)
	}
	dated := &Result{RobotsURL: "http://dated.test/robots.txt", Robots: robotsOf(404, ""), Fetched: clk.Now(), Expires: clk.Now().Add(time.Hour)}
	if err := c.Put(dated); err != nil {
		t.Fatal(err)
	}
	if r, err := c.File(ctx, "http://dated.test/"); err != nil || r.Result.TTL != time.Hour || !r.Result.Expires.Equal(dated.Expires) {
		t.Errorf("Put with Expires and no TTL kept %+v, %v; want TTL = Expires-Fetched = 1h", r.Result, err)
	}
	for _, tt := range []struct {
		res  *Result
		want error
	}{
		{nil, errNoResult},
		{&Result{RobotsURL: srv.URL + "/robots.txt"}, errNoResult},
		{&Result{RobotsURL: "ftp://example.com/robots.txt", Robots: robotsOf(404, "")}, ErrUnsupportedScheme},
	} {
		if err := c.Put(tt.res); !errors.Is(err, tt.want) {
			t.Errorf("Put(%+v) = %v, want %v", tt.res, err, tt.want)
		}
	}
}

// TestPutThenStore checks that a result put into a cache with a Store is
// the history its next fetch builds on, and that Put leaves the Store alone.
func TestPutThenStore(t *testing.T) {
	s, srv := newSite(t, disallowX)
	clk := newClock()
	store := newMemStore()
	c := NewCache(&Options{Client: srv.Client(), Now: clk.Now, Store: store})
	if err := c.Put(&Result{RobotsURL: srv.URL + "/robots.txt", Robots: robotsOf(200, "User-agent: *\nDisallow: /y\n")}); err != nil {
		t.Fatal(err)
	}
	if store.calls.Load() != 0 {
		t.Errorf("Put called the store %d times", store.calls.Load())
	}
	clk.Advance(defaultTTL)
	s.set(503, "", "")
	d, err := c.For("Foobot").Decide(context.Background(), srv.URL+"/y")
	if err != nil || d.Allowed || d.Source != Stale {
		t.Errorf("refresh failing after Put: %v, %v, %v; want the put copy, Stale", d.Allowed, d.Source, err)
	}
	idle(t, c)
	st, err := decodeState(store.value(srv.URL), lease.Binding{Origin: srv.URL})
	if err != nil || st.good == nil || st.good.Robots.Allowed("Foobot", "/y") {
		t.Errorf("stored history %v, %v; want the put result as its good copy", st, err)
	}
}

// TestCacheOpsConcurrent mixes questions, Forget, Put and Stats from many
// goroutines over thousands of origins, under the race detector in CI, and
// checks that the counters add up.
func TestCacheOpsConcurrent(t *testing.T) {
	const goroutines, ops, origins, maxEntries = 100, 200, 2000, 500
	var served atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		io.WriteString(w, disallowX)
	})
	client := hostRouter(srv)
	defer client.CloseIdleConnections()
	var fetched, events atomic.Int64
	c := NewCache(&Options{Client: client, MaxEntries: maxEntries, Now: newClock().Now, OnFetch: func(ev FetchEvent) {
		events.Add(1)
		if ev.Fetched {
			fetched.Add(1)
		}
	}})
	ctx := context.Background()
	var asked, wrong atomic.Int64
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range ops {
				origin := fmt.Sprintf("http://h%d.test", (g*ops+i*7)%origins)
				switch i % 10 {
				case 0:
					if err := c.Forget(ctx, origin); err != nil {
						wrong.Add(1)
					}
				case 1:
					if err := c.Put(&Result{RobotsURL: origin + "/robots.txt", Robots: robotsOf(200, disallowX)}); err != nil {
						wrong.Add(1)
					}
				case 2:
					if st := c.Stats(); st.Entries > maxEntries || st.InFlight < 0 {
						wrong.Add(1)
					}
				default:
					asked.Add(1)
					if ok, err := c.For("Foobot").Allowed(ctx, origin+"/x"); ok || err != nil {
						wrong.Add(1)
					}
				}
			}
		})
	}
	wg.Wait()
	idle(t, c)
	st := c.Stats()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d operations failed or answered wrongly", n)
	}
	if st.Hits+st.Misses != uint64(asked.Load()) {
		t.Errorf("hits %d + misses %d != %d questions", st.Hits, st.Misses, asked.Load())
	}
	if st.Fetches != uint64(served.Load()) || st.Fetches != uint64(fetched.Load()) || events.Load() != fetched.Load() {
		t.Errorf("Fetches %d, server saw %d, OnFetch saw %d fetches in %d events; want all equal",
			st.Fetches, served.Load(), fetched.Load(), events.Load())
	}
	if st.Entries > maxEntries || st.Evictions == 0 || st.InFlight != 0 {
		t.Errorf("Stats = %+v; want at most %d entries, some evictions, nothing in flight", st, maxEntries)
	}
}
