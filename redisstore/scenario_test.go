package redisstore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// The scenarios of this file are faults a fleet meets: a value in Redis
// that belongs to another origin, a lease holder killed in the middle of a
// slow fetch, and a huge value under an origin's key. Each logs the
// fetches per origin and the slowest answer.

// answers asks c about rawURL from goroutines, checks each answer against
// allowed, and returns the number of wrong answers and the slowest.
type answers struct {
	wrong   atomic.Int32
	mu      sync.Mutex
	slowest time.Duration
}

func (a *answers) ask(c *fetch.Cache, rawURL string, allowed bool) {
	start := time.Now()
	ok, err := c.For("Foobot").Allowed(context.Background(), rawURL)
	d := time.Since(start)
	if err != nil || ok != allowed {
		a.wrong.Add(1)
	}
	a.mu.Lock()
	a.slowest = max(a.slowest, d)
	a.mu.Unlock()
}

// TestScenarioForeignValue copies one origin's value to another origin's
// key: the fleet must refuse it, fetch the origin once, replace the value,
// and never answer from the other origin's rules.
func TestScenarioForeignValue(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	o := newOrigins(t)
	s := New(rdb, "foreign:")
	ctx := context.Background()
	a, b := "http://"+host(0), "http://"+host(1)
	o.setHost(host(1), "User-agent: *\nDisallow: /y\n", 0) // host(0) disallows /x

	first := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: s})
	if ok, err := first.For("Foobot").Allowed(ctx, a+"/x"); ok || err != nil {
		t.Fatalf("%s/x: %v, %v", a, ok, err)
	}
	idleCache(first)
	v, err := rdb.Get(ctx, s.Key(a)).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	rdb.Set(ctx, s.Key(b), v, time.Hour) // a's value under b's key

	const caches, goroutines, rounds = 4, 8, 20
	var ans answers
	var wg sync.WaitGroup
	var fleet []*fetch.Cache
	for range caches {
		c := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: New(r.client(t), "foreign:"), StoreTimeout: 5 * time.Second})
		fleet = append(fleet, c)
		for range goroutines {
			wg.Go(func() {
				for range rounds {
					ans.ask(c, b+"/x", true)
					ans.ask(c, b+"/y", false)
				}
			})
		}
	}
	wg.Wait()
	for _, c := range fleet {
		idleCache(c)
	}
	// A new cache finds the replaced value and fetches nothing.
	late := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: s})
	ans.ask(late, b+"/x", true)
	ans.ask(late, b+"/y", false)
	refused := late.Stats().StoreRefused.Origin
	for _, c := range fleet {
		refused += c.Stats().StoreRefused.Origin
	}
	t.Logf("foreign value: %s fetched %d times, %s %d; slowest answer %v; %d wrong; refused as another origin's %d times",
		host(0), o.count(host(0)), host(1), o.count(host(1)), ans.slowest, ans.wrong.Load(), refused)
	if refused == 0 {
		t.Errorf("no cache counted a value of another origin")
	}
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("%d wrong answers for %s", n, b)
	}
	if n := o.count(host(1)); n != 1 {
		t.Errorf("%s fetched %d times; want once, to replace the foreign value", host(1), n)
	}
}

// TestScenarioHolderKilled kills the process that holds an origin's lease
// while the origin takes 3s to answer, with 6 caches waiting: the origin is
// fetched once more in all, by the cache that takes the lease over, and
// every wait ends within the documented bound.
func TestScenarioHolderKilled(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	const answerIn = 3 * time.Second
	o.setHost(host(0), disallowX, answerIn)
	o.mu.Lock()
	o.seen = make(chan string, 16)
	seen := o.seen
	o.mu.Unlock()
	cmd, _, out := startChild(t, "hold", r, o, "killed:")
	select {
	case <-seen: // the child holds the lease and is fetching
	case <-time.After(20 * time.Second):
		t.Fatalf("the child never fetched:\n%s", out)
	}
	o.mu.Lock()
	o.seen = nil
	o.mu.Unlock()

	const caches, goroutines, storeTimeout = 6, 4, time.Second
	var ans answers
	var wg sync.WaitGroup
	var fleet []*fetch.Cache
	started := make(chan struct{})
	for range caches {
		c := fetch.NewCache(&fetch.Options{
			Client: o.client(t), Store: New(r.client(t), "killed:"),
			LeaseTTL: holdLease, StoreTimeout: storeTimeout,
		})
		fleet = append(fleet, c)
		for range goroutines {
			wg.Go(func() {
				<-started
				ans.ask(c, "http://"+host(0)+"/x", false)
			})
		}
	}
	close(started)
	time.Sleep(100 * time.Millisecond) // the caches are waiting
	cmd.Process.Kill()
	cmd.Wait()
	wg.Wait()
	for _, c := range fleet {
		idleCache(c)
	}
	// The bound: the dead holder's lease runs out (at most LeaseTTL), a
	// waiter notices within the longest pause and takes it over, fetches
	// (answerIn), and the others see its value within a pause.
	bound := holdLease + answerIn + 2*250*time.Millisecond + 2*storeTimeout
	var takenOver, gaveUp uint64
	for _, c := range fleet {
		takenOver, gaveUp = takenOver+c.Stats().StoreTakenOver, gaveUp+c.Stats().StoreGaveUp
	}
	t.Logf("holder killed: %s fetched %d times (the dead holder's fetch included); slowest answer %v (bound %v); %d wrong; %d leases taken over, %d waits given up",
		host(0), o.count(host(0)), ans.slowest, bound, ans.wrong.Load(), takenOver, gaveUp)
	if takenOver != 1 || gaveUp != 0 {
		t.Errorf("%d leases taken over, %d waits given up; want 1 and 0", takenOver, gaveUp)
	}
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("%d wrong answers", n)
	}
	if n := o.count(host(0)); n > 2 {
		t.Errorf("%s fetched %d times; want at most 2: the dead holder's and one more", host(0), n)
	}
	if ans.slowest > bound {
		t.Errorf("slowest answer %v; want at most %v", ans.slowest, bound)
	}
}

// TestScenarioHugeValue puts 8 MiB of junk under an origin's key and a
// Redis whose replies cross a link of about 6.5 MB/s: the value must be
// refused without reading it, replaced by the first save, and the other
// origins fetched once in all.
func TestScenarioHugeValue(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	p := newSlowProxy(t, r.addr)
	o := newOrigins(t)
	ctx := context.Background()
	s := New(rdb, "huge:")
	junk := make([]byte, 8<<20)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	huge := "http://" + host(0)
	if err := rdb.Set(ctx, s.Key(huge), junk, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	// 5ms per 32 KiB read, about 6.5 MB/s: a link over which 8 MiB takes
	// longer than StoreTimeout, while the small replies come in time.
	p.setDelay(5 * time.Millisecond)

	const caches, goroutines, healthy = 4, 8, 100
	var ans answers
	var wg sync.WaitGroup
	var fleet []*fetch.Cache
	for range caches {
		c := fetch.NewCache(&fetch.Options{
			Client: o.client(t), Store: New(newClient(t, p.addr()), "huge:"),
			StoreTimeout: time.Second,
		})
		fleet = append(fleet, c)
		for g := range goroutines {
			wg.Go(func() {
				for j := range healthy + 1 {
					i := (j + g*13) % (healthy + 1)
					ans.ask(c, "http://"+host(i)+"/x", false)
				}
			})
		}
	}
	wg.Wait()
	for _, c := range fleet {
		idleCache(c)
	}
	var tooLarge uint64
	for _, c := range fleet {
		tooLarge += c.Stats().StoreRefused.TooLarge
	}
	if tooLarge == 0 {
		t.Errorf("no cache counted a value too large")
	}
	n, err := rdb.StrLen(ctx, s.Key(huge)).Result()
	extra := 0
	for i := 1; i <= healthy; i++ {
		extra += o.count(host(i)) - 1
	}
	t.Logf("huge value: %s fetched %d times, the %d others %.2f times each; slowest answer %v; value now %d bytes; %d wrong",
		host(0), o.count(host(0)), healthy, 1+float64(extra)/healthy, ans.slowest, n, ans.wrong.Load())
	if err != nil || n >= 1<<20 {
		t.Errorf("the value under %s is %d bytes (%v); want it replaced by the first save", huge, n, err)
	}
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("%d wrong answers", n)
	}
	if c := o.count(host(0)); c != 1 {
		t.Errorf("%s fetched %d times; want once", host(0), c)
	}
	checkOnce(t, o, 1, healthy+1)
}

// TestScenarioPlantedValue has a writer without the fleet's StoreKey
// plant a value that allows everything under an origin's key: the caches
// of the fleet, which seal their values with the key, refuse it, fetch the
// origin once and replace the value.
func TestScenarioPlantedValue(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	o := newOrigins(t)
	ctx := context.Background()
	origin := "http://" + host(0)
	key := []byte("the fleet's key")

	o.set(404, "", 0) // the planter's copy: everything allowed
	planter := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: New(rdb, "planted:")})
	if ok, err := planter.For("Foobot").Allowed(ctx, origin+"/x"); !ok || err != nil {
		t.Fatalf("planter: %v, %v", ok, err)
	}
	idleCache(planter)
	o.set(200, disallowX, 0)

	var ans answers
	var fleet []*fetch.Cache
	var wg sync.WaitGroup
	for range 4 {
		c := fetch.NewCache(&fetch.Options{
			Client: o.client(t), Store: New(r.client(t), "planted:"), StoreKey: key, StoreTimeout: 5 * time.Second,
		})
		fleet = append(fleet, c)
		for range 8 {
			wg.Go(func() { ans.ask(c, origin+"/x", false) })
		}
	}
	wg.Wait()
	var seal uint64
	for _, c := range fleet {
		idleCache(c)
		seal += c.Stats().StoreRefused.Seal
	}
	late := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: New(rdb, "planted:"), StoreKey: key})
	ans.ask(late, origin+"/x", false)
	t.Logf("planted value: %s fetched %d times (the planter's included); slowest answer %v; %d wrong; refused as unsealed %d times",
		host(0), o.count(host(0)), ans.slowest, ans.wrong.Load(), seal)
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("%d answers taken from the planted value", n)
	}
	if n := o.count(host(0)); n != 2 || seal == 0 {
		t.Errorf("%s fetched %d times, %d refusals; want the planter's fetch and one more, and the value refused", host(0), n, seal)
	}
}

// TestScenarioUnreachableShared has one process find an origin's
// robots.txt unreachable (a 503, no good copy) and share that through
// Redis: every cache of the fleet answers with the retryable error the
// first one got, never "disallowed" (false with a nil error), and the
// origin is fetched once (RFC 9309 §2.3.1.4).
func TestScenarioUnreachableShared(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	s := New(r.client(t), "unreachable:")
	o.set(503, "", 0)
	u := "http://" + host(0) + "/x"
	for i := range 4 {
		c := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: s})
		ok, err := c.For("Foobot").Allowed(context.Background(), u)
		var re *fetch.RetryError
		if ok || !errors.As(err, &re) || re.Status != 503 {
			t.Errorf("cache %d: Allowed = %v, %v; want false and a RetryError with status 503", i, ok, err)
		}
		idleCache(c)
	}
	if n := o.count(host(0)); n != 1 {
		t.Errorf("%d fetches of %s, want 1 for the fleet", n, host(0))
	}
}
