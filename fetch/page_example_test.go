package fetch_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
)

// ReadPage answers what a crawler may do with a page it fetched, from
// robots.txt, the X-Robots-Tag header and the robots meta tags, and hands
// the body back whole for the crawler to read.
func ExampleCache_ReadPage() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("X-Robots-Tag", "foobot: max-snippet:50")
		io.WriteString(w, `<html><head><meta name="robots" content="nofollow, nosnippet"></head><body>Hello</body></html>`)
	}))
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	resp, err := srv.Client().Get(srv.URL + "/article")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	page, err := cache.ReadPage(context.Background(), resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body) // the whole page, as if nothing had been read

	fmt.Println("index:", page.MayIndex(time.Now()))
	fmt.Println("follow:", page.MayFollow())
	fmt.Println("snippet limit:", page.Rules.SnippetLimit())
	fmt.Println("train-ai:", page.Usage.Pref(robotstxt.TrainAI), "from", page.Usage.Prefs[robotstxt.TrainAI].Source())
	fmt.Println("body bytes:", len(body))
	// Output:
	// index: true
	// follow: false
	// snippet limit: 0
	// train-ai: n from robots.txt line 3
	// body bytes: 94
}
