package journeys_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/gocolly/colly/v2"
	"github.com/robotstxt-go/robotstxt/fetch"
)

// colly v2 obeys robots.txt and paces its requests with one line beside
// the crawler's cache and pacer: its Transport. The pages then go out
// under the cache's User-Agent, not colly's own, and a URL robots.txt
// disallows reaches OnError with fetch.ErrDisallowed.
//
// colly's request timeout (10 s) includes the pacer's wait: with many
// requests queued for one origin (an Async collector), give colly's
// LimitRule the spacing and leave the pacer out, or raise
// c.SetRequestTimeout above the wait (package fetch, "Timeouts,
// schedulers and other HTTP clients").
func Example_colly() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: foobot\nDisallow: /private/\n")
			return
		}
		io.WriteString(w, "a page for "+r.UserAgent())
	}))
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	c := colly.NewCollector()
	c.WithTransport(fetch.NewTransport(nil, cache).WithPacer(pacer))

	c.OnResponse(func(r *colly.Response) {
		fmt.Printf("got %s: %s\n", r.Request.URL.Path, r.Body)
	})
	c.OnError(func(r *colly.Response, err error) {
		fmt.Printf("refused %s: %v\n", r.Request.URL.Path, errors.Is(err, fetch.ErrDisallowed))
	})
	for _, path := range []string{"/", "/private/x"} {
		c.Visit(srv.URL + path)
	}
	// Output:
	// got /: a page for Foobot/1.0 (+https://foo.example/bot)
	// refused /private/x: true
}
