package journeys

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/robotstxt-go/robotstxt/fetch"
)

// TestColly is colly v2 with its defaults (synchronous, its own
// User-Agent, its 10 s request timeout) plus the README's lines.
func TestColly(t *testing.T) {
	t.Parallel()
	origins := startAll(t)
	start := time.Now()

	c := colly.NewCollector()
	// The README's lines.
	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	c.WithTransport(fetch.NewTransport(nil, cache).WithPacer(pacer))

	var refused atomic.Int64
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		e.Request.Visit(e.Attr("href"))
	})
	c.OnError(func(r *colly.Response, err error) {
		if errors.Is(err, fetch.ErrDisallowed) {
			refused.Add(1)
			return
		}
		t.Errorf("%s: %v", r.Request.URL, err)
	})
	for _, o := range origins {
		if err := c.Visit(o.url + "/"); err != nil {
			t.Errorf("Visit %s: %v", o.url, err)
		}
	}
	c.Wait()
	out := check(t, origins, int(refused.Load()), time.Since(start))
	if want := disallowedLinks(origins); out.refused != want {
		t.Errorf("%d URLs refused, want %d (the disallowed links)", out.refused, want)
	}
}
