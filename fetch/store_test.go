package fetch

import (
	"context"
	"errors"
	"fmt"
	"github.com/robotstxt-go/robotstxt/internal/lease"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// memStore is a Store in memory. Leases run out in real time; values are
// kept whatever their ttl, since expiry is the cache's business. A test can
// make every call fail, or sleep first without heeding its context.
type memStore struct {
	mu      sync.Mutex
	values  map[string][]byte
	leases  map[string]memLease
	saveTTL map[string]time.Duration // the ttl of each origin's last save
	fail    error
	delay   time.Duration
	calls   atomic.Int32
}

type memLease struct {
	token string
	until time.Time
}

func newMemStore() *memStore {
	return &memStore{
		values:  map[string][]byte{},
		leases:  map[string]memLease{},
		saveTTL: map[string]time.Duration{},
	}
}

// enter counts a call, sleeps for the delay and returns the set failure.
func (m *memStore) enter() error {
	m.calls.Add(1)
	m.mu.Lock()
	delay, fail := m.delay, m.fail
	m.mu.Unlock()
	time.Sleep(delay)
	return fail
}

func (m *memStore) set(fail error, delay time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fail, m.delay = fail, delay
}

func (m *memStore) value(origin string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.values[origin]
}

func (m *memStore) ttl(origin string) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saveTTL[origin]
}

func (m *memStore) leased() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.leases)
}

// idle waits until the caches have finished their refreshes, saves to the
// Store included.
func idle(t *testing.T, cs ...*Cache) {
	t.Helper()
	for _, c := range cs {
		for deadline := time.Now().Add(5 * time.Second); c.Stats().InFlight != 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("refreshes still under way after 5s: %+v", c.Stats())
			}
		}
	}
}

func (m *memStore) put(origin string, v []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values[origin] = v
}

func (m *memStore) Load(ctx context.Context, origin string) ([]byte, error) {
	if err := m.enter(); err != nil {
		return nil, err
	}
	return m.value(origin), nil
}

func (m *memStore) Lease(ctx context.Context, origin, token string, ttl time.Duration) (Lease, error) {
	if err := m.enter(); err != nil {
		return Lease{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	l, ok := m.leases[origin]
	if !ok || !now.Before(l.until) || l.token == token {
		l = memLease{token, now.Add(ttl)}
		m.leases[origin] = l
	}
	return Lease{Holder: l.token, Left: l.until.Sub(now), Value: m.values[origin]}, nil
}

func (m *memStore) Save(ctx context.Context, origin, token string, value []byte, ttl time.Duration) error {
	if err := m.enter(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values[origin] = value
	m.saveTTL[origin] = ttl
	if l, ok := m.leases[origin]; ok && token != "" && l.token == token {
		delete(m.leases, origin)
	}
	return nil
}

func (m *memStore) Release(ctx context.Context, origin, token string) error {
	if err := m.enter(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[origin]; ok && l.token == token {
		delete(m.leases, origin)
	}
	return nil
}

func (m *memStore) Delete(ctx context.Context, origin string) error {
	if err := m.enter(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.values, origin)
	return nil
}

// events collects what OnFetch receives.
type events struct {
	mu   sync.Mutex
	list []FetchEvent
}

func (e *events) add(ev FetchEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, ev)
}

// last returns the latest event, once the caches are idle.
func (e *events) last(t *testing.T, cs ...*Cache) FetchEvent {
	t.Helper()
	idle(t, cs...)
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.list) == 0 {
		t.Fatal("OnFetch was never called")
	}
	return e.list[len(e.list)-1]
}

// storeOp returns the Op of err when it is a *StoreError, else "".
func storeOp(err error) string {
	var se *StoreError
	if errors.As(err, &se) {
		return se.Op
	}
	return ""
}

// runSharedSteps asks the questions of steps in turn of n caches that share
// a Store and nothing else: each has its own clock, all moved together. The
// fleet must fetch no more than one cache would, and answer the same.
func runSharedSteps(t *testing.T, o *Options, steps []step, n int) {
	t.Helper()
	s, srv := newSite(t, disallowX)
	store := newMemStore()
	var clocks []*clock
	var caches []*Cache
	for range n {
		clk := newClock()
		oo := *o
		oo.Client, oo.Now, oo.Store = srv.Client(), clk.Now, store
		clocks = append(clocks, clk)
		caches = append(caches, NewCache(&oo))
	}
	for i, st := range steps {
		for _, clk := range clocks {
			clk.Advance(st.advance)
		}
		if st.set != nil {
			st.set(s)
		}
		d, err := caches[i%n].For("Foobot").Decide(context.Background(), srv.URL+st.path)
		if err := stepErr(st, err); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if d.Allowed != st.allowed || d.Source != st.source || s.fetches.Load() != st.fetches {
			t.Errorf("step %d (cache %d, +%v, %s): allowed %v, source %v, fetches %d; want %v, %v, %d (%s)",
				i, i%n, st.advance, st.path, d.Allowed, d.Source, s.fetches.Load(), st.allowed, st.source, st.fetches, st.reason)
		}
	}
}

// TestStoreSteps runs the expiry tables of cache_test.go across caches
// sharing a Store: expiry, max-age, stale-on-error and the 30-day rule hold
// for the fleet as for one cache.
func TestStoreSteps(t *testing.T) {
	tests := []struct {
		name  string
		o     Options
		steps []step
	}{
		{"expiry", Options{}, expirySteps},
		{"max-age", Options{MaxTTL: 48 * time.Hour}, maxAgeSteps},
		{"stale-on-error", Options{RetryTTL: 10 * time.Minute}, staleSteps},
		{"30 days", Options{}, thirtyDaySteps},
		{"failure run restarts", Options{}, restartSteps},
	}
	for _, tt := range tests {
		for _, n := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/%d caches", tt.name, n), func(t *testing.T) {
				runSharedSteps(t, &tt.o, tt.steps, n)
			})
		}
	}
}

// TestStoreOneFetchPerOrigin checks that caches sharing a Store, asked about
// the same origins by many goroutines at once, fetch each origin once.
func TestStoreOneFetchPerOrigin(t *testing.T) {
	const caches, goroutines, origins = 4, 20, 100
	var mu sync.Mutex
	fetches := map[string]int{}
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetches[r.Host]++
		mu.Unlock()
		time.Sleep(time.Millisecond)
		io.WriteString(w, disallowX)
	})
	client := hostRouter(srv)
	defer client.CloseIdleConnections()
	store := newMemStore()
	var cs []*Cache
	for range caches {
		// A loaded machine under the race detector may be slow: this test
		// is about sharing, TestStoreSlow about timeouts.
		cs = append(cs, NewCache(&Options{Client: client, Store: store, Now: newClock().Now, StoreTimeout: 5 * time.Second}))
	}
	var wg sync.WaitGroup
	var wrong atomic.Int32
	for i := range caches * goroutines {
		wg.Go(func() {
			for j := range origins {
				o := (j + i*7) % origins // each goroutine in its own order
				ok, err := cs[i%caches].For("Foobot").Allowed(context.Background(), fmt.Sprintf("http://o%d.test/x", o))
				if ok || err != nil {
					wrong.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d questions got a wrong answer or an error", n)
	}
	for o := range origins {
		if n := fetches[fmt.Sprintf("o%d.test", o)]; n != 1 {
			t.Errorf("o%d.test fetched %d times by %d caches, want 1", o, n, caches)
		}
	}
	var total Stats
	for _, c := range cs {
		s := c.Stats()
		total.Fetches += s.Fetches
		total.StoreHits += s.StoreHits
		total.StoreErrors += s.StoreErrors
	}
	if total.Fetches != origins || total.StoreHits != (caches-1)*origins || total.StoreErrors != 0 {
		t.Errorf("fleet stats: %d fetches, %d store hits, %d store errors; want %d, %d, 0",
			total.Fetches, total.StoreHits, total.StoreErrors, origins, (caches-1)*origins)
	}
}

// TestStoreDown checks that a failing Store fails no question, that the
// cache rests it for StoreRetry for the origin that met the failure, and
// for every origin after three failures in a row, and uses it again after.
func TestStoreDown(t *testing.T) {
	s, srv := newSite(t, disallowX)
	client := hostRouter(srv)
	defer client.CloseIdleConnections()
	store := newMemStore()
	var evs events
	c := NewCache(&Options{Client: client, Store: store, StoreRetry: 100 * time.Millisecond, OnFetch: evs.add})
	down := errors.New("connection refused")
	store.set(down, 0)
	ask := func(host string) FetchEvent {
		t.Helper()
		ok, err := c.For("Foobot").Allowed(context.Background(), "http://"+host+"/x")
		if ok || err != nil {
			t.Fatalf("%s: Allowed = %v, %v; want false, nil", host, ok, err)
		}
		return evs.last(t, c)
	}
	if ev := ask("a.test"); storeOp(ev.StoreErr) != "load" || !errors.Is(ev.StoreErr, down) || !ev.Fetched {
		t.Errorf("store down: event %+v; want a load error and a local fetch", ev)
	}
	if err := c.Forget(context.Background(), "http://a.test/"); storeOp(err) != "skip" || store.calls.Load() != 1 {
		t.Errorf("a.test within StoreRetry: Forget = %v after %d store calls; want a skip, no new call", err, store.calls.Load())
	}
	for i, host := range []string{"b.test", "c.test"} {
		if ev := ask(host); storeOp(ev.StoreErr) != "load" || store.calls.Load() != int32(2+i) {
			t.Errorf("%s: event %+v after %d store calls; want the store called for another origin", host, ev, store.calls.Load())
		}
	}
	if ev := ask("d.test"); storeOp(ev.StoreErr) != "skip" || !errors.Is(ev.StoreErr, down) || store.calls.Load() != 3 {
		t.Errorf("after three failures in a row: event %+v, %d store calls; want a skip and no new call", ev, store.calls.Load())
	}
	store.set(nil, 0)
	time.Sleep(150 * time.Millisecond)
	ev := ask("e.test")
	idle(t, c)
	if ev.StoreErr != nil || store.value("http://e.test") == nil {
		t.Errorf("after StoreRetry: event %+v; want the store used and written", ev)
	}
	if st := c.Stats(); st.StoreErrors != 5 || st.Fetches != 5 {
		t.Errorf("Stats = %+v; want 5 store errors, 5 fetches", st)
	}
	other := NewCache(&Options{Client: client, Store: store})
	if ok, err := other.For("Foobot").Allowed(context.Background(), "http://e.test/x"); ok || err != nil || s.fetches.Load() != 5 {
		t.Errorf("another cache: %v, %v after %d fetches; want the stored rules, no fetch", ok, err, s.fetches.Load())
	}
}

// badOrigin is a Store whose every call about one origin fails.
type badOrigin struct {
	*memStore
	bad string
}

var errBadOrigin = errors.New("slot moved")

func (b badOrigin) Load(ctx context.Context, origin string) ([]byte, error) {
	if origin == b.bad {
		return nil, errBadOrigin
	}
	return b.memStore.Load(ctx, origin)
}

func (b badOrigin) Lease(ctx context.Context, origin, token string, ttl time.Duration) (Lease, error) {
	if origin == b.bad {
		return Lease{}, errBadOrigin
	}
	return b.memStore.Lease(ctx, origin, token, ttl)
}

// TestStoreOneOriginFailing checks that calls failing for one origin do
// not switch sharing off for the others (issue: a huge or slow value under
// one key rested the Store for every origin of the cache).
func TestStoreOneOriginFailing(t *testing.T) {
	s, srv := newSite(t, disallowX)
	client := hostRouter(srv)
	defer client.CloseIdleConnections()
	store := badOrigin{newMemStore(), "http://bad.test"}
	a := NewCache(&Options{Client: client, Store: store})
	b := NewCache(&Options{Client: client, Store: store})
	ctx := context.Background()
	for _, c := range []*Cache{a, b} {
		for i := range 6 {
			host := "bad.test"
			if i > 0 {
				host = fmt.Sprintf("good%d.test", i)
			}
			if ok, err := c.For("Foobot").Allowed(ctx, "http://"+host+"/x"); ok || err != nil {
				t.Fatalf("%s: %v, %v", host, ok, err)
			}
			idle(t, c)
		}
	}
	if n := s.fetches.Load(); n != 7 {
		t.Errorf("%d fetches; want 7: bad.test by each cache, the 5 others once", n)
	}
	for i, c := range []*Cache{a, b} {
		if st := c.Stats(); st.StoreErrors != 1 {
			t.Errorf("cache %d: %d store errors; want 1", i, st.StoreErrors)
		}
	}
}

// TestStoreSlow checks that a Store slower than StoreTimeout, even one that
// ignores its context, delays a question by no more than StoreTimeout.
func TestStoreSlow(t *testing.T) {
	_, srv := newSite(t, disallowX)
	store := newMemStore()
	store.set(nil, 400*time.Millisecond)
	var evs events
	c := NewCache(&Options{Client: srv.Client(), Store: store, StoreTimeout: 20 * time.Millisecond, OnFetch: evs.add})
	start := time.Now()
	ok, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x")
	elapsed := time.Since(start)
	if ok || err != nil {
		t.Fatalf("Allowed = %v, %v", ok, err)
	}
	if elapsed > 250*time.Millisecond {
		t.Errorf("question took %v with a 20ms StoreTimeout and a 400ms store", elapsed)
	}
	if ev := evs.last(t, c); storeOp(ev.StoreErr) != "load" || !errors.Is(ev.StoreErr, context.DeadlineExceeded) {
		t.Errorf("StoreErr = %v; want a load deadline", ev.StoreErr)
	}
}

// TestStoreCorruptValue checks that a value that does not load is ignored,
// the origin fetched, and the value replaced.
func TestStoreCorruptValue(t *testing.T) {
	good := func(t *testing.T, origin string) []byte {
		st := state{}
		st.record(&Result{RobotsURL: "http://x.test/robots.txt", Robots: robotsOf(200, disallowX), Expires: time.Now().Add(time.Hour)})
		v, err := encodeState(st, lease.Binding{Origin: origin})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name  string
		value func(t *testing.T, origin string) []byte
	}{
		{"another program's text", func(*testing.T, string) []byte { return []byte("hello") }},
		{"empty", func(*testing.T, string) []byte { return []byte{} }},
		{"a later format version", func(t *testing.T, o string) []byte { v := good(t, o); v[len(lease.Magic)]++; return v }},
		{"one byte changed", func(t *testing.T, o string) []byte { v := good(t, o); v[len(v)/2] ^= 0x40; return v }},
		{"cut short", func(t *testing.T, o string) []byte { v := good(t, o); return v[:len(v)-5] }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, srv := newSite(t, "User-agent: *\nDisallow: /y\n")
			store := newMemStore()
			origin := srv.URL
			store.put(origin, tt.value(t, origin))
			var evs events
			c := NewCache(&Options{Client: srv.Client(), Store: store, OnFetch: evs.add})
			d, err := c.For("Foobot").Decide(context.Background(), srv.URL+"/y")
			if err != nil || d.Allowed || s.fetches.Load() != 1 {
				t.Errorf("Decide = %v, %v with %d fetches; want the fetched rules", d.Allowed, err, s.fetches.Load())
			}
			if ev := evs.last(t, c); storeOp(ev.StoreErr) != "decode" || !ev.Fetched {
				t.Errorf("event %+v; want a decode problem and a fetch", ev)
			}
			idle(t, c)
			st, err := decodeState(store.value(origin), lease.Binding{Origin: origin})
			if err != nil || st.latest.Robots.Allowed("Foobot", "/y") {
				t.Errorf("the value was not replaced by the fetch: %v", err)
			}
			if n := c.Stats().StoreCorrupt; n != 1 {
				t.Errorf("StoreCorrupt = %d, want 1", n)
			}
		})
	}
}

// TestStoreDeadHolder checks that a lease whose holder never saves delays
// the others until it runs out, and no longer.
func TestStoreDeadHolder(t *testing.T) {
	s, srv := newSite(t, disallowX)
	store := newMemStore()
	const left = 300 * time.Millisecond
	store.leases[srv.URL] = memLease{"dead", time.Now().Add(left)}
	var evs events
	c := NewCache(&Options{Client: srv.Client(), Store: store, OnFetch: evs.add})
	start := time.Now()
	ok, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x")
	elapsed := time.Since(start)
	if ok || err != nil || s.fetches.Load() != 1 {
		t.Fatalf("Allowed = %v, %v with %d fetches", ok, err, s.fetches.Load())
	}
	if elapsed < left || elapsed > left+time.Second {
		t.Errorf("answered after %v; want just after the lease ran out (%v)", elapsed, left)
	}
	if ev := evs.last(t, c); ev.Waited < left-50*time.Millisecond || !ev.Fetched || ev.StoreErr != nil {
		t.Errorf("event %+v; want a wait of about %v, then a fetch", ev, left)
	}
	if n := c.Stats().StoreWaits; n != 1 {
		t.Errorf("StoreWaits = %d, want 1", n)
	}
}

// TestStoreWaitForHolder checks that a cache finding the lease taken waits
// for the holder's result instead of fetching.
func TestStoreWaitForHolder(t *testing.T) {
	started := make(chan struct{}, 1)
	var fetches atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		started <- struct{}{}
		time.Sleep(100 * time.Millisecond)
		io.WriteString(w, disallowX)
	})
	store := newMemStore()
	a := NewCache(&Options{Client: srv.Client(), Store: store})
	var evs events
	b := NewCache(&Options{Client: srv.Client(), Store: store, OnFetch: evs.add})
	done := make(chan error)
	go func() {
		_, err := a.For("Foobot").Allowed(context.Background(), srv.URL+"/x")
		done <- err
	}()
	<-started // a holds the lease and is fetching
	ok, err := b.For("Foobot").Allowed(context.Background(), srv.URL+"/x")
	if ok || err != nil {
		t.Errorf("b: Allowed = %v, %v", ok, err)
	}
	if err := <-done; err != nil {
		t.Errorf("a: %v", err)
	}
	if ev := evs.last(t, a, b); ev.Fetched || ev.Waited == 0 || fetches.Load() != 1 {
		t.Errorf("b's event %+v with %d fetches; want b to wait for a's fetch", ev, fetches.Load())
	}
}

// missedLoad is a Store whose Load misses once, as when the lease holder
// saves between another cache's Load and Lease.
type missedLoad struct{ *memStore }

func (m missedLoad) Load(ctx context.Context, origin string) ([]byte, error) { return nil, nil }

// TestStoreSavedBeforeLease checks that a cache taking a lease that comes
// with a fresh value uses the value and drops the lease.
func TestStoreSavedBeforeLease(t *testing.T) {
	s, srv := newSite(t, disallowX)
	store := newMemStore()
	a := NewCache(&Options{Client: srv.Client(), Store: store})
	if _, err := a.For("Foobot").Allowed(context.Background(), srv.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	idle(t, a)
	b := NewCache(&Options{Client: srv.Client(), Store: missedLoad{store}})
	ok, err := b.For("Foobot").Allowed(context.Background(), srv.URL+"/x")
	if ok || err != nil || s.fetches.Load() != 1 {
		t.Errorf("Allowed = %v, %v with %d fetches; want the stored rules, one fetch", ok, err, s.fetches.Load())
	}
	idle(t, b)
	if n := store.leased(); n != 0 {
		t.Errorf("%d leases left; want the lease dropped", n)
	}
}

// TestStoreTTLs checks the lifetimes the cache asks the Store for.
func TestStoreTTLs(t *testing.T) {
	_, srv := newSite(t, disallowX)
	store := newMemStore()
	var leaseTTL time.Duration
	spy := leaseSpy{store, &leaseTTL}
	c := NewCache(&Options{Client: srv.Client(), Store: spy, Now: newClock().Now, Timeout: 3 * time.Second, StoreTimeout: 100 * time.Millisecond})
	if _, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	if want := 2200 * time.Millisecond; leaseTTL != want {
		t.Errorf("lease ttl %v; want defaultLeaseTTL + 2×StoreTimeout = %v", leaseTTL, want)
	}
	idle(t, c)
	if got, want := store.ttl(srv.URL), defaultTTL+defaultGiveUpAfter; got != want {
		t.Errorf("value ttl %v; want the result's TTL + StoreKeep (GiveUpAfter) = %v", got, want)
	}
}

type leaseSpy struct {
	*memStore
	ttl *time.Duration
}

func (s leaseSpy) Lease(ctx context.Context, origin, token string, ttl time.Duration) (Lease, error) {
	*s.ttl = ttl
	return s.memStore.Lease(ctx, origin, token, ttl)
}

// TestStoreHitNoAllocs checks that with a Store, a question about an origin
// the cache holds fresh still costs no allocation and no call to the Store.
func TestStoreHitNoAllocs(t *testing.T) {
	_, srv := newSite(t, disallowX)
	store := newMemStore()
	c := NewCache(&Options{Client: srv.Client(), UserAgent: "Foobot", Store: store, Now: newClock().Now})
	ctx := context.Background()
	u := srv.URL + "/x/y?z"
	if _, err := c.Allowed(ctx, u); err != nil {
		t.Fatal(err)
	}
	idle(t, c)
	calls := store.calls.Load()
	n := testing.AllocsPerRun(1000, func() {
		if ok, err := c.Allowed(ctx, u); ok || err != nil {
			t.Fatalf("Allowed = %v, %v", ok, err)
		}
	})
	if n != 0 {
		t.Errorf("Allowed on a cached origin with a Store: %v allocs, want 0", n)
	}
	if got := store.calls.Load(); got != calls {
		t.Errorf("hits called the Store %d times", got-calls)
	}
}
