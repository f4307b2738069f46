package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

// TestPacerReserve checks the non-blocking turn (issue 17 item 3): Reserve
// returns at once with when the turn comes, turns queue one spacing apart,
// a turn given back moves the later ones up, and a 429 pushes them back.
func TestPacerReserve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := NewPacer(&PacerOptions{Delay: 2 * time.Second})
		ctx := context.Background()
		const u = "http://example.com/"
		var rs []*Reservation
		for range 3 {
			r, err := p.Reserve(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		if d := time.Since(start); d != 0 {
			t.Fatalf("Reserve waited %v", d)
		}
		for i, want := range []time.Duration{0, 2 * time.Second, 4 * time.Second} {
			if got := rs[i].When().Sub(start); got != want {
				t.Errorf("turn %d comes at %v, want %v", i, got, want)
			}
		}
		select {
		case <-rs[0].Ready():
		default:
			t.Error("the first turn is not ready at once")
		}
		select {
		case <-rs[1].Ready():
			t.Error("the second turn is ready at once")
		default:
		}
		rs[1].Cancel()
		rs[1].Cancel() // twice is harmless
		if got := rs[2].When().Sub(start); got != 2*time.Second {
			t.Errorf("after a turn is given back, the next comes at %v, want 2s", got)
		}
		if !rs[1].When().IsZero() {
			t.Errorf("a turn given back comes at %v, want the zero time", rs[1].When())
		}
		rs[0].Cancel() // a turn that came is spent: nothing moves
		if got := rs[2].When().Sub(start); got != 2*time.Second {
			t.Errorf("cancelling a spent turn moved the next to %v", got)
		}

		r4, _ := p.Reserve(ctx, u)
		p.Observe(u, http.StatusTooManyRequests, http.Header{"Retry-After": {"30"}})
		if got := r4.When().Sub(start); got < 30*time.Second {
			t.Errorf("after a 429 with Retry-After: 30, a queued turn comes at %v, want 30s or later", got)
		}
		<-rs[2].Ready()
		<-r4.Ready()
		if got := time.Since(start); got < 30*time.Second {
			t.Errorf("the queued turn came at %v, before the pause ended", got)
		}
		if d := r4.Delay(); d != 0 {
			t.Errorf("Delay of a turn that came = %v", d)
		}
	})
}

// crawlSite serves pages under Crawl-delay: 3, and records when each page
// was asked for and the User-Agent it carried.
type crawlSite struct {
	start time.Time
	mu    sync.Mutex
	got   map[string]time.Duration
	uas   []string
}

func (s *crawlSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got[r.URL.Path] = time.Since(s.start)
	s.uas = append(s.uas, r.UserAgent())
	io.WriteString(w, "page")
}

func newCrawlSites(start time.Time) (*fetchtest.Sites, *crawlSite) {
	pages := &crawlSite{start: start, got: map[string]time.Duration{}}
	sites := fetchtest.NewSites(map[string]fetchtest.Answer{
		"a.example": {Body: "User-agent: *\nCrawl-delay: 3\nDisallow: /private\n"},
	}, pages)
	return sites, pages
}

// TestTransportWaitPastDeadline is issue 17 item 3 as colly met it: six
// requests at once to a site with Crawl-delay: 3, through a client with a
// 10 s timeout. The turns at 0, 3, 6 and 9 s fit; the later ones would pass
// the deadline, and fail at once with a WaitError that names the origin,
// the wait and the Crawl-delay line, instead of "context deadline exceeded"
// 10 s later.
func TestTransportWaitPastDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sites, pages := newCrawlSites(start)
		cache := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
		tr := NewTransport(sites, cache).WithPacer(NewPacer(&PacerOptions{Cache: cache}))
		client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		cache.File(context.Background(), "http://a.example/") // as a crawler that read the sitemap first

		type outcome struct {
			err error
			at  time.Duration
		}
		out := make([]outcome, 6)
		var wg sync.WaitGroup
		for i := range out {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := client.Get("http://a.example/p" + string(rune('0'+i)))
				if err == nil {
					resp.Body.Close()
				}
				out[i] = outcome{err, time.Since(start)}
			}()
			synctest.Wait() // request i is queued before i+1 starts
		}
		wg.Wait()
		for i, o := range out {
			if i < 4 {
				if o.err != nil {
					t.Errorf("request %d: %v, want it sent at %ds", i, o.err, 3*i)
				}
				if want := time.Duration(3*i) * time.Second; pages.got["/p"+string(rune('0'+i))] != want {
					t.Errorf("request %d sent at %v, want %v", i, pages.got["/p"+string(rune('0'+i))], want)
				}
				continue
			}
			var we *WaitError
			if !errors.Is(o.err, ErrWaitPastDeadline) || !errors.As(o.err, &we) {
				t.Errorf("request %d: %v, want a WaitError past the deadline", i, o.err)
				continue
			}
			if o.at != 0 {
				t.Errorf("request %d failed after %v, want at once", i, o.at)
			}
			msg := o.err.Error()
			for _, want := range []string{"http://a.example", "Crawl-delay: 3 in http://a.example/robots.txt line 2", "comes in 12s"} {
				if !strings.Contains(msg, want) {
					t.Errorf("request %d: error %q does not say %q", i, msg, want)
				}
			}
			if strings.Contains(msg, "context deadline exceeded") {
				t.Errorf("request %d: %q", i, msg)
			}
		}
	})
}

// TestPoliteCrawlerKeepsEveryRequest is the crawler the README describes,
// with a worker pool: it takes each turn with Reserve, serves other work
// until it comes, and sends the request on it with Reservation.Context. Under
// a 10 s client timeout and Crawl-delay: 3, no request is lost to the
// pacer's wait, the pages go out 3 s apart, and each carries the crawler's
// User-Agent (issue 17, "Done when").
func TestPoliteCrawlerKeepsEveryRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sites, pages := newCrawlSites(start)
		const ua = "Foobot/1.0 (+https://foo.example/bot)"
		cache := NewCache(&Options{Client: sites.Client(), UserAgent: ua})
		pacer := NewPacer(&PacerOptions{Cache: cache})
		client := &http.Client{Transport: NewTransport(sites, cache).WithPacer(pacer), Timeout: 10 * time.Second}
		ctx := context.Background()

		links := []string{"/1", "/2", "/3", "/4", "/5", "/6"}
		var wg sync.WaitGroup
		errs := make([]error, len(links))
		for i, l := range links {
			turn, err := pacer.Reserve(ctx, "http://a.example"+l)
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-turn.Ready() // a scheduler would serve other origins meanwhile
				req, _ := http.NewRequestWithContext(turn.Context(ctx), http.MethodGet, "http://a.example"+l, nil)
				resp, err := client.Do(req)
				if err == nil {
					resp.Body.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, l := range links {
			if errs[i] != nil {
				t.Errorf("GET %s: %v", l, errs[i])
			}
			if want := time.Duration(3*i) * time.Second; pages.got[l] != want {
				t.Errorf("GET %s sent at %v, want %v", l, pages.got[l], want)
			}
		}
		for _, got := range pages.uas {
			if got != ua {
				t.Errorf("a page was asked for with User-Agent %q, want %q", got, ua)
			}
		}
	})
}

// TestNilReservationContext checks what Reservation.Context's doc says of
// a nil Reservation, the one Scheduler.Turns yields with an error: a
// request sent with its context is paced as one with no turn, taking a turn
// of its own, rather than panicking. Two such requests to one origin under
// a 1 s spacing go out at 0 and 1 s.
func TestNilReservationContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pages := &sentPages{start: time.Now(), at: map[string][]time.Duration{}}
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{"a.example": {Body: "User-agent: *\nCrawl-delay: 1\n"}}, pages)
		p := newPacer(sites, PacerOptions{})
		client := &http.Client{Transport: NewTransport(sites, p.cache).WithPacer(p)}
		var none *Reservation
		for _, u := range []string{"http://a.example/1", "http://a.example/2"} {
			req, _ := http.NewRequestWithContext(none.Context(context.Background()), http.MethodGet, u, nil)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("GET %s: %v", u, err)
			}
			resp.Body.Close()
		}
		if got, want := pages.at["a.example"], []time.Duration{0, time.Second}; !slices.Equal(got, want) {
			t.Errorf("sent at %v, want %v", got, want)
		}
	})
}
