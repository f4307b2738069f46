package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

// TestReserveSpendsNoTurnOnDisallowed checks that Reserve knows the rules
// before it reserves (#27 item 3): an origin with Crawl-delay 1 and four
// disallowed links between two allowed ones takes one second, not five,
// and each disallowed link is refused with the rule that decided.
func TestReserveSpendsNoTurnOnDisallowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"a.example": {Body: "User-agent: *\nCrawl-delay: 1\nDisallow: /no\n"},
		}, nil)
		p := newPacer(sites, PacerOptions{})
		ctx := context.Background()
		start := time.Now()
		for _, path := range []string{"/yes1", "/no/1", "/no/2", "/no/3", "/no/4", "/yes2"} {
			err := p.Wait(ctx, "http://a.example"+path)
			var de *DisallowedError
			if strings.HasPrefix(path, "/no") {
				if !errors.As(err, &de) || de.Line != 3 || de.Rule != "/no" {
					t.Errorf("Wait %s: %v, want a DisallowedError for line 3", path, err)
				}
			} else if err != nil {
				t.Errorf("Wait %s: %v", path, err)
			}
		}
		if got := time.Since(start); got != time.Second {
			t.Errorf("two allowed pages among four disallowed took %v, want 1s", got)
		}
	})
}

// TestWaitEndedIsPastDeadline checks that every failure while waiting for
// a turn is ErrWaitPastDeadline (#27 item 4): a turn that would come after
// the deadline (at once), and a context that ends during the wait, by its
// deadline or cancelled, through a paced Transport and Pacer.Wait alike;
// each names the origin, the wait and the Crawl-delay line that set it.
func TestWaitEndedIsPastDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"a.example": {Body: "User-agent: *\nCrawl-delay: 1e3\nCrawl-delay: 5\n"},
		}, nil)
		p := newPacer(sites, PacerOptions{})
		tr := NewTransport(sites, p.cache).WithPacer(p)
		ctx := context.Background()
		if err := p.Wait(ctx, "http://a.example/0"); err != nil {
			t.Fatal(err)
		}
		check := func(what string, err error, ctxErr error) {
			t.Helper()
			var we *WaitError
			if !errors.Is(err, ErrWaitPastDeadline) || !errors.As(err, &we) || ctxErr != nil && !errors.Is(err, ctxErr) {
				t.Errorf("%s: %v, want a WaitError, ErrWaitPastDeadline and %v", what, err, ctxErr)
				return
			}
			if we.Origin != "http://a.example" || we.Delay <= 0 ||
				!strings.Contains(we.Reason, "Crawl-delay: 5 in http://a.example/robots.txt line 3") {
				t.Errorf("%s: origin %q, wait %v, reason %q; want the Crawl-delay of line 3", what, we.Origin, we.Delay, we.Reason)
			}
		}

		// A deadline before the turn: at once.
		short, cancel := context.WithTimeout(ctx, time.Second)
		req, _ := http.NewRequestWithContext(short, http.MethodGet, "http://a.example/1", nil)
		_, err := tr.RoundTrip(req)
		check("deadline before the turn", err, nil)
		cancel()

		// The context cancelled during the wait.
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(time.Second, cancel)
		req, _ = http.NewRequestWithContext(cctx, http.MethodGet, "http://a.example/2", nil)
		_, err = tr.RoundTrip(req)
		check("cancelled during the wait", err, context.Canceled)

		// Pacer.Wait, cancelled during the wait.
		cctx, cancel = context.WithCancel(ctx)
		time.AfterFunc(time.Second, cancel)
		check("Pacer.Wait cancelled", p.Wait(cctx, "http://a.example/3"), context.Canceled)
	})
}

// TestWaitPushedPastClientTimeout checks the wait that is admitted and then
// outlives its deadline, as colly's requests did (#27 item 4): a request
// whose turn is 4 s away under a 5 s http.Client timeout, when a 429 with
// Retry-After pushes the origin's turns back during its wait, fails with
// ErrWaitPastDeadline before the client's own timeout, whose error would
// say only "Client.Timeout exceeded".
func TestWaitPushedPastClientTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"a.example": {Body: "User-agent: *\nCrawl-delay: 4\n"},
		}, nil)
		p := newPacer(sites, PacerOptions{})
		client := &http.Client{Transport: NewTransport(sites, p.cache).WithPacer(p), Timeout: 5 * time.Second}
		resp, err := client.Get("http://a.example/first")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		start := time.Now()
		time.AfterFunc(time.Second, func() {
			p.Observe("http://a.example/x", http.StatusTooManyRequests, http.Header{"Retry-After": {"30"}})
		})
		_, err = client.Get("http://a.example/second")
		var we *WaitError
		if !errors.Is(err, ErrWaitPastDeadline) || !errors.As(err, &we) || !strings.Contains(we.Reason, "Retry-After 30s after a 429") {
			t.Errorf("a wait pushed past the client's timeout: %v, want a WaitError naming the Retry-After", err)
		}
		if got := time.Since(start); got != 5*time.Second-waitGuard {
			t.Errorf("it failed after %v, want %v, before the client's timeout", got, 5*time.Second-waitGuard)
		}
	})
}

// BenchmarkPacerReserve is Reserve for an origin whose robots.txt is
// cached and asks no spacing: the cost of the rules it reads first.
func BenchmarkPacerReserve(b *testing.B) {
	sites := fetchtest.NewSites(map[string]fetchtest.Answer{
		"a.example": {Body: "User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n"},
	}, nil)
	p := newPacer(sites, PacerOptions{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Reserve(ctx, "http://a.example/some/page?q=1"); err != nil {
			b.Fatal(err)
		}
	}
}
