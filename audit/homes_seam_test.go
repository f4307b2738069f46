package audit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
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
// without a Location, up to past the limit of RFC 9309 §2.3.1.2) ending
// with random statuses, both end at the same status and read the same kind
// of rules from it (robotstxt.FromStatus); and from bodies around the 500
// KiB both read (grammar.MaxBodySize), the same answers.
func TestRedirectsAsFetch(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 2312))
	hopCodes := []int{301, 302, 303, 307, 308}
	otherCodes := []int{300, 304, 305, 306, 399} // 3xx codes net/http does not follow
	endCodes := []int{200, 200, 404, 410, 401, 429, 500, 503, 300, 304, 399}
	const small = "User-agent: *\nDisallow: /x\n"
	// A body around the limit both read to (grammar.MaxBodySize): the
	// rule "Disallow: /cut" ends k bytes before it, or is cut k bytes in.
	large := func(k int) string {
		head := "User-agent: *\nDisallow: /x\n"
		const rule = "Disallow: /cut\n"
		fill := maxBody - len(head) - len(rule) + k
		line := "#" + strings.Repeat("-", 98) + "\n"
		b := head + strings.Repeat(line, fill/len(line))
		if r := fill % len(line); r > 0 {
			b += strings.Repeat("#", r-1) + "\n"
		}
		return b + rule + "Allow: /\n"
	}
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
		if rng.IntN(3) == 0 {
			end = 200 + rng.IntN(400) // any final status
		}
		body := small
		if i%10 == 0 {
			end, body = 200, large(rng.IntN(24)-8)
		}
		cs = append(cs, capture{url: "https://" + host(n) + "/robots.txt", status: end, body: body})
		sites.Set(host(n), fetchtest.Answer{Status: end, Body: body})
		starts = append(starts, "https://"+host(0)+"/robots.txt")
	}
	p := filepath.Join(t.TempDir(), "chains.warc.gz")
	writeWARC(t, p, cs)
	paths := []string{"/x", "/cut", "/cu", "/y"}
	out, _ := run(t, Config{Inputs: []string{p}, Format: FormatJSONL, Paths: paths, Workers: 2})
	rows := map[string]Row{}
	for _, r := range decodeRows(t, out) {
		if r.Documented == "" && !r.OwnGroup { // answered by the "*" group
			rows[r.URL] = r
		}
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
			continue
		}
		for _, v := range r.Verdicts {
			if v.Allowed != nil && *v.Allowed != res.Robots.Allowed("Foobot", v.Path) {
				t.Errorf("%s, %s: the audit answers %v, fetch %v (%d bytes read)", u, v.Path, *v.Allowed, !*v.Allowed, res.Bytes)
			}
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
