package fetch

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
	"github.com/robotstxt-go/robotstxt/internal/redirect"
)

// TestStatusIsFromStatus is the seam between a fetch and
// robotstxt.FromStatus, the one reading of a robots.txt's HTTP status
// (RFC 9309 §2.3.1): for every final status from 200 to 599 (a redirect
// without a Location is one), with a body,
// the rules of the fetch are FromStatus's, down to the answers.
func TestStatusIsFromStatus(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x\n"
	sites := fetchtest.NewSites(nil, nil)
	client := sites.Client()
	for code := 200; code <= 599; code++ {
		sites.Set("h.example", fetchtest.Answer{Status: code, Body: body})
		res, err := Fetch(context.Background(), client, "", "https://h.example/")
		if err != nil {
			t.Fatal(err)
		}
		want := robotstxt.FromStatus(code, []byte(body))
		if res.Robots.Kind() != want.Kind() || res.StatusCode != code {
			t.Errorf("status %d: fetch reads %v (status %d), FromStatus %v", code, res.Robots.Kind(), res.StatusCode, want.Kind())
		}
		for _, p := range []string{"/x", "/y"} {
			if res.Robots.Allowed("Foobot", p) != want.Allowed("Foobot", p) {
				t.Errorf("status %d, %s: fetch answers %v, FromStatus %v", code, p, res.Robots.Allowed("Foobot", p), want.Allowed("Foobot", p))
			}
		}
	}
}

// TestTooManyRedirectsNamesTheLimit: the error of a chain past the limit
// states the limit (internal/redirect.Max, RFC 9309 §2.3.1.2) and what
// the chain is read as.
func TestTooManyRedirectsNamesTheLimit(t *testing.T) {
	if want := "more than " + strconv.Itoa(maxRedirects) + " redirects, answered as a 404"; !strings.Contains(errTooManyRedirects.Error(), want) {
		t.Errorf("errTooManyRedirects = %q, want it to say %q", errTooManyRedirects, want)
	}
	if status, past := redirect.Past(maxRedirects + 1); !past || status != 404 {
		t.Errorf("a chain of %d redirects: read as %d (past: %v), want 404", maxRedirects+1, status, past)
	}
}
