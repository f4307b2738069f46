package audit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
	"github.com/robotstxt-go/robotstxt/lint"
)

// TestRedirectsAsFetch is the seam between the audit, which follows a
// robots.txt's redirects through the captures of an archive, and package
// fetch, which follows them over the network: for random chains of
// redirects (statuses net/http follows and 3xx codes it does not, with and
// without a Location, up to past the limit of RFC 9309 §2.3.1.2), both end
// at the same status and read the same kind of rules from it.
func TestRedirectsAsFetch(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 2312))
	hopCodes := []int{301, 302, 303, 307, 308}
	otherCodes := []int{300, 304, 305, 306, 399} // 3xx codes net/http does not follow
	endCodes := []int{200, 200, 404, 410, 401, 429, 500, 503, 300, 304, 399}
	const body = "User-agent: *\nDisallow: /x\n"
	sites := fetchtest.NewSites(nil, nil)
	var cs []capture
	var starts []string
	for i := range 300 {
		host := func(j int) string { return fmt.Sprintf("c%d-h%d.example", i, j) }
		n := rng.IntN(9)
		for j := range n {
			code := hopCodes[rng.IntN(len(hopCodes))]
			if rng.IntN(10) == 0 {
				code = otherCodes[rng.IntN(len(otherCodes))]
			}
			loc := "https://" + host(j+1) + "/robots.txt"
			if rng.IntN(12) == 0 {
				loc = "" // a redirect without a Location
			}
			if rng.IntN(10) == 0 && j > 0 {
				loc = "https://" + host(rng.IntN(j)) + "/robots.txt" // a loop
			}
			cs = append(cs, capture{url: "https://" + host(j) + "/robots.txt", status: code, location: loc})
			a := fetchtest.Answer{Status: code}
			if loc != "" {
				a.Header = http.Header{"Location": {loc}}
			}
			sites.Set(host(j), a)
		}
		end := endCodes[rng.IntN(len(endCodes))]
		cs = append(cs, capture{url: "https://" + host(n) + "/robots.txt", status: end, body: body})
		sites.Set(host(n), fetchtest.Answer{Status: end, Body: body})
		starts = append(starts, "https://"+host(0)+"/robots.txt")
	}
	p := filepath.Join(t.TempDir(), "chains.warc.gz")
	writeWARC(t, p, cs)
	out, _ := run(t, Config{Inputs: []string{p}, Format: FormatJSONL, Paths: []string{"/x"}, Workers: 2})
	rows := map[string]Row{}
	for _, r := range decodeRows(t, out) {
		rows[r.URL] = r
	}
	client := sites.Client()
	for _, u := range starts {
		res, err := fetch.Fetch(context.Background(), client, "", u)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := rows[u]
		if !ok {
			t.Errorf("%s: no row", u)
			continue
		}
		if want := rulesName(res.Robots); r.Rules != want || int(r.FinalStatus) != res.StatusCode {
			t.Errorf("%s: the audit reads %s after status %d and %d redirects; fetch reads %s after status %d and %d redirects (%v)",
				u, r.Rules, r.FinalStatus, r.Hops, want, res.StatusCode, res.Redirects, res.Err)
		}
	}
}

// TestBodyNoteIsNotRobots is the seam between the audit's notes and
// lint.NotRobots, which fetch and the CLI ask of every body: on random
// bodies built from the pieces of robots.txt files, HTML, XML and binary
// data, a robots.txt capture whose status has its body read
// (robotstxt.FromStatus) is noted exactly when NotRobots finds it no
// robots.txt, as markup (ProblemHTML) or as binary data or UTF-16 text
// (ProblemBinary); a capture of another status is never noted.
func TestBodyNoteIsNotRobots(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 65))
	pieces := []string{
		"", "\n", "\r\n", "  ", "\xef\xbb\xbf", "User-agent: *\n", "Disallow: /x\n", "# comment\n",
		"<!-- managed by CMS -->", "<!--", "-->", "<html>", "<p>", "hello", "</p>", "<?xml version=\"1.0\"?>",
		"<urlset>", "<!DOCTYPE html>", "<Disallow: /x", "<", "\x00", "\x1f\x8b", "\xff\xfe", "\x01\x02\x03\x04",
	}
	statuses := []int{200, 204, 299, 301, 404, 429, 503}
	for i := range 20000 {
		var b []byte
		for range rng.IntN(8) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		if rng.IntN(50) == 0 {
			for range 64 {
				b = append(b, byte(rng.Uint32()))
			}
		}
		c := &Capture{Input: "in", Offset: int64(i), URL: "https://h.example/robots.txt", Status: statuses[rng.IntN(len(statuses))], Body: b}
		p, noted := bodyNote(c)
		want, wantKind := lint.NotRobots(b), ""
		switch {
		case robotstxt.FromStatus(c.Status, nil).Kind() != robotstxt.Parsed:
			want = nil
		case errors.Is(want, lint.ErrHTML):
			wantKind = ProblemHTML
		case errors.Is(want, lint.ErrEncoding):
			wantKind = ProblemBinary
		}
		if noted != (want != nil) || noted && (p.Kind != wantKind || p.Offset != c.Offset || p.Skipped) {
			t.Fatalf("status %d, body %q: noted %v %+v; NotRobots says %v", c.Status, b, noted, p, want)
		}
	}
}
