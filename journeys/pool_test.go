package journeys

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// TestWorkerPool is the README's net/http crawler: a pool of workers
// ranging over a Scheduler, each handed a URL on its turn at its origin and
// sending it through the robots.txt Transport on that turn, under a 10 s
// client timeout.
func TestWorkerPool(t *testing.T) {
	t.Parallel()
	origins := startAll(t)
	var urls []string
	for _, o := range origins {
		urls = append(urls, o.url+"/")
		for _, h := range o.hrefs {
			urls = append(urls, o.url+h)
		}
	}
	start := time.Now()
	ctx := context.Background()
	var refused atomic.Int64
	page := func(resp *http.Response) {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	// The README's lines.
	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	client := &http.Client{Transport: fetch.NewTransport(nil, cache).WithPacer(pacer), Timeout: 10 * time.Second}
	sched := pacer.NewScheduler()

	for _, u := range urls {
		if err := sched.Add(u); err != nil {
			t.Errorf("Add %s: %v", u, err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for turn, err := range sched.Turns(ctx) {
				if errors.Is(err, fetch.ErrDisallowed) { // no turn spent on a disallowed URL
					refused.Add(1)
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", turn.URL, err)
					continue
				}
				req, _ := http.NewRequestWithContext(turn.Reservation.Context(ctx), "GET", turn.URL, nil)
				resp, err := client.Do(req)
				if errors.Is(err, fetch.ErrDisallowed) {
					refused.Add(1)
					continue
				}
				if err != nil {
					t.Errorf("GET %s: %v", turn.URL, err)
					continue
				}
				page(resp)
			}
		})
	}
	wg.Wait()
	out := check(t, origins, int(refused.Load()), time.Since(start))
	if want := disallowedLinks(origins); out.refused != want {
		t.Errorf("%d URLs refused, want %d (the disallowed links)", out.refused, want)
	}
}

// disallowedLinks counts the links the rules disallow.
func disallowedLinks(os []*origin) int {
	n := 0
	for _, o := range os {
		for _, p := range o.pages() {
			if !p.allowed {
				n++
			}
		}
	}
	return n
}
