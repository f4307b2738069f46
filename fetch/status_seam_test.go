package fetch

import (
	"context"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
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
