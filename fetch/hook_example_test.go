package fetch_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// OnFetch sees every robots.txt fetch, for logs and metrics; Stats counts
// the questions the cache answered without one.
func ExampleCache_Stats() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()

	fetched := make(chan fetch.FetchEvent, 1)
	cache := fetch.NewCache(&fetch.Options{
		Client:    srv.Client(),
		UserAgent: "Foobot/1.0",
		OnFetch: func(ev fetch.FetchEvent) {
			if ev.StoreErr != nil {
				log.Print(ev.StoreErr)
			}
			fetched <- ev
		},
	})
	for _, path := range []string{"/a", "/private/b", "/c"} {
		ok, _ := cache.Allowed(context.Background(), srv.URL+path)
		fmt.Println(path, ok)
	}

	// The hook runs once the waiting questions have their answer.
	ev := <-fetched
	fmt.Println("fetched:", ev.Result.StatusCode, ev.Source, ev.Result.Duration < time.Minute)
	st := cache.Stats()
	fmt.Println("hits:", st.Hits, "misses:", st.Misses, "fetches:", st.Fetches)
	// Output:
	// /a true
	// /private/b false
	// /c true
	// fetched: 200 fresh true
	// hits: 2 misses: 1 fetches: 1
}
