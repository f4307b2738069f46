package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestStatusAndRedirects pins RFC 9309 §2.3.1 as the package documentation
// states it, one capture per row of the table, each answer checked against
// the core.
func TestStatusAndRedirects(t *testing.T) {
	const blockAll = "User-agent: *\nDisallow: /\n"
	const blockX = "User-agent: *\nDisallow: /x\n"
	chain := func(from string, n int, end string) []capture { // from -> r1 -> ... -> rn -> end
		var cs []capture
		cur := from
		for i := 1; i <= n; i++ {
			next := fmt.Sprintf("https://hop%d.%s/robots.txt", i, strings.TrimPrefix(strings.TrimSuffix(from, "/robots.txt"), "https://"))
			if i == n {
				next = end
			}
			cs = append(cs, capture{url: cur, status: 301, location: next})
			cur = next
		}
		return cs
	}
	var cs []capture
	cs = append(cs,
		capture{url: "https://ok.example/robots.txt", status: 200, body: blockX},                  // 2xx parsed
		capture{url: "https://gone.example/robots.txt", status: 404, body: blockAll},              // 4xx allows all, body ignored
		capture{url: "https://slow.example/robots.txt", status: 429},                              // 429 disallows all
		capture{url: "https://down.example/robots.txt", status: 503, body: ""},                    // 5xx disallows all
		capture{url: "https://rel.example/robots.txt", status: 302, location: "/robots-real.txt"}, // relative Location, target after
		capture{url: "https://nowhere.example/robots.txt", status: 301, location: "https://missing.example/robots.txt"},
		capture{url: "https://noloc.example/robots.txt", status: 302}, // no Location: unreachable
		capture{url: "https://rel.example/robots-real.txt", status: 200, body: blockAll},
		capture{url: "https://loop.example/robots.txt", status: 301, location: "https://loop2.example/robots.txt"},
		capture{url: "https://loop2.example/robots.txt", status: 301, location: "https://loop.example/robots.txt"},
		capture{url: "https://home.example/robots.txt", status: 301, location: "https://home.example/"},
		capture{url: "https://home.example/", status: 200, body: "<!doctype html><html>hi</html>"},
	)
	cs = append(cs, chain("https://five.example/robots.txt", 5, "https://final5.example/robots.txt")...)
	cs = append(cs, capture{url: "https://final5.example/robots.txt", status: 200, body: blockX})
	cs = append(cs, chain("https://six.example/robots.txt", 6, "https://final6.example/robots.txt")...)
	cs = append(cs, capture{url: "https://final6.example/robots.txt", status: 200, body: blockAll})

	type want struct {
		rules, final string
		status, hops int
		body         string // the rules: FromStatus(status, body)
	}
	wants := map[string]want{
		"https://ok.example/robots.txt":      {RulesParsed, "", 200, 0, blockX},
		"https://gone.example/robots.txt":    {RulesAllowAll, "", 404, 0, ""},
		"https://slow.example/robots.txt":    {RulesDisallowAll, "", 429, 0, ""},
		"https://down.example/robots.txt":    {RulesDisallowAll, "", 503, 0, ""},
		"https://rel.example/robots.txt":     {RulesParsed, "https://rel.example/robots-real.txt", 200, 1, blockAll},
		"https://nowhere.example/robots.txt": {RulesUnknown, "https://missing.example/robots.txt", 0, 1, ""},
		"https://noloc.example/robots.txt":   {RulesDisallowAll, "https://noloc.example/robots.txt", 302, 0, ""},
		"https://loop.example/robots.txt":    {RulesAllowAll, "https://loop2.example/robots.txt", 301, 5, ""},
		"https://loop2.example/robots.txt":   {RulesAllowAll, "https://loop.example/robots.txt", 301, 5, ""},
		"https://home.example/robots.txt":    {RulesParsed, "https://home.example/", 200, 1, "<!doctype html><html>hi</html>"},
		"https://five.example/robots.txt":    {RulesParsed, "https://final5.example/robots.txt", 200, 5, blockX},
		"https://six.example/robots.txt":     {RulesAllowAll, "https://hop5.six.example/robots.txt", 301, 5, ""},
		"https://final5.example/robots.txt":  {RulesParsed, "", 200, 0, blockX},
		"https://final6.example/robots.txt":  {RulesParsed, "", 200, 0, blockAll},
	}
	for i := 1; i <= 5; i++ {
		wants[fmt.Sprintf("https://hop%d.five.example/robots.txt", i)] = want{}
		wants[fmt.Sprintf("https://hop%d.six.example/robots.txt", i)] = want{RulesParsed, "https://final6.example/robots.txt", 200, 6 - i, blockAll}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "status.warc.gz")
	writeWARC(t, p, cs)
	// One worker, and three reading the file in segments of a few records.
	for _, rd := range []reading{{workers: 1, split: segmentSize}, {workers: 3, split: 200}} {
		t.Run(fmt.Sprintf("workers=%d", rd.workers), func(t *testing.T) {
			out, s := run(t, Config{Inputs: []string{p}, Format: FormatJSONL, Paths: []string{"/", "/x"}, Workers: rd.workers, split: rd.split})
			rows := decodeRows(t, out)
			seen := map[string]bool{}
			checkRows(t, rows, []string{"/", "/x"}, func(r Row) (*robotstxt.Robots, bool) {
				seen[r.URL] = true
				w, ok := wants[r.URL]
				if !ok {
					return nil, false
				}
				if w.rules == "" { // an intermediate hop of the five-hop chain: fewer hops to the same end
					return robotstxt.Parse([]byte(blockX)), true
				}
				if r.Rules != w.rules || r.FinalURL != w.final || int(r.FinalStatus) != w.status || int(r.Hops) != w.hops {
					t.Errorf("%s: rules %s final %s %d hops %d, want %+v", r.URL, r.Rules, r.FinalURL, r.FinalStatus, r.Hops, w)
				}
				switch w.rules {
				case RulesUnknown:
					return nil, true
				case RulesAllowAll:
					return robotstxt.FromStatus(404, nil), true
				}
				return robotstxt.FromStatus(w.status, []byte(w.body)), true
			})
			for u, w := range wants {
				if w.rules != "" && !seen[u] {
					t.Errorf("%s: no rows", u)
				}
			}
			if seen["https://home.example/"] || seen["https://rel.example/robots-real.txt"] {
				t.Errorf("a capture that is not a robots.txt URL was answered")
			}
			if s.Skipped != 0 {
				t.Errorf("skipped %d: %v", s.Skipped, s.Problems)
			}
			var html bool
			for _, p := range s.Problems {
				html = html || p.Kind == ProblemHTML
			}
			if html {
				t.Errorf("the HTML target is not a robots.txt capture; noted anyway: %v", s.Problems)
			}
		})
	}
}

// TestBadInput feeds each kind of bad input the issue names and checks that
// it is reported with its offset, that the good records around it are
// answered, and whether it counts as skipped.
func TestBadInput(t *testing.T) {
	good := func(i int) capture {
		return capture{url: fmt.Sprintf("https://g%d.example/robots.txt", i), status: 200, body: "User-agent: *\nDisallow: /x\n"}
	}
	dir := t.TempDir()
	gzipped := func(rec []byte) []byte { return gzipMember(t, rec) }
	plain := func(rec []byte) []byte { return rec }
	// between puts bad between the records of good(1) and good(3), each
	// wrapped, and returns the input and bad's offset.
	between := func(wrap func([]byte) []byte, good func(int) capture, bad []byte) ([]byte, int64) {
		a, c := wrap(warcRecord(t, good(1))), wrap(warcRecord(t, good(3)))
		return cat(a, wrap(bad), c), int64(len(a))
	}
	cases := []struct {
		name    string
		build   func() ([]byte, int64) // the input and the offset of the bad part
		kind    string
		skipped bool
		answers int64 // captures answered
	}{
		{"truncated gzip member", func() ([]byte, int64) {
			// The member after a truncated one is read as its
			// continuation; the reader looks for the next member again
			// from the truncated one's start, and finds it.
			a, b, c := gzipMember(t, warcRecord(t, good(1))), gzipMember(t, warcRecord(t, good(2))), gzipMember(t, warcRecord(t, good(3)))
			d, e := gzipMember(t, warcRecord(t, good(4))), gzipMember(t, warcRecord(t, good(5)))
			return cat(a, b[:len(b)/2], c, d, e), int64(len(a))
		}, ProblemGzip, true, 4},
		{"truncated gzip at the end", func() ([]byte, int64) {
			a, b := gzipMember(t, warcRecord(t, good(1))), gzipMember(t, warcRecord(t, good(2)))
			return cat(a, b[:len(b)-9]), int64(len(a))
		}, ProblemGzip, true, 1},
		{"Content-Length too long", func() ([]byte, int64) {
			return between(gzipped, good, longLength(warcRecord(t, good(2))))
		}, ProblemLength, true, 2},
		{"Content-Length too short", func() ([]byte, int64) {
			return between(gzipped, good, shortLength(t, warcRecord(t, good(2))))
		}, ProblemLength, true, 2},
		// The record after one whose Content-Length is too long would be
		// read as part of its block: the length is checked before, and
		// the reader goes on from the next record (TestResync).
		{"Content-Length too long, uncompressed", func() ([]byte, int64) {
			return between(plain, good, longLength(warcRecord(t, good(2))))
		}, ProblemLength, true, 2},
		{"Content-Length too short, uncompressed", func() ([]byte, int64) {
			return between(plain, good, shortLength(t, warcRecord(t, good(2))))
		}, ProblemLength, true, 2},
		{"HTML body", func() ([]byte, int64) {
			a := gzipMember(t, warcRecord(t, good(1)))
			h := good(2)
			h.body = "<!DOCTYPE html>\n<html><body>Not here</body></html>\n"
			return cat(a, gzipMember(t, warcRecord(t, h))), int64(len(a))
		}, ProblemHTML, false, 2},
		{"10 MB body", func() ([]byte, int64) {
			a := gzipMember(t, warcRecord(t, good(1)))
			h := good(2)
			h.body = "User-agent: *\nDisallow: /x\n" + strings.Repeat("# filler line\n", 10<<20/14)
			return cat(a, gzipMember(t, warcRecord(t, h))), int64(len(a))
		}, ProblemOversize, false, 2},
		{"no response records", func() ([]byte, int64) {
			b := warcRecordType(t)
			return gzipMember(t, b), 0
		}, ProblemEmpty, true, 0},
		{"not HTTP", func() ([]byte, int64) {
			a := gzipMember(t, warcRecord(t, good(1)))
			bad := bytes.Replace(warcRecord(t, good(2)), []byte("HTTP/1.1 200 OK"), []byte("HTTQ/1.1 200 OK"), 1)
			return cat(a, gzipMember(t, bad)), int64(len(a))
		}, ProblemHTTP, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, off := c.build()
			ext := ".warc.gz"
			if strings.HasSuffix(c.name, "uncompressed") {
				ext = ".warc"
			}
			p := filepath.Join(dir, strings.ReplaceAll(strings.ReplaceAll(c.name, ",", ""), " ", "-")+ext)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, s := run(t, Config{Inputs: []string{p}, Format: FormatCSV})
			var found bool
			for _, pr := range s.Problems {
				if pr.Kind == c.kind && pr.Offset == off && pr.Skipped == c.skipped && pr.Input == p {
					found = true
				}
			}
			if !found {
				t.Errorf("want a %s problem at %d (skipped %v); got %v", c.kind, off, c.skipped, s.Problems)
			}
			if s.Captures != c.answers {
				t.Errorf("answered %d captures, want %d (problems %v)", s.Captures, c.answers, s.Problems)
			}
			if (s.Skipped > 0) != c.skipped {
				t.Errorf("skipped %d, want skipped=%v", s.Skipped, c.skipped)
			}
		})
	}
}

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

// longLength puts a 9 before a record's Content-Length.
func longLength(rec []byte) []byte {
	return bytes.Replace(rec, []byte("Content-Length: "), []byte("Content-Length: 9"), 1)
}

// shortLength takes 10 from a record's Content-Length.
func shortLength(t *testing.T, rec []byte) []byte {
	i := bytes.Index(rec, []byte("Content-Length: ")) + len("Content-Length: ")
	j := bytes.IndexByte(rec[i:], '\r')
	var n int
	if _, err := fmt.Sscan(string(rec[i:i+j]), &n); err != nil {
		t.Fatal(err)
	}
	return append(append(append([]byte{}, rec[:i]...), fmt.Sprint(n-10)...), rec[i+j:]...)
}

// warcRecordType builds a warcinfo record: a WARC without responses.
func warcRecordType(t *testing.T) []byte {
	rec := warcRecord(t, capture{url: "https://x.example/robots.txt", status: 200})
	return bytes.Replace(rec, []byte("WARC-Type: response"), []byte("WARC-Type: metadata"), 1)
}
