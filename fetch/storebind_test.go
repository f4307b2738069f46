package fetch

import (
	"context"
	"errors"
	"github.com/robotstxt-go/robotstxt/internal/lease"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStoreRefusesUnbound plants values that load but are not bound to
// what the cache asks about: each is refused for its reason, counted, the
// origin fetched, and the value replaced by one bound to it.
func TestStoreRefusesUnbound(t *testing.T) {
	fresh := func(origin string) state {
		var st state
		st.record(&Result{RobotsURL: origin + "/robots.txt", Robots: robotsOf(200, "User-agent: *\nDisallow: /\n"), Expires: time.Now().Add(time.Hour)})
		return st
	}
	key := []byte("fleet key")
	tests := []struct {
		name  string // and the issue item or check it pins
		key   []byte // the cache's StoreKey
		value func(origin string) []byte
		want  func(Stats) uint64
	}{
		{"another origin's value (issue 18: copied keys answered for the wrong site)", nil,
			func(origin string) []byte {
				v, _ := encodeState(fresh("http://a.example"), lease.Binding{Origin: "http://a.example", Agent: "foobot"})
				return v
			},
			func(s Stats) uint64 { return s.StoreRefused.Origin }},
		{"another crawler's value", nil,
			func(origin string) []byte {
				v, _ := encodeState(fresh(origin), lease.Binding{Origin: origin, Agent: "barbot"})
				return v
			},
			func(s Stats) uint64 { return s.StoreRefused.Agent }},
		{"a value sealed with another key", key,
			func(origin string) []byte {
				v, _ := encodeState(fresh(origin), lease.Binding{Origin: origin, Agent: "foobot", Key: []byte("other")})
				return v
			},
			func(s Stats) uint64 { return s.StoreRefused.Seal }},
		{"an unsealed value where a key is set: a writer without the key", key,
			func(origin string) []byte {
				v, _ := encodeState(fresh(origin), lease.Binding{Origin: origin, Agent: "foobot"})
				return v
			},
			func(s Stats) uint64 { return s.StoreRefused.Seal }},
		{"a sealed value where no key is set", nil,
			func(origin string) []byte {
				v, _ := encodeState(fresh(origin), lease.Binding{Origin: origin, Agent: "foobot", Key: key})
				return v
			},
			func(s Stats) uint64 { return s.StoreRefused.Seal }},
		{"a forged value: HMAC of another body", key,
			func(origin string) []byte {
				v, _ := encodeState(fresh(origin), lease.Binding{Origin: origin, Agent: "foobot", Key: key})
				w, _ := encodeState(fresh(origin), lease.Binding{Origin: origin, Agent: "foobot", Key: key})
				w[len(w)-40] ^= 1
				return append(w[:len(w)-32:len(w)-32], v[len(v)-32:]...)
			},
			func(s Stats) uint64 { return s.StoreRefused.Seal }},
		{"a value of format version 1", nil,
			func(origin string) []byte { return []byte("rtxh\x01 anything") },
			func(s Stats) uint64 { return s.StoreRefused.Format }},
		{"a value longer than MaxStoreValue, from a Store that returns it", nil,
			func(origin string) []byte { return make([]byte, MaxStoreValue+1) },
			func(s Stats) uint64 { return s.StoreRefused.TooLarge }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, srv := newSite(t, "User-agent: *\nDisallow: /y\n")
			store := newMemStore()
			origin := srv.URL
			store.put(origin, tt.value(origin))
			var evs events
			c := NewCache(&Options{Client: srv.Client(), Agent: "Foobot", Store: store, StoreKey: tt.key, OnFetch: evs.add})
			ok, err := c.For("Foobot").Allowed(context.Background(), origin+"/x")
			if !ok || err != nil || s.fetches.Load() != 1 {
				t.Errorf("Allowed(/x) = %v, %v after %d fetches; want the origin's own rules, fetched", ok, err, s.fetches.Load())
			}
			if ev := evs.last(t, c); storeOp(ev.StoreErr) != "decode" || !ev.Fetched {
				t.Errorf("event %+v; want a refused value and a fetch", ev)
			}
			st := c.Stats()
			if tt.want(st) != 1 || st.StoreCorrupt != 1 {
				t.Errorf("Stats %+v; want the value refused once, for its reason", st)
			}
			b := lease.Binding{Origin: origin, Agent: "foobot", Key: tt.key}
			if got, err := decodeState(store.value(origin), b); err != nil || got.latest.Robots.Allowed("Foobot", "/y") {
				t.Errorf("the value was not replaced: %v", err)
			}
		})
	}
}

// TestStoreKeyShared checks that caches with the same StoreKey share, and
// that the agent binds whatever its case.
func TestStoreKeyShared(t *testing.T) {
	s, srv := newSite(t, disallowX)
	store := newMemStore()
	key := []byte("fleet key")
	a := NewCache(&Options{Client: srv.Client(), Agent: "Foobot", Store: store, StoreKey: key})
	b := NewCache(&Options{Client: srv.Client(), UserAgent: "foobot/2.0", Store: store, StoreKey: key})
	for _, c := range []*Cache{a, b} {
		if ok, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x"); ok || err != nil {
			t.Fatal(ok, err)
		}
		idle(t, c)
	}
	if n := s.fetches.Load(); n != 1 || b.Stats().StoreHits != 1 {
		t.Errorf("%d fetches, %+v; want one fetch, shared", n, b.Stats())
	}
}

// TestMaxStoreValue pins the size bound across the seam with the core's
// binary form: the largest history a cache can save, a good copy of
// MaxBodySize bytes whose every line is the three-byte directive that
// costs the most (found by trying every line of up to five bytes made of
// "a:/*#u", space, CR and LF; "u:" and a line end cost 17 bytes), and an
// unreachable latest result, with URLs and an error of the longest kept,
// encodes within MaxStoreValue, with room to spare.
func TestMaxStoreValue(t *testing.T) {
	url := "https://example.com/" + strings.Repeat("a", maxEntryURL-len("https://example.com/"))
	worst := func(status int, body string, err error) *Result {
		r := result(status, body, err)
		r.RobotsURL, r.FinalURL = url, url
		return r
	}
	body := strings.Repeat("u:\n", MaxBodySize/3)
	good := worst(200, body, nil)
	down := worst(503, "", errors.New(strings.Repeat("e", 2*maxEntryErr)))
	down.Fetched = good.Fetched.Add(time.Hour)
	s := history(good, down)
	v, err := encodeState(s, lease.Binding{Origin: url[:19], Agent: "foobot", Key: []byte("k")})
	if err != nil {
		t.Fatalf("the largest history does not encode: %v", err)
	}
	if len(v) > MaxStoreValue-MaxStoreValue/8 {
		t.Errorf("the largest history takes %d bytes, too close to MaxStoreValue (%d)", len(v), MaxStoreValue)
	}
	t.Logf("largest history: %d bytes; MaxStoreValue %d", len(v), MaxStoreValue)
}

// TestStoreLeaseChangesHands has a holder die with its lease about to run
// out while the origin is slow: one waiter takes the lease over and
// fetches, and the others wait for it instead of giving up on their own
// clock (issue 18: 6 waiters made 6 fetches).
func TestStoreLeaseChangesHands(t *testing.T) {
	var fetches atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		time.Sleep(1500 * time.Millisecond)
		io.WriteString(w, disallowX)
	})
	store := newMemStore()
	// All four caches find the dead holder's lease, even on a loaded machine.
	store.leases[srv.URL] = memLease{"dead", time.Now().Add(500 * time.Millisecond)}
	const leaseTTL = 600 * time.Millisecond // shorter than the fetch: renewed
	var caches []*Cache
	var wg sync.WaitGroup
	for range 4 {
		// The in-memory store answers at once; a StoreTimeout of a second
		// keeps a waiter that a loaded machine delays from reading a late
		// call or a late renewal as a broken store or holder.
		c := NewCache(&Options{Client: srv.Client(), Store: store, LeaseTTL: leaseTTL, StoreTimeout: time.Second})
		caches = append(caches, c)
		wg.Go(func() {
			if ok, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x"); ok || err != nil {
				t.Errorf("Allowed = %v, %v", ok, err)
			}
		})
	}
	wg.Wait()
	idle(t, caches...)
	var total Stats
	for _, c := range caches {
		st := c.Stats()
		total.StoreTakenOver += st.StoreTakenOver
		total.StoreGaveUp += st.StoreGaveUp
		total.StoreHits += st.StoreHits
	}
	if n := fetches.Load(); n != 1 || total.StoreTakenOver != 1 || total.StoreGaveUp != 0 || total.StoreHits != 3 {
		t.Errorf("%d fetches, %d leases taken over, %d waits given up, %d store hits; want 1, 1, 0, 3",
			n, total.StoreTakenOver, total.StoreGaveUp, total.StoreHits)
	}
}

// TestStoreWaitGivesUp checks that a waiter whose holder keeps a lease
// that never runs out fetches after LeaseTTL, and counts it.
func TestStoreWaitGivesUp(t *testing.T) {
	s, srv := newSite(t, disallowX)
	store := newMemStore()
	store.leases[srv.URL] = memLease{"stuck", time.Now().Add(time.Hour)}
	stuck := stuckLease{store}
	c := NewCache(&Options{Client: srv.Client(), Store: stuck, LeaseTTL: 100 * time.Millisecond, StoreTimeout: 200 * time.Millisecond})
	start := time.Now()
	if ok, err := c.For("Foobot").Allowed(context.Background(), srv.URL+"/x"); ok || err != nil {
		t.Fatal(ok, err)
	}
	if d := time.Since(start); d > 2*time.Second || s.fetches.Load() != 1 || c.Stats().StoreGaveUp != 1 {
		t.Errorf("answered after %v, %d fetches, %+v; want a fetch after LeaseTTL, one wait given up", d, s.fetches.Load(), c.Stats())
	}
}

// stuckLease reports leases with no time left known, as a Store whose
// lease has no expiry would.
type stuckLease struct{ *memStore }

func (s stuckLease) Lease(ctx context.Context, origin, token string, ttl time.Duration) (Lease, error) {
	l, err := s.memStore.Lease(ctx, origin, token, ttl)
	l.Left = 0
	return l, err
}

// slowSave is a Store whose saves take a while.
type slowSave struct {
	*memStore
	saved atomic.Int32
}

func (s *slowSave) Save(ctx context.Context, origin, token string, value []byte, ttl time.Duration) error {
	time.Sleep(150 * time.Millisecond)
	defer s.saved.Add(1)
	return s.memStore.Save(ctx, origin, token, value, ttl)
}

// TestFlush checks that Flush waits for the saves under way, and gives up
// when its context ends.
func TestFlush(t *testing.T) {
	_, srv := newSite(t, disallowX)
	store := &slowSave{memStore: newMemStore()}
	c := NewCache(&Options{Client: hostRouter(srv), Store: store, StoreTimeout: time.Second})
	ctx := context.Background()
	if err := c.Flush(ctx); err != nil {
		t.Errorf("Flush of an idle cache: %v", err)
	}
	c.For("Foobot").Allowed(ctx, "http://a.test/x")
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if err := c.Flush(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Flush with a save under way and a 10ms context: %v", err)
	}
	c.For("Foobot").Allowed(ctx, "http://b.test/x") // answers before its save
	if err := c.Flush(ctx); err != nil || store.saved.Load() != 2 || c.Stats().InFlight != 0 {
		t.Errorf("Flush = %v with %d saves done, %d in flight; want both saves done", err, store.saved.Load(), c.Stats().InFlight)
	}
}

// TestFetchEventOrigin checks the origin's parts in FetchEvent.
func TestFetchEventOrigin(t *testing.T) {
	for _, tt := range []struct {
		origin, scheme, host string
		port                 int
	}{
		{"http://a.test", "http", "a.test", 80},
		{"https://a.test", "https", "a.test", 443},
		{"http://a.test:8080", "http", "a.test", 8080},
		{"https://[::1]", "https", "::1", 443},
		{"http://[2001:db8::1]:81", "http", "2001:db8::1", 81},
		{"http://127.0.0.1:9", "http", "127.0.0.1", 9},
	} {
		if s, h, p := originParts(tt.origin); s != tt.scheme || h != tt.host || p != tt.port {
			t.Errorf("originParts(%q) = %q, %q, %d; want %q, %q, %d", tt.origin, s, h, p, tt.scheme, tt.host, tt.port)
		}
	}
	_, srv := newSite(t, disallowX)
	var evs events
	c := NewCache(&Options{Client: srv.Client(), OnFetch: evs.add})
	c.For("Foobot").Allowed(context.Background(), srv.URL+"/x")
	ev := evs.last(t, c)
	if want := ev.Scheme + "://" + ev.Host + ":" + strconv.Itoa(ev.Port); want != srv.URL {
		t.Errorf("event origin parts %q, %q, %d; want those of %s", ev.Scheme, ev.Host, ev.Port, srv.URL)
	}
}
