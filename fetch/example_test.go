package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// site serves a robots.txt and pages, as a web site would.
func site() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Cache-Control", "max-age=3600")
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		io.WriteString(w, "a page")
	}))
}

// Fetch fetches the robots.txt of a URL's origin once and tells what
// happened.
func ExampleFetch() {
	srv := site()
	defer srv.Close()

	res, err := fetch.Fetch(context.Background(), srv.Client(), "Foobot/1.0", srv.URL+"/some/page")
	if err != nil {
		fmt.Println(err) // only for a URL without an http or https origin
		return
	}
	fmt.Println("status:", res.StatusCode)
	fmt.Println("rules:", res.Robots.Kind())
	fmt.Println("bytes:", res.Bytes, "truncated:", res.Truncated)
	fmt.Println("kept for:", res.TTL)
	fmt.Println("/private/a:", res.Robots.Allowed("Foobot", "/private/a"))
	fmt.Println("/public:", res.Robots.Allowed("Foobot", "/public"))
	// Output:
	// status: 200
	// rules: parsed
	// bytes: 34 truncated: false
	// kept for: 1h0m0s
	// /private/a: false
	// /public: true
}

// A Cache answers for any URL, fetching each origin's robots.txt once and
// keeping it until it expires.
func ExampleCache() {
	srv := site()
	defer srv.Close()

	cache := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	ctx := context.Background()
	for _, path := range []string{"/", "/private/report.pdf", "/public/private/"} {
		ok, err := cache.Allowed(ctx, "Foobot", srv.URL+path)
		fmt.Println(path, ok, err)
	}

	d, _ := cache.Decide(ctx, "Foobot", srv.URL+"/private/x")
	fmt.Printf("line %d %q, rules %s, %d origin cached\n", d.Line, d.Rule, d.Source, cache.Len())
	// Output:
	// / true <nil>
	// /private/report.pdf false <nil>
	// /public/private/ true <nil>
	// line 2 "/private/", rules fresh, 1 origin cached
}

// A Transport makes an http.Client obey robots.txt with one line of setup.
func ExampleNewTransport() {
	srv := site()
	defer srv.Close()

	client := &http.Client{Transport: fetch.NewTransport(nil, "Foobot", nil)}

	resp, err := client.Get(srv.URL + "/public")
	if err == nil {
		fmt.Println("/public:", resp.Status)
		resp.Body.Close()
	}

	_, err = client.Get(srv.URL + "/private/x")
	fmt.Println("/private/x refused:", errors.Is(err, fetch.ErrDisallowed))
	var de *fetch.DisallowedError
	if errors.As(err, &de) {
		fmt.Printf("by line %d, Disallow: %s\n", de.Line, de.Rule)
	}
	// Output:
	// /public: 200 OK
	// /private/x refused: true
	// by line 2, Disallow: /private/
}
