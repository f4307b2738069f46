package sitemap_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robotstxt-go/robotstxt/sitemap"
)

// FuzzReader reads any bytes as a sitemap: it never panics, every entry
// it yields is an absolute URL in the sitemap's directory, at most MaxURLs
// of them, every finding formats, and the answer does not depend on how
// the stream is cut into reads.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		urls("https://example.com/a", "https://example.com/b?x=1&amp;y=2"),
		`<sitemapindex><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
		"https://example.com/a\nhttps://example.com/b\n",
		`<rss><channel><item><link>https://example.com/a</link><pubDate>Mon, 02 Nov 2026 10:00:00 +0000</pubDate></item></channel></rss>`,
		`<feed><entry><link href="https://example.com/a"/><updated>2026-11-02T10:00:00Z</updated></entry></feed>`,
		`<!DOCTYPE x [<!ENTITY a "b">]><urlset><url><loc>&a;</loc></url></urlset>`,
		"<html><body>x</body></html>",
		"\xEF\xBB\xBF<urlset><url><loc><![CDATA[https://example.com/a]]></loc></url>",
		string(gz(urls("https://example.com/a"))),
		ns + "<url><loc>https://example.com/a</loc></url>\x00</urlset>",
		"\n \thttps://example.com/a\nhttps://example.com/\x00b\n",
		`<!DOCTYPE urlset [ <!-- it's ]> --> <?pi don't ]> ?> <!ENTITY e "it's ]>"> ]>` + urls("https://example.com/a"),
		`<?pi don't ?><!DOCTYPE urlset [ <!-- ` + urls("https://example.com/a"),
		"https://example.com/a\rhttps://example.com/b\r\n\rhttps://example.com/c\n\r",
		`<?xml version="1.0" encoding="ISO-8859-1"?>` + urls("https://example.com/a", "https://example.com/caf\xe9"),
		`<?xml version="1.0 encoding='latin1'?>` + ns + "<url><loc>https://example.com/a</loc></url></urlset>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o := sitemap.Options{URL: "https://example.com/sitemap.xml", MaxURLs: 20, MaxBytes: 1 << 16}
		a := readAll(t, sitemap.NewReader(bytes.NewReader(data), &o))
		b := readAll(t, sitemap.NewReader(iotest.OneByteReader(bytes.NewReader(data)), &o))
		if !slices.Equal(a, b) {
			t.Errorf("read whole:\n%q\nread a byte at a time:\n%q", a, b)
		}
	})
}

// readAll returns the entries and findings of r as strings, and checks
// the invariants of each.
func readAll(t *testing.T, r *sitemap.Reader) []string {
	var out []string
	n := 0
	for e, err := range r.All() {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		n++
		if !sitemap.InScope("https://example.com/sitemap.xml", e.Loc) || strings.ContainsAny(e.Loc, " \n\t") {
			t.Errorf("entry %q is not in the sitemap's scope", e.Loc)
		}
		out = append(out, e.Loc+" "+e.LastMod+" "+e.ChangeFreq+" "+e.Priority)
	}
	if n > 20 {
		t.Errorf("%d entries, over MaxURLs", n)
	}
	for _, f := range r.Findings() {
		out = append(out, f.String())
	}
	return out
}
