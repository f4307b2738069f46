package fetch_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// A pool of workers crawls sites of different paces, each worker taking
// the URL whose turn comes first, at whichever site: the fast site is not
// kept waiting behind the slow one's Crawl-delay, and the crawl takes
// about as long as the slowest site alone. The lines between the recipe
// markers are the README's worker pool, word for word.
func ExampleScheduler() {
	var (
		mu      sync.Mutex
		arrived []string // site and path, in the order the pages arrived
	)
	site := func(name, robots string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				io.WriteString(w, robots)
				return
			}
			mu.Lock()
			arrived = append(arrived, name+r.URL.Path)
			mu.Unlock()
			io.WriteString(w, "a page")
		}))
	}
	slow := site("slow", "User-agent: *\nCrawl-delay: 0.5\n")
	fast := site("fast", "User-agent: foobot\nCrawl-delay: 0.05\nDisallow: /private/\n")
	defer slow.Close()
	defer fast.Close()
	urls := []string{slow.URL + "/1", slow.URL + "/2", slow.URL + "/3", fast.URL + "/1", fast.URL + "/private/2", fast.URL + "/3"}
	ctx := context.Background()
	page := func(resp *http.Response) { // the crawler's own
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	// One identity (token Foobot); one pacer: Crawl-delay per origin, back-off on 429/503.
	cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache})
	client := &http.Client{Transport: fetch.NewTransport(nil, cache).WithPacer(pacer), Timeout: 10 * time.Second}
	sched := pacer.NewScheduler() // a queue per origin; a worker gets whichever turn comes first

	for _, u := range urls {
		sched.Add(u) // an error only for a URL that is not http or https
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for turn, err := range sched.Turns(ctx) { // ends once nothing is queued or being crawled
				if err != nil {
					continue // errors.Is(err, fetch.ErrDisallowed): robots.txt says no; it cost no turn
				}
				req, _ := http.NewRequestWithContext(turn.Reservation.Context(ctx), "GET", turn.URL, nil)
				resp, err := client.Do(req) // the page, or an error that says why not
				if err != nil {
					continue
				}
				page(resp) // read it, and sched.Add the links it finds
			}
		})
	}
	wg.Wait()

	for _, name := range []string{"slow", "fast"} {
		var paths []string
		for _, a := range arrived {
			if path, ok := strings.CutPrefix(a, name); ok {
				paths = append(paths, path)
			}
		}
		fmt.Println(name+":", strings.Join(paths, " "))
	}
	fmt.Println("the fast site done before the slow site's second page:", slices.Index(arrived, "fast/3") < slices.Index(arrived, "slow/2"))
	// Output:
	// slow: /1 /2 /3
	// fast: /1 /3
	// the fast site done before the slow site's second page: true
}
