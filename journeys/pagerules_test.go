package journeys

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

// pageSite serves a robots.txt and pages whose rules come from each place a
// page states them. It records the paths requested.
func pageSite(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		html := func(head, body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<!DOCTYPE html><html><head>"+head+"</head><body>"+body+"</body></html>")
		}
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n")
		case "/":
			html("<title>home</title>", `<a href="/nofollow">a</a> <a href="/report.pdf">b</a> <a href="/private/x">c</a> <a href="/indexed">d</a>`)
		case "/nofollow":
			html(`<meta name="robots" content="nofollow">`, `<a href="/hidden">e</a>`)
		case "/report.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("X-Robots-Tag", "noindex")
			w.Write(make([]byte, 1<<20))
		case "/indexed":
			w.Header().Set("X-Robots-Tag", "googlebot: noindex")
			w.Header().Set("Content-Usage", "train-ai=y, search=y")
			html(`<meta name="foobot" content="max-snippet:30">`, "text")
		default:
			html("", "other")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(paths)
	}
}

// A colly crawler with its defaults, made to obey robots.txt by a
// fetch.Transport and to read each page's rules as the recipe in
// pagerules/page.go does: it never requests a disallowed URL, drops a noindex
// PDF at its header, follows no links of a nofollow page, and indexes the
// rest with the snippet limit and usage preferences the page and robots.txt
// state together.
func TestCollyPageRules(t *testing.T) {
	srv, requested := pageSite(t)
	cache := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})

	c := colly.NewCollector(colly.UserAgent("Foobot/1.0 (+https://foo.example/bot)"))
	c.WithTransport(fetch.NewTransport(http.DefaultTransport, cache))

	var mu sync.Mutex
	indexed := map[string]*pagerules.Page{}
	var responded, refused []string
	c.OnResponseHeaders(func(r *colly.Response) {
		var rules pagerules.Rules
		rules.AddHeader(*r.Headers, cache.Agent())
		if !rules.MayIndex(time.Now()) && !pagerules.ReadContentType(*r.Headers).HTML {
			r.Request.Abort()
		}
	})
	c.OnResponse(func(r *colly.Response) {
		page, err := pagerules.PageOf(context.Background(), cache, r.Request.URL.String(), *r.Headers, r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		r.Ctx.Put("follow", page.MayFollow())
		mu.Lock()
		defer mu.Unlock()
		responded = append(responded, r.Request.URL.Path)
		if page.IndexContent(time.Now()).May {
			indexed[r.Request.URL.Path] = page
		}
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		// c.Visit, not e.Request.Visit: a request's links share its
		// context, and a linked page's answer would overwrite this one's.
		if e.Request.Ctx.GetAny("follow") == true {
			c.Visit(e.Request.AbsoluteURL(e.Attr("href")))
		}
	})
	c.OnError(func(r *colly.Response, err error) {
		mu.Lock()
		defer mu.Unlock()
		refused = append(refused, r.Request.URL.Path)
	})
	if err := c.Visit(srv.URL + "/"); err != nil {
		t.Fatal(err)
	}
	c.Wait()

	got := requested()
	t.Logf("requested %q responded %q refused %q", got, responded, refused)
	for _, p := range []string{"/private/x", "/hidden"} {
		if slices.Contains(got, p) {
			t.Errorf("%s was requested (requests: %q)", p, got)
		}
	}
	if !slices.Contains(refused, "/private/x") {
		t.Errorf("the disallowed /private/x was not refused: %q", refused)
	}
	if slices.Contains(responded, "/report.pdf") {
		t.Error("the noindex PDF was downloaded and handed over")
	}
	var paths []string
	for p := range indexed {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if want := []string{"/", "/indexed", "/nofollow"}; !slices.Equal(paths, want) {
		t.Errorf("indexed %q, want %q", paths, want)
	}
	if p := indexed["/indexed"]; p != nil {
		if n := p.Tags.SnippetLimit(); n != 30 {
			t.Errorf("/indexed snippet limit %d, want 30 (its foobot meta tag)", n)
		}
		train := p.Usage.Prefs[robotstxt.TrainAI]
		if train.Pref != robotstxt.PrefNo || train.Source() != "robots.txt line 3" {
			t.Errorf("/indexed train-ai %v from %q, want n from robots.txt line 3 (its header's y loses)", train.Pref, train.Source())
		}
		if p.Usage.Pref(robotstxt.Search) != robotstxt.PrefYes {
			t.Errorf("/indexed search %v, want y from its header", p.Usage.Pref(robotstxt.Search))
		}
	}
}
