package redisstore

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// recorder keeps what OnFetch receives.
type recorder struct {
	mu  sync.Mutex
	evs []fetch.FetchEvent
}

func (r *recorder) add(ev fetch.FetchEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
}

func (r *recorder) all() []fetch.FetchEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]fetch.FetchEvent(nil), r.evs...)
}

func storeOp(err error) string {
	var se *fetch.StoreError
	if errors.As(err, &se) {
		return se.Op
	}
	return ""
}

// TestCorruptValue puts values that do not load under an origin's key: each
// is ignored, the origin fetched, and the value replaced by one that loads.
func TestCorruptValue(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	o := newOrigins(t)
	s := New(rdb, "corrupt:")
	ctx := context.Background()
	tests := []struct {
		name   string
		damage func(key string, good []byte)
	}{
		{"another program's text", func(key string, _ []byte) { rdb.Set(ctx, key, "hello", 0) }},
		{"an empty string", func(key string, _ []byte) { rdb.Set(ctx, key, "", 0) }},
		{"one byte changed", func(key string, good []byte) {
			good[len(good)/2] ^= 0x10
			rdb.Set(ctx, key, good, 0)
		}},
		{"cut short", func(key string, good []byte) { rdb.Set(ctx, key, good[:len(good)-1], 0) }},
		{"a list, not a string", func(key string, _ []byte) { rdb.Del(ctx, key); rdb.RPush(ctx, key, "x") }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			origin := "http://" + host(i)
			o.set(200, disallowX, 0)
			a := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: s})
			if _, err := a.For("Foobot").Allowed(ctx, origin+"/x"); err != nil {
				t.Fatal(err)
			}
			idleCache(a)
			good, err := rdb.Get(ctx, s.Key(origin)).Bytes()
			if err != nil {
				t.Fatalf("no value saved: %v", err)
			}
			tt.damage(s.Key(origin), good)

			o.set(200, "User-agent: *\nDisallow: /y\n", 0)
			var rec recorder
			b := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: s, OnFetch: rec.add})
			start := time.Now()
			ok, err := b.For("Foobot").Allowed(ctx, origin+"/y")
			t.Logf("%s: %s fetched %d times (the first save included); the answer took %v", tt.name, host(i), o.count(host(i)), time.Since(start))
			if ok || err != nil || o.count(host(i)) != 2 {
				t.Errorf("with a damaged value: %v, %v after %d fetches; want the new file fetched", ok, err, o.count(host(i)))
			}
			idleCache(b)
			if evs := rec.all(); len(evs) != 1 || storeOp(evs[0].StoreErr) != "decode" || !evs[0].Fetched {
				t.Errorf("events %+v; want one fetch reporting a value that did not load", evs)
			}
			if n := b.Stats().StoreCorrupt; n != 1 {
				t.Errorf("StoreCorrupt = %d, want 1", n)
			}
			c := fetch.NewCache(&fetch.Options{Client: o.client(t), Store: s})
			if ok, err := c.For("Foobot").Allowed(ctx, origin+"/y"); ok || err != nil || o.count(host(i)) != 2 {
				t.Errorf("a third cache: %v, %v after %d fetches; want the replaced value, no fetch", ok, err, o.count(host(i)))
			}
		})
	}
}

// TestSlowRedis puts a proxy that holds Redis's replies between the caches
// and Redis: questions take no longer than StoreTimeout more than a fetch,
// even with a client that does not heed its context, and once Redis is
// quick again the caches share through it again.
func TestSlowRedis(t *testing.T) {
	r := startRedis(t)
	p := newSlowProxy(t, r.addr)
	o := newOrigins(t)
	const storeTimeout, storeRetry = 100 * time.Millisecond, 300 * time.Millisecond
	newCache := func(rec *recorder) *fetch.Cache {
		// ContextTimeoutEnabled is off, as in a client made with
		// defaults: its calls wait for the reply up to ReadTimeout (3s),
		// longer than the proxy's delay.
		rdb := redis.NewClient(&redis.Options{Addr: p.addr(), MaxRetries: -1})
		t.Cleanup(func() { rdb.Close() })
		opts := &fetch.Options{Client: o.client(t), Store: New(rdb, "slow:"), StoreTimeout: storeTimeout, StoreRetry: storeRetry}
		if rec != nil {
			opts.OnFetch = rec.add
		}
		return fetch.NewCache(opts)
	}
	ctx := context.Background()
	ask := func(c *fetch.Cache, i int) time.Duration {
		t.Helper()
		start := time.Now()
		ok, err := c.For("Foobot").Allowed(ctx, "http://"+host(i)+"/x")
		if ok || err != nil {
			t.Errorf("%s: Allowed = %v, %v; want false, nil", host(i), ok, err)
		}
		return time.Since(start)
	}

	a := newCache(nil)
	ask(a, 0) // Redis quick: the value is saved
	idleCache(a)

	const delay = 2 * time.Second
	p.setDelay(delay)
	var rec recorder
	b := newCache(&rec)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var worst time.Duration
	for g := range 20 {
		wg.Go(func() {
			for j := range 5 {
				d := ask(b, 1+(g+j)%10)
				mu.Lock()
				worst = max(worst, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("Redis replying after %v: %.2f fetches per origin; slowest answer %v", delay, perOrigin(o, 1, 11), worst)
	if limit := storeTimeout + 700*time.Millisecond; worst > limit {
		t.Errorf("with Redis replying after %v, a question took %v; want at most StoreTimeout (%v) and a local fetch", delay, worst, storeTimeout)
	}
	idleCache(b)
	evs := rec.all()
	if len(evs) != 10 || storeOp(evs[0].StoreErr) != "load" || !errors.Is(evs[0].StoreErr, context.DeadlineExceeded) {
		t.Errorf("%d events, the first %+v; want 10, the first with a load deadline", len(evs), evs[0])
	}
	for _, ev := range evs[1:] {
		if op := storeOp(ev.StoreErr); op != "load" && op != "skip" {
			t.Errorf("event %+v; want the store failing or skipped", ev)
		}
	}

	p.setDelay(0)
	time.Sleep(delay + storeRetry) // replies under way arrive, and the rest ends
	before := o.count(host(0))
	ask(b, 0)
	if n := o.count(host(0)); n != before {
		t.Errorf("after Redis is quick again: %d fetches of %s, want %d: the value in Redis unused", n, host(0), before)
	}
	ask(b, 20)
	idleCache(b)
	ask(newCache(nil), 20)
	if n := o.count(host(20)); n != 1 {
		t.Errorf("%s fetched %d times by two caches; want once: sharing has not resumed", host(20), n)
	}
}

// TestOneOriginSlow makes the calls about one origin slow (a value of
// 3 MiB, within fetch.MaxStoreValue, behind a link of about 6.5 MB/s): the
// cache that meets the timeout must go on sharing every other origin, so
// that each of them is still fetched once by the two caches.
func TestOneOriginSlow(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	p := newSlowProxy(t, r.addr)
	o := newOrigins(t)
	ctx := context.Background()
	s := New(rdb, "oneslow:")
	slow := "http://" + host(0)
	if err := rdb.Set(ctx, s.Key(slow), make([]byte, 3<<20), time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	p.setDelay(5 * time.Millisecond) // per 32 KiB read
	newCache := func() *fetch.Cache {
		return fetch.NewCache(&fetch.Options{
			Client: o.client(t), Store: New(newClient(t, p.addr()), "oneslow:"),
			StoreTimeout: 250 * time.Millisecond,
		})
	}
	a, b := newCache(), newCache()
	var ans answers
	ans.ask(a, slow+"/x", false)
	const healthy = 20
	for _, c := range []*fetch.Cache{a, b} {
		for i := 1; i <= healthy; i++ {
			ans.ask(c, "http://"+host(i)+"/x", false)
			idleCache(c)
		}
	}
	t.Logf("one origin slow: %s fetched %d times, the %d others %.2f times each; slowest answer %v; %d wrong",
		host(0), o.count(host(0)), healthy, perOrigin(o, 1, healthy+1), ans.slowest, ans.wrong.Load())
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("%d wrong answers", n)
	}
	checkOnce(t, o, 1, healthy+1)
}
