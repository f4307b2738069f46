package pagerules_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

// TestPageUnreachable checks that ReadPage and PageOf, for a URL whose
// robots.txt is unreachable with no good copy held, answer as every answer
// of the Cache does: the *RetryError of Cache.Decide (errors.Is
// fetch.ErrRetryLater), never a page "disallowed by robots.txt". RFC 9309
// §2.3.1.4 has the crawler assume a complete disallow while the file is
// unreachable; that is a reason to wait, not an answer about the page.
func TestPageUnreachable(t *testing.T) {
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // its port refuses connections: no answer at all
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		io.WriteString(w, "User-agent: *\n") // and no more: the body is cut short
	}))
	defer cut.Close()
	html := http.Header{"Content-Type": {"text/html"}}
	methods := []struct {
		name string
		read func(ctx context.Context, c *fetch.Cache, u string) (*pagerules.Page, error)
	}{
		{"ReadPage", func(ctx context.Context, c *fetch.Cache, u string) (*pagerules.Page, error) {
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			return pagerules.ReadPage(ctx, c, &http.Response{Request: req, Header: html})
		}},
		{"PageOf", func(ctx context.Context, c *fetch.Cache, u string) (*pagerules.Page, error) {
			return pagerules.PageOf(ctx, c, u, html, []byte("<html>"))
		}},
	}
	for _, origin := range []string{busy.URL, closed.URL, cut.URL} {
		cache := fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0", MaxRetryWait: -1})
		u := origin + "/page"
		_, want := cache.Decide(context.Background(), u)
		var wantRE *fetch.RetryError
		if !errors.As(want, &wantRE) {
			t.Fatalf("%s: Decide: %v, want a RetryError", origin, want)
		}
		for _, m := range methods {
			p, err := m.read(context.Background(), cache, u)
			var re *fetch.RetryError
			if p != nil || !errors.As(err, &re) || !errors.Is(err, fetch.ErrRetryLater) || errors.Is(err, fetch.ErrDisallowed) {
				t.Errorf("%s %s: %+v, %v; want no page and a RetryError", m.name, origin, p, err)
				continue
			}
			if re.URL != wantRE.URL || re.Status != wantRE.Status || re.RobotsURL != wantRE.RobotsURL || !re.When.Equal(wantRE.When) {
				t.Errorf("%s %s: %v\nwant the error Decide gave: %v", m.name, origin, re, wantRE)
			}
		}
	}
}
