package pagerules_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

// ReadPage answers what a crawler may do with a page it fetched, from
// robots.txt, the X-Robots-Tag header and the robots meta tags, and hands
// the body back whole for the crawler to read.
func ExampleReadPage() {
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
	page, err := pagerules.ReadPage(context.Background(), cache, resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body) // the whole page, as if nothing had been read

	fmt.Println("index content:", page.IndexContent(time.Now()).May)
	fmt.Println("show URL:", page.ShowURL(time.Now()).May)
	fmt.Println("follow:", page.MayFollow())
	fmt.Println("snippet limit:", page.Tags.SnippetLimit())
	fmt.Println("train-ai:", page.Usage.Pref(robotstxt.TrainAI), "from", page.Usage.Prefs[robotstxt.TrainAI].Source())
	fmt.Println("body bytes:", len(body))
	// Output:
	// index content: true
	// show URL: true
	// follow: false
	// snippet limit: 0
	// train-ai: n from robots.txt line 3
	// body bytes: 94
}

// A page robots.txt disallows is not fetched, so its content is not
// indexed; but its noindex is never seen either, and Google may show its
// URL from the links to it. IndexContent and ShowURL answer the two
// questions apart, each with the signal that decided. Here both pages
// state noindex in their header.
func ExamplePage_ShowURL() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	header := http.Header{"X-Robots-Tag": {"noindex"}}
	now := time.Now()
	for _, path := range []string{"/private/page", "/public/page"} {
		page, err := pagerules.PageOf(context.Background(), cache, srv.URL+path, header, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		content, url := page.IndexContent(now), page.ShowURL(now)
		fmt.Printf("%s: index content %v (%s), show URL %v (%s)\n", path, content.May, content.Source(), url.May, url.Source())
	}
	// Output:
	// /private/page: index content false (robots.txt line 2 (Disallow: "/private/")), show URL true (robots.txt line 2 (Disallow: "/private/"))
	// /public/page: index content false (X-Robots-Tag line 1: noindex), show URL false (X-Robots-Tag line 1: noindex)
}
