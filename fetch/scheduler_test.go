package fetch

import (
	"context"
	"errors"
	"fmt"
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

// sentPages records when each page arrived at the made-up sites, from the
// start of a synctest bubble, so the times are exact.
type sentPages struct {
	start time.Time
	mu    sync.Mutex
	at    map[string][]time.Duration // by host, in arrival order
	paths []string                   // host and path, in arrival order
}

func (s *sentPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at[r.Host] = append(s.at[r.Host], time.Since(s.start))
	s.paths = append(s.paths, r.Host+r.URL.Path)
	io.WriteString(w, "page")
}

// schedCrawl crawls urls with workers ranging over a Scheduler, sending
// each through a Transport paced by p, and returns the errors yielded.
func schedCrawl(t *testing.T, s *Scheduler, client *http.Client, workers int) []error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	ctx := context.Background()
	for range workers {
		wg.Go(func() {
			for turn, err := range s.Turns(ctx) {
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					continue
				}
				req, _ := http.NewRequestWithContext(turn.Reservation.Context(ctx), "GET", turn.URL, nil)
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("GET %s: %v", turn.URL, err)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	return errs
}

// TestSchedulerServesFreeTurns checks that workers never wait at one origin
// while another has a turn free: a.example (Crawl-delay 2) is queued first
// with 5 pages, b.example (Crawl-delay 1) after it with 5. Three workers
// send b's first page at once, each origin's pages a Crawl-delay apart,
// and end with a's last page at 8 s, not at 8 + 4 s; a disallowed page is
// yielded with its error and costs b no turn.
func TestSchedulerServesFreeTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pages := &sentPages{start: time.Now(), at: map[string][]time.Duration{}}
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"a.example": {Body: "User-agent: *\nCrawl-delay: 2\n"},
			"b.example": {Body: "User-agent: *\nCrawl-delay: 1\nDisallow: /no\n"},
		}, pages)
		p := newPacer(sites, PacerOptions{})
		client := &http.Client{Transport: NewTransport(sites, p.cache).WithPacer(p)}
		s := p.NewScheduler()
		for _, u := range []string{"http://a.example/1", "http://a.example/2", "http://a.example/3", "http://a.example/4", "http://a.example/5",
			"http://b.example/1", "http://b.example/no", "http://b.example/2", "http://b.example/3", "http://b.example/4", "http://b.example/5"} {
			if err := s.Add(u); err != nil {
				t.Fatal(err)
			}
		}
		errs := schedCrawl(t, s, client, 3)
		var de *DisallowedError
		if len(errs) != 1 || !errors.As(errs[0], &de) || de.URL != "http://b.example/no" {
			t.Errorf("errors yielded: %v, want one DisallowedError for http://b.example/no", errs)
		}
		sec := func(s ...int) []time.Duration {
			var d []time.Duration
			for _, n := range s {
				d = append(d, time.Duration(n)*time.Second)
			}
			return d
		}
		if got, want := pages.at["a.example"], sec(0, 2, 4, 6, 8); !slices.Equal(got, want) {
			t.Errorf("a.example's pages at %v, want %v (Crawl-delay 2)", got, want)
		}
		if got, want := pages.at["b.example"], sec(0, 1, 2, 3, 4); !slices.Equal(got, want) {
			t.Errorf("b.example's pages at %v, want %v (Crawl-delay 1, not behind a.example)", got, want)
		}
		if got := time.Since(pages.start); got != 8*time.Second {
			t.Errorf("the crawl took %v, want 8s (a.example's own time)", got)
		}
		if n := p.Len(); n > 2 {
			t.Errorf("the pacer remembers %d origins", n)
		}
	})
}

// TestSchedulerTurnHandedOutLate checks that the spacing runs from the
// request's start: a turn that comes while every worker is busy, and is
// handed out half a second late, pushes the origin's next turn half a
// second back, so that two requests are never less than the spacing apart.
func TestSchedulerTurnHandedOutLate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := NewPacer(&PacerOptions{Delay: time.Second})
		s := p.NewScheduler()
		for _, u := range []string{"http://a.example/1", "http://a.example/2", "http://a.example/3"} {
			s.Add(u)
		}
		var (
			mu  sync.Mutex
			got = map[string]time.Duration{}
		)
		ctx := context.Background()
		work := func(hold map[string]chan struct{}) {
			for turn, err := range s.Turns(ctx) {
				if err != nil {
					t.Error(err)
					continue
				}
				mu.Lock()
				got[turn.URL] = time.Since(start)
				mu.Unlock()
				if c := hold[turn.URL]; c != nil {
					<-c
				}
			}
		}
		release1, release2 := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		// The first worker takes a's first page and stays busy.
		wg.Go(func() { work(map[string]chan struct{}{"http://a.example/1": release1}) })
		synctest.Wait()
		// The second reserves a's second turn, for 1 s, then takes b's
		// page, free at once, and stays busy too.
		s.Add("http://b.example/1")
		wg.Go(func() { work(map[string]chan struct{}{"http://b.example/1": release2}) })
		synctest.Wait()
		time.Sleep(1500 * time.Millisecond)
		close(release1) // a's second turn came at 1 s; it is handed out now
		synctest.Wait()
		close(release2)
		wg.Wait()
		want := map[string]time.Duration{
			"http://a.example/1": 0,
			"http://b.example/1": 0,
			"http://a.example/2": 1500 * time.Millisecond,
			"http://a.example/3": 2500 * time.Millisecond, // not 2 s: 1 s after a/2 was handed out
		}
		for u, w := range want {
			if got[u] != w {
				t.Errorf("%s handed out at %v, want %v", u, got[u], w)
			}
		}
	})
}

// TestPacerSchedulersShareTurns checks what Pacer.NewScheduler's doc says
// of two schedulers over one pacer: each hands out only the URLs added to
// it, and they share the origin's turns, so that four pages of one origin,
// two queued in each, go out one spacing (1 s) apart, not two at a time.
func TestPacerSchedulersShareTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := NewPacer(&PacerOptions{Delay: time.Second})
		s1, s2 := p.NewScheduler(), p.NewScheduler()
		s1.Add("http://a.example/1")
		s1.Add("http://a.example/2")
		s2.Add("http://a.example/3")
		s2.Add("http://a.example/4")
		var (
			mu  sync.Mutex
			got = map[*Scheduler][]string{}
			at  []time.Duration
			wg  sync.WaitGroup
		)
		for _, s := range []*Scheduler{s1, s2} {
			wg.Go(func() {
				for turn, err := range s.Turns(context.Background()) {
					if err != nil {
						t.Error(err)
						continue
					}
					mu.Lock()
					got[s] = append(got[s], turn.URL)
					at = append(at, time.Since(start))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if !slices.Equal(got[s1], []string{"http://a.example/1", "http://a.example/2"}) || !slices.Equal(got[s2], []string{"http://a.example/3", "http://a.example/4"}) {
			t.Errorf("handed out %v by the first scheduler and %v by the second, want each its own two in order", got[s1], got[s2])
		}
		slices.Sort(at)
		if want := []time.Duration{0, time.Second, 2 * time.Second, 3 * time.Second}; !slices.Equal(at, want) {
			t.Errorf("handed out at %v, want %v: one turn of the origin each", at, want)
		}
	})
}

// TestSchedulerEnds checks when the workers' loops end: once nothing is
// queued and no loop body runs, so that links added by a body are handed
// out too; and at once with ctx's error when ctx ends, the URLs not handed
// out staying queued for a later Turns.
func TestSchedulerEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: time.Second})
		s := p.NewScheduler()
		s.Add("http://a.example/")
		var (
			mu   sync.Mutex
			seen []string
			wg   sync.WaitGroup
		)
		for range 4 {
			wg.Go(func() {
				for turn, err := range s.Turns(context.Background()) {
					if err != nil {
						t.Error(err)
						continue
					}
					mu.Lock()
					seen = append(seen, turn.URL)
					n := len(seen)
					mu.Unlock()
					// Each page links to two more, down to depth 3, on
					// two origins.
					if depth := strings.Count(turn.URL, "/") - 3; depth < 3 {
						for _, host := range []string{"a.example", "b.example"} {
							s.Add(fmt.Sprintf("http://%s/%s%d/", host, strings.SplitN(turn.URL, "/", 4)[3], n))
						}
					}
				}
			})
		}
		wg.Wait()
		if len(seen) != 1+2+4+8 {
			t.Errorf("%d pages handed out, want 15: %v", len(seen), seen)
		}

		time.Sleep(2 * time.Second) // a.example's next turn is free
		s.Add("http://a.example/x")
		s.Add("http://a.example/y")
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		var got []string
		var last error
		for turn, err := range s.Turns(ctx) {
			if err != nil {
				last = err
				continue
			}
			got = append(got, turn.URL)
		}
		if !errors.Is(last, context.DeadlineExceeded) || len(got) != 1 {
			t.Errorf("with ctx ending at 0.5 s: handed out %v, ended with %v; want a/x, then ctx's error", got, last)
		}
		got = nil
		for turn, err := range s.Turns(context.Background()) {
			if err != nil {
				t.Error(err)
				continue
			}
			got = append(got, turn.URL)
		}
		if !slices.Equal(got, []string{"http://a.example/y"}) {
			t.Errorf("after ctx ended, a new Turns handed out %v, want a/y, which stayed queued", got)
		}
	})
}

// TestSchedulerAddRefuses checks that Add refuses a URL with no http or
// https origin, at once, as Reserve would.
func TestSchedulerAddRefuses(t *testing.T) {
	s := NewPacer(nil).NewScheduler()
	for _, u := range []string{"", "/relative", "ftp://a.example/", "mailto:a@b.example", "http://"} {
		if err := s.Add(u); err == nil {
			t.Errorf("Add(%q) = nil, want an error", u)
		}
	}
	if err := s.Add("https://a.example/ok"); err != nil {
		t.Errorf("Add: %v", err)
	}
}

// TestSchedulerRace runs many workers over many origins with short delays
// on the real clock, for the race detector and for the handing out of
// each turn once: each URL is handed out exactly once.
func TestSchedulerRace(t *testing.T) {
	p := NewPacer(&PacerOptions{Delay: time.Millisecond})
	s := p.NewScheduler()
	want := map[string]bool{}
	for o := range 20 {
		for i := range 10 {
			u := fmt.Sprintf("http://o%d.example/%d", o, i)
			want[u] = true
			s.Add(u)
		}
	}
	var (
		mu  sync.Mutex
		got = map[string]int{}
		wg  sync.WaitGroup
	)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 8 {
		wg.Go(func() {
			for turn, err := range s.Turns(ctx) {
				if err != nil {
					t.Error(err)
					continue
				}
				mu.Lock()
				got[turn.URL]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for u := range want {
		if got[u] != 1 {
			t.Errorf("%s handed out %d times, want once", u, got[u])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d URLs handed out, want %d", len(got), len(want))
	}
}

// TestSchedulerBodyPanics checks that a loop body that panics still ends:
// the other workers' loops end once the rest is handed out, instead of
// waiting for it forever.
func TestSchedulerBodyPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewPacer(&PacerOptions{Delay: -1}).NewScheduler()
		s.Add("http://a.example/1")
		s.Add("http://b.example/1")
		var wg sync.WaitGroup
		wg.Go(func() {
			defer func() { recover() }()
			for range s.Turns(context.Background()) {
				panic("a crawler's bug")
			}
		})
		synctest.Wait()
		n := 0
		wg.Go(func() {
			for range s.Turns(context.Background()) {
				n++
			}
		})
		wg.Wait()
		if n != 1 {
			t.Errorf("the second worker got %d URLs, want the one left", n)
		}
	})
}
