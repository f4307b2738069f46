package redisstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// The numbers of README.md come from
//
//	go test -run XXX -bench Allowed -benchtime 2000x
//	go test -run XXX -bench Fleet -benchtime 1x
//
// BenchmarkAllowed reports the latency of a question in three cases, with
// percentiles over the b.N questions timed one by one.
//
//   - local-hit: the cache holds the origin fresh; Redis is not asked.
//   - redis-hit: the cache misses, Redis holds the origin fresh: one
//     round trip and a load of the stored rules. The cache holds one origin
//     and is asked about two in turn, so that every question misses.
//   - redis-miss: neither holds the origin: a load, the lease, and a
//     fetch from a local web server; the save follows the answer.
func BenchmarkAllowed(b *testing.B) {
	r := startRedis(b)
	o := newOrigins(b)
	ctx := context.Background()
	store := New(r.client(b), "bench:")

	b.Run("local-hit", func(b *testing.B) {
		c := fetch.NewCache(&fetch.Options{Client: o.client(b), Store: store})
		u := "http://" + host(0) + "/x/y?z"
		c.For("Foobot").Allowed(ctx, u)
		timeEach(b, func(int) { c.For("Foobot").Allowed(ctx, u) })
	})

	b.Run("redis-hit", func(b *testing.B) {
		warm := fetch.NewCache(&fetch.Options{Client: o.client(b), Store: store})
		urls := []string{"http://" + host(1) + "/x", "http://" + host(2) + "/x"}
		for _, u := range urls {
			warm.For("Foobot").Allowed(ctx, u)
		}
		idleCache(warm)
		c := fetch.NewCache(&fetch.Options{Client: o.client(b), Store: store, MaxEntries: 1})
		timeEach(b, func(i int) { c.For("Foobot").Allowed(ctx, urls[i%2]) })
		if st := c.Stats(); st.Fetches != 0 {
			b.Fatalf("%d fetches; want every question served by Redis", st.Fetches)
		}
	})

	var run atomic.Int32
	b.Run("redis-miss", func(b *testing.B) {
		c := fetch.NewCache(&fetch.Options{Client: o.client(b), Store: store})
		n := run.Add(1)
		timeEach(b, func(i int) { c.For("Foobot").Allowed(ctx, fmt.Sprintf("http://m%d-%d.test/x", n, i)) })
		idleCache(c)
		if st := c.Stats(); st.Fetches != uint64(b.N) {
			b.Fatalf("%d fetches for %d new origins", st.Fetches, b.N)
		}
	})
}

// timeEach times each call of f and reports the median and the 99th
// percentile besides the mean.
func timeEach(b *testing.B, f func(i int)) {
	b.ReportAllocs()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		f(i)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
}

var fleetRuns atomic.Int32

// BenchmarkFleet runs the fleet of TestFleetOneFetchPerOrigin (8 caches ×
// 50 goroutines × 500 origins) once per iteration on new origins, with and
// without Redis, and reports the robots.txt fetches per origin.
func BenchmarkFleet(b *testing.B) {
	r := startRedis(b)
	o := newOrigins(b)
	o.set(200, disallowX, 2*time.Millisecond)
	for _, shared := range []bool{false, true} {
		name := "no-store"
		if shared {
			name = "redis"
		}
		b.Run(name, func(b *testing.B) {
			var caches []*fetch.Cache
			for range fleetCaches {
				opts := &fetch.Options{Client: o.client(b), StoreTimeout: 10 * time.Second}
				if shared {
					opts.Store = New(r.client(b), "fleet-bench:")
				}
				caches = append(caches, fetch.NewCache(opts))
			}
			o.mu.Lock()
			before := o.total
			o.mu.Unlock()
			var wrong atomic.Int32
			for range b.N {
				from := int(fleetRuns.Add(1)) * fleetOrigins // new origins each time
				var wg sync.WaitGroup
				for _, c := range caches {
					wg.Go(func() { wrong.Add(int32(askAll(c, fleetGoroutines, from, from+fleetOrigins))) })
				}
				wg.Wait()
			}
			b.StopTimer()
			if n := wrong.Load(); n != 0 {
				b.Fatalf("%d wrong answers", n)
			}
			o.mu.Lock()
			fetches := o.total - before
			o.mu.Unlock()
			b.ReportMetric(float64(fetches)/float64(b.N*fleetOrigins), "fetches/origin")
			b.ReportMetric(float64(b.N*fleetCaches*fleetGoroutines*fleetOrigins)/b.Elapsed().Seconds(), "questions/s")
		})
	}
}
