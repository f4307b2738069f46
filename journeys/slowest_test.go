package journeys

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/robotstxt-go/robotstxt/fetch"
)

// A crawl over origins of different paces must not wait behind the slowest
// one: while one origin's next turn is a Crawl-delay away, another origin
// with a turn free is served. The two origins below are queued slow one
// first, as a crawler reading a list site by site would queue them.
//
// The slow origin takes (slowPages-1) × slowDelay = 15 s on its own; the
// fast one 23 × 0.5 s = 11.5 s. A pool whose workers all wait for the slow
// origin's turns sends the fast origin's first page only once every slow
// page has been taken by a worker, 8 s in, and ends at 8 + 11.5 = 19.5 s;
// a pool that serves whichever origin has a turn free sends it at once
// and ends with the slow origin.
const (
	slowDelay = time.Second
	slowPages = 16
	fastDelay = 500 * time.Millisecond
	fastPages = 24

	// firstFastBound is how long the fast origin's first page may wait:
	// its robots.txt and its page, over local sockets, take milliseconds.
	firstFastBound = 1500 * time.Millisecond
	// wallSlack is how much longer than the slow origin's own time the
	// whole crawl may take (15%).
	wallSlack = 0.15
)

// twoPaces returns the slow origin A and the fast origin D.
func twoPaces() (slow, fast *origin) {
	site := func(name string, delay time.Duration, pages int) *origin {
		o := &origin{
			name:   name,
			robots: fmt.Sprintf("User-agent: foobot\nCrawl-delay: %g\nAllow: /\n", delay.Seconds()),
			delay:  delay,
		}
		for i := 1; i < pages; i++ {
			o.hrefs = append(o.hrefs, fmt.Sprintf("/p%d", i))
		}
		return o
	}
	return site("A (slow)", slowDelay, slowPages), site("D (fast)", fastDelay, fastPages)
}

// startPaces starts A and D, and returns them with every page URL, A's
// first.
func startPaces(t *testing.T) (os []*origin, urls []string) {
	slow, fast := twoPaces()
	os = []*origin{slow, fast}
	for _, o := range os {
		o.start(t)
		urls = append(urls, o.url+"/")
		for _, h := range o.hrefs {
			urls = append(urls, o.url+h)
		}
	}
	return os, urls
}

// firstPage returns when the first page, not robots.txt, arrived at o.
func (o *origin) firstPage() time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range o.requests {
		if !strings.HasSuffix(strings.SplitN(r.target, "?", 2)[0], "robots.txt") {
			return r.at
		}
	}
	return time.Time{}
}

// checkPaces asserts what a crawl over A and D must keep besides check's
// rules: D's first page is sent at once, not after A's turns, and the
// crawl takes about A's own time, not A's and D's added.
func checkPaces(t *testing.T, os []*origin, start time.Time, wall time.Duration) {
	t.Helper()
	out := check(t, os, 0, wall)
	if want := slowPages + fastPages; out.fetched != want {
		t.Errorf("%d pages fetched, want %d", out.fetched, want)
	}
	slow, fast := os[0], os[1]
	first := fast.firstPage()
	if first.IsZero() {
		t.Fatalf("%s: no page arrived", fast.name)
	}
	own := time.Duration(slowPages-1) * slowDelay
	t.Logf("%s: first page at +%v; crawl %v, %s's own time %v (%.0f%% more)",
		fast.name, first.Sub(start).Round(time.Millisecond), wall.Round(time.Millisecond),
		slow.name, own, 100*(wall.Seconds()/own.Seconds()-1))
	if d := first.Sub(start); d > firstFastBound {
		t.Errorf("%s: first page sent +%v after the start, want within %v: the workers waited for %s's turns",
			fast.name, d.Round(time.Millisecond), firstFastBound, slow.name)
	}
	if limit := time.Duration(float64(own) * (1 + wallSlack)); wall > limit {
		t.Errorf("the crawl took %v, want within %v (%s's own %v plus %.0f%%): the origins' times were added",
			wall.Round(time.Millisecond), limit, slow.name, own, 100*wallSlack)
	}
}

// TestWorkerPoolServesEveryOrigin is the README's worker pool over A and
// D: 8 workers ranging over a Scheduler, each URL sent on its turn.
func TestWorkerPoolServesEveryOrigin(t *testing.T) {
	t.Parallel()
	os, urls := startPaces(t)
	start := time.Now()
	ctx := context.Background()
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
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for turn, err := range sched.Turns(ctx) {
				if err != nil {
					t.Errorf("%s: %v", turn.URL, err)
					continue
				}
				req, _ := http.NewRequestWithContext(turn.Reservation.Context(ctx), "GET", turn.URL, nil)
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("GET %s: %v", turn.URL, err)
					continue
				}
				page(resp)
			}
		})
	}
	wg.Wait()
	checkPaces(t, os, start, time.Since(start))
}

// TestCollyServesEveryOrigin is colly v2 crawling A and D with 8 workers
// ranging over a Scheduler, through the README's Transport and pacer.
// colly sends a request with its collector's Context, so each worker has
// a synchronous collector of its own, whose Context carries the turn.
func TestCollyServesEveryOrigin(t *testing.T) {
	t.Parallel()
	os, urls := startPaces(t)
	start := time.Now()
	ctx := context.Background()

	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	transport := fetch.NewTransport(nil, cache).WithPacer(pacer)
	sched := pacer.NewScheduler()
	for _, u := range urls {
		if err := sched.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			c := colly.NewCollector()
			c.WithTransport(transport)
			c.OnError(func(r *colly.Response, err error) { t.Errorf("%s: %v", r.Request.URL, err) })
			for turn, err := range sched.Turns(ctx) {
				if err != nil {
					t.Errorf("%s: %v", turn.URL, err)
					continue
				}
				c.Context = turn.Reservation.Context(ctx)
				c.Visit(turn.URL)
			}
		})
	}
	wg.Wait()
	checkPaces(t, os, start, time.Since(start))
}
