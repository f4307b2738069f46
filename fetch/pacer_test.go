package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

// The pacer's tests run in synctest bubbles: time.Now and timers there
// follow a fake clock that jumps ahead whenever every goroutine of the
// bubble is blocked, so that hours of spacing take no time, and the times
// seen are exact.

// newPacer returns a pacer whose cache fetches from sites, for Foobot.
func newPacer(sites *fetchtest.Sites, o PacerOptions) *Pacer {
	o.Cache = NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	return NewPacer(&o)
}

func TestPacerSpacing(t *testing.T) {
	tests := []struct {
		robots fetchtest.Answer
		o      PacerOptions
		want   time.Duration
		reason string
	}{
		{fetchtest.Answer{Body: "User-agent: *\nDisallow: /x\n"}, PacerOptions{}, defaultDelay,
			"no Crawl-delay: the default delay"},
		{fetchtest.Answer{Body: "User-agent: *\nCrawl-delay: 5\n"}, PacerOptions{}, 5 * time.Second,
			"Crawl-delay in seconds"},
		{fetchtest.Answer{Body: "User-agent: *\nCrawl-delay: 0.25\n"}, PacerOptions{}, 250 * time.Millisecond,
			"a fractional Crawl-delay"},
		{fetchtest.Answer{Body: "User-agent: foobot\nCrawl-delay: 7\n\nUser-agent: *\nCrawl-delay: 2\n"}, PacerOptions{}, 7 * time.Second,
			"the agent's own group decides, as for the rules"},
		{fetchtest.Answer{Body: "User-agent: other\nCrawl-delay: 9\n"}, PacerOptions{}, defaultDelay,
			"another crawler's Crawl-delay does not count"},
		{fetchtest.Answer{Body: "User-agent: *\nCrawl-delay: 300000\n"}, PacerOptions{}, defaultMaxDelay,
			"83 hours are capped to MaxDelay unless the crawler allows them"},
		{fetchtest.Answer{Body: "User-agent: *\nCrawl-delay: 300000\n"}, PacerOptions{MaxDelay: 100 * time.Hour}, 300000 * time.Second,
			"a crawler that allows it waits 83 hours"},
		{fetchtest.Answer{Body: "User-agent: *\nCrawl-delay: 0\n"}, PacerOptions{MinDelay: 2 * time.Second}, 2 * time.Second,
			"MinDelay floors a short Crawl-delay"},
		{fetchtest.Answer{Body: "User-agent: *\nCrawl-delay: 0\n"}, PacerOptions{}, 0,
			"Crawl-delay: 0 asks for no spacing"},
		{fetchtest.Answer{Body: ""}, PacerOptions{Delay: 3 * time.Second}, 3 * time.Second,
			"the crawler's own default delay"},
		{fetchtest.Answer{Body: ""}, PacerOptions{Delay: -1}, 0,
			"a negative Delay means none"},
		{fetchtest.Answer{Body: ""}, PacerOptions{Delay: time.Minute, MaxDelay: 10 * time.Second}, 10 * time.Second,
			"MaxDelay bounds the default delay too"},
		{fetchtest.Answer{Body: ""}, PacerOptions{MinDelay: 20 * time.Second, MaxDelay: 10 * time.Second}, 20 * time.Second,
			"MinDelay wins over a smaller MaxDelay"},
		{fetchtest.Answer{Status: 404}, PacerOptions{}, defaultDelay,
			"no robots.txt: the default delay"},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			sites := fetchtest.NewSites(map[string]fetchtest.Answer{"example.com": tt.robots}, nil)
			p := newPacer(sites, tt.o)
			start := time.Now()
			for i := range 4 {
				if err := p.Wait(context.Background(), fmt.Sprintf("http://example.com/page%d", i)); err != nil {
					t.Fatal(err)
				}
				if got, want := time.Since(start), time.Duration(i)*tt.want; got != want {
					t.Errorf("turn %d at %v, want %v (%s)", i, got, want, tt.reason)
				}
			}
		})
	}
}

// TestPacerNoCache checks a pacer without a cache: Delay for every origin,
// and origins do not wait for one another.
func TestPacerNoCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: 2 * time.Second})
		start := time.Now()
		for i, u := range []string{"http://a.example/", "http://b.example/", "http://a.example/x", "https://a.example/", "http://A.EXAMPLE:80/y"} {
			if err := p.Wait(context.Background(), u); err != nil {
				t.Fatal(err)
			}
			want := []time.Duration{0, 0, 2 * time.Second, 2 * time.Second, 4 * time.Second}[i]
			if got := time.Since(start); got != want {
				t.Errorf("%s at %v, want %v (one origin per scheme, host and port)", u, got, want)
			}
		}
	})
}

// TestPacerFIFO checks that callers waiting for one origin get their turns
// in the order they came, one per spacing.
func TestPacerFIFO(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: time.Second})
		start := time.Now()
		const n = 50
		var (
			mu    sync.Mutex
			order []int
			at    []time.Duration
		)
		for i := range n {
			go func() {
				if err := p.Wait(context.Background(), "http://example.com/"); err != nil {
					t.Error(err)
				}
				mu.Lock()
				order, at = append(order, i), append(at, time.Since(start))
				mu.Unlock()
			}()
			synctest.Wait() // goroutine i is queued before i+1 starts
		}
		time.Sleep(n * time.Second)
		synctest.Wait()
		for i := range n {
			if order[i] != i || at[i] != time.Duration(i)*time.Second {
				t.Fatalf("turn %d went to caller %d at %v, want caller %d at %ds", i, order[i], at[i], i, i)
			}
		}
	})
}

// TestPacerCancel checks that a caller whose context ends leaves the queue
// at once, without holding up those behind it.
func TestPacerCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: 10 * time.Second})
		ctx := context.Background()
		start := time.Now()
		if err := p.Wait(ctx, "http://example.com/a"); err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		var errB error
		var atB, atC time.Duration
		done := make(chan struct{}, 2)
		go func() {
			errB = p.Wait(cctx, "http://example.com/b")
			atB = time.Since(start)
			done <- struct{}{}
		}()
		synctest.Wait()
		go func() {
			if err := p.Wait(ctx, "http://example.com/c"); err != nil {
				t.Error(err)
			}
			atC = time.Since(start)
			done <- struct{}{}
		}()
		synctest.Wait()
		time.Sleep(3 * time.Second)
		cancel()
		<-done
		<-done
		if !errors.Is(errB, context.Canceled) || atB != 3*time.Second {
			t.Errorf("cancelled caller: %v at %v, want context.Canceled at 3s", errB, atB)
		}
		if atC != 10*time.Second {
			t.Errorf("caller behind the cancelled one went at %v, want 10s: the cancelled turn is not spent", atC)
		}

		// A context that has ended already takes no turn at all.
		if err := p.Wait(cctx, "http://example.com/d"); !errors.Is(err, context.Canceled) {
			t.Errorf("Wait with an ended context = %v, want context.Canceled", err)
		}
		if err := p.Wait(ctx, "http://example.com/e"); err != nil || time.Since(start) != 20*time.Second {
			t.Errorf("next turn at %v (%v), want 20s", time.Since(start), err)
		}
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value  string
		wait   time.Duration
		ok     bool
		reason string
	}{
		{"", 0, false, "no header"},
		{"120", 2 * time.Minute, true, "RFC 9110 §10.2.3: delay-seconds"},
		{" 0 ", 0, true, "zero seconds, spaces trimmed"},
		{"Wed, 01 Jan 2025 12:30:00 GMT", 30 * time.Minute, true, "RFC 9110 §10.2.3: an HTTP date"},
		{"Wednesday, 01-Jan-25 12:00:10 GMT", 10 * time.Second, true, "the obsolete RFC 850 date form"},
		{"Wed Jan  1 12:01:00 2025", time.Minute, true, "the asctime date form"},
		{"Wed, 01 Jan 2025 11:00:00 GMT", 0, true, "a date in the past is no wait"},
		{"99999999999999999999", maxAgeCap * time.Second, true, "too many digits is the largest value, bounded later by MaxBackoff"},
		{"-5", 0, false, "a negative number is invalid"},
		{"1.5", 0, false, "delay-seconds is an integer"},
		{"soon", 0, false, "neither form"},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.value != "" {
			h.Set("Retry-After", tt.value)
		}
		wait, ok := retryAfter(h, now)
		if wait != tt.wait || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v (%s)", tt.value, wait, ok, tt.wait, tt.ok, tt.reason)
		}
	}
}

// TestPacerBackoff checks the pauses 429 and 503 answers impose, one row
// per answer in sequence to one origin.
func TestPacerBackoff(t *testing.T) {
	type answer struct {
		status     int
		retryAfter string
		pause      time.Duration
		reason     string
	}
	tests := []answer{
		{429, "120", 2 * time.Minute, "429 with Retry-After in seconds"},
		{503, "", 2 * defaultBackoff, "503 without Retry-After: the back-off, doubled as the second answer in a row"},
		{503, "", 4 * defaultBackoff, "a third in a row doubles again"},
		{429, "garbage", 8 * defaultBackoff, "an invalid Retry-After counts as none"},
		{200, "", 0, "a good answer ends the run"},
		{503, "", defaultBackoff, "so the back-off starts over"},
		{503, "", 2 * defaultBackoff, "and doubles again, the origin remembered while backing off"},
		{500, "3600", 0, "only 429 and 503 pause: a 500 is no request to slow down"},
		{503, "+date+90m", defaultMaxBackoff, "an HTTP date 90 minutes ahead is capped to MaxBackoff"},
		{429, "+date-1m", 0, "a date in the past imposes no pause"},
		{429, "99999999999", defaultMaxBackoff, "years of Retry-After are capped to MaxBackoff"},
	}
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: time.Second})
		ctx := context.Background()
		const u = "http://example.com/page"
		for i, tt := range tests {
			if err := p.Wait(ctx, u); err != nil {
				t.Fatal(err)
			}
			h := http.Header{}
			switch tt.retryAfter {
			case "+date+90m":
				h.Set("Retry-After", time.Now().Add(90*time.Minute).UTC().Format(http.TimeFormat))
			case "+date-1m":
				h.Set("Retry-After", time.Now().Add(-time.Minute).UTC().Format(http.TimeFormat))
			case "":
			default:
				h.Set("Retry-After", tt.retryAfter)
			}
			sent := time.Now()
			if pause := p.Observe(u, tt.status, h); pause != tt.pause {
				t.Errorf("answer %d (%d %q): pause %v, want %v (%s)", i, tt.status, tt.retryAfter, pause, tt.pause, tt.reason)
			}
			// The next turn comes after the pause or the spacing,
			// whichever ends later.
			if err := p.Wait(ctx, u); err != nil {
				t.Fatal(err)
			}
			if got, want := time.Since(sent), max(tt.pause, time.Second); got != want {
				t.Errorf("answer %d: next turn after %v, want %v (%s)", i, got, want, tt.reason)
			}
			time.Sleep(time.Second) // each row starts free of spacing
		}
	})
}

// TestPacerBackoffQueue checks that a pause holds back callers already
// waiting, not only those who come later.
func TestPacerBackoffQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: time.Second})
		ctx := context.Background()
		start := time.Now()
		p.Wait(ctx, "http://example.com/")
		var at time.Duration
		go func() {
			p.Wait(ctx, "http://example.com/")
			at = time.Since(start)
		}()
		synctest.Wait()
		p.Observe("http://example.com/", 429, http.Header{"Retry-After": {"30"}})
		time.Sleep(time.Minute)
		synctest.Wait()
		if at != 30*time.Second {
			t.Errorf("a caller queued before the 429 went at %v, want 30s", at)
		}
	})
}

// TestPacerManyOrigins runs thousands of origins at once, several callers
// each, and checks every origin's turns: exactly one spacing apart, none
// early and none late, then that every origin is forgotten once idle.
func TestPacerManyOrigins(t *testing.T) {
	origins, callers := 2000, 3
	if testing.Short() {
		origins = 300
	}
	synctest.Test(t, func(t *testing.T) {
		answers := make(map[string]fetchtest.Answer, origins)
		for i := range origins {
			answers[fmt.Sprintf("h%d.example", i)] = fetchtest.Answer{Body: fmt.Sprintf("User-agent: *\nCrawl-delay: %d\n", 1+i%5)}
		}
		sites := fetchtest.NewSites(answers, nil)
		p := newPacer(sites, PacerOptions{})
		start := time.Now()
		turns := make([][]time.Duration, origins)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range origins {
			for c := range callers {
				wg.Go(func() {
					u := fmt.Sprintf("http://h%d.example/page%d", i, c)
					if err := p.Wait(context.Background(), u); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					turns[i] = append(turns[i], time.Since(start))
					mu.Unlock()
				})
			}
		}
		wg.Wait()
		for i, ts := range turns {
			slices.Sort(ts)
			delay := time.Duration(1+i%5) * time.Second
			for k, at := range ts {
				if at != time.Duration(k)*delay {
					t.Fatalf("origin %d: turns at %v, want one every %v from 0", i, ts, delay)
				}
			}
			if sites.Fetches(fmt.Sprintf("h%d.example", i)) != 1 {
				t.Fatalf("origin %d: robots.txt fetched %d times", i, sites.Fetches(fmt.Sprintf("h%d.example", i)))
			}
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if n := p.Len(); n != 0 {
			t.Errorf("%d origins still remembered after every spacing ended, want 0", n)
		}
	})
}

// TestPacerMaxOrigins checks the bound on idle origins: past MaxOrigins the
// one idle the longest is forgotten, and it may go again at once.
func TestPacerMaxOrigins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(&PacerOptions{Delay: time.Hour, MaxDelay: time.Hour, MaxOrigins: 100})
		ctx := context.Background()
		for i := range 1000 {
			if err := p.Wait(ctx, fmt.Sprintf("http://h%d.example/", i)); err != nil {
				t.Fatal(err)
			}
			if n := p.Len(); n > 100 {
				t.Fatalf("after %d origins, %d remembered; want at most 100", i+1, n)
			}
		}
		start := time.Now()
		p.Wait(ctx, "http://h0.example/") // forgotten long ago
		p.Wait(ctx, "http://h999.example/")
		if got := time.Since(start); got != time.Hour {
			t.Errorf("forgotten origin and remembered one took %v together, want exactly the remembered one's hour", got)
		}
	})
}

func TestPacerErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{"example.com": {}}, nil)
		ctx := context.Background()
		tests := []struct {
			p      *Pacer
			url    string
			err    error
			reason string
		}{
			{newPacer(sites, PacerOptions{}), "/relative", robotstxt.ErrRelativeURL, "a URL without origin"},
			{newPacer(sites, PacerOptions{}), "ftp://example.com/", ErrUnsupportedScheme, "only http and https are paced"},
			{NewPacer(&PacerOptions{Cache: NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"}).For("Foobot/1.0")}), "http://example.com/", errInvalidAgent, "Crawl-delay is read for a product token only"},
			{NewPacer(&PacerOptions{Cache: NewCache(&Options{Client: sites.Client()})}), "http://example.com/", errInvalidAgent, "a cache without an agent gives none"},
			{NewPacer(nil), "http://example.com/", nil, "without a cache no agent is asked for"},
		}
		for _, tt := range tests {
			err := tt.p.Wait(ctx, tt.url)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Errorf("Wait(%q) = %v, want %v (%s)", tt.url, err, tt.err, tt.reason)
			}
			if pause := tt.p.Observe(tt.url, 429, nil); tt.err != nil && tt.err != errInvalidAgent && pause != 0 {
				t.Errorf("Observe(%q) paused %v, want nothing for a URL without origin", tt.url, pause)
			}
		}
	})
}
