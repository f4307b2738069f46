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

// TestWorkerPool is the README's net/http crawler: a pool of workers, each
// taking a URL, reserving its turn at the origin, and sending it through
// the robots.txt Transport on that turn, under a 10 s client timeout.
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

	// The README's lines.
	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	client := &http.Client{Transport: fetch.NewTransport(nil, "", cache).WithPacer(pacer), Timeout: 10 * time.Second}

	queue := make(chan string, len(urls))
	for _, u := range urls {
		queue <- u
	}
	close(queue)
	var refused atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for u := range queue {
				turn, err := pacer.Reserve(ctx, u) // no turn spent on a disallowed URL
				if errors.Is(err, fetch.ErrDisallowed) {
					refused.Add(1)
					continue
				}
				if err != nil {
					t.Errorf("Reserve %s: %v", u, err)
					continue
				}
				<-turn.Ready()
				req, _ := http.NewRequestWithContext(fetch.WithReservation(ctx, turn), "GET", u, nil)
				resp, err := client.Do(req)
				if errors.Is(err, fetch.ErrDisallowed) {
					refused.Add(1)
					continue
				}
				if err != nil {
					t.Errorf("GET %s: %v", u, err)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
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
