package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/sitemaptest"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// drain reads r to its end and returns the entries and the findings.
func drain(t *testing.T, src io.Reader, o *sitemap.Options) (int, *sitemap.Reader) {
	t.Helper()
	r := sitemap.NewReader(src, o)
	n := 0
	for _, err := range r.All() {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		n++
	}
	return n, r
}

// checkPeak fails when the peak heap is over the bound, except under the
// race detector, which inflates it.
func checkPeak(t *testing.T, what string, peak uint64) {
	t.Helper()
	t.Logf("%s: peak heap %.1f MiB (bound %d MiB)", what, float64(peak)/(1<<20), sitemaptest.HeapLimit>>20)
	if peak > sitemaptest.HeapLimit && !sitemaptest.Race {
		t.Errorf("%s: peak heap %d bytes, over %d", what, peak, sitemaptest.HeapLimit)
	}
}

// TestMemoryFullSitemap reads a sitemap at both limits of the protocol,
// 50,000 URLs and close to 50 MB, made as it is read.
func TestMemoryFullSitemap(t *testing.T) {
	if why := sitemaptest.Heavy(); why != "" {
		t.Skip(why)
	}
	for _, gzipped := range []bool{false, true} {
		pr, pw := io.Pipe()
		go func() {
			if !gzipped {
				pw.CloseWithError(sitemaptest.URLSet(pw, "https://example.com/", sitemap.MaxURLs, 750))
				return
			}
			gw := gzip.NewWriter(pw)
			err := sitemaptest.URLSet(gw, "https://example.com/", sitemap.MaxURLs, 750)
			if err == nil {
				err = gw.Close()
			}
			pw.CloseWithError(err)
		}()
		var n int
		var r *sitemap.Reader
		peak := sitemaptest.PeakHeap(func() { n, r = drain(t, pr, &sitemap.Options{URL: "https://example.com/sitemap.xml"}) })
		pr.Close()
		if n != sitemap.MaxURLs || r.FindingCount() != 0 {
			t.Errorf("gzip %v: %d entries, findings %v; want %d and none", gzipped, n, r.Findings(), sitemap.MaxURLs)
		}
		checkPeak(t, fmt.Sprintf("50,000 URLs, ~50 MB, gzip %v", gzipped), peak)
	}
}

// TestMemoryGzipBomb reads 1 GiB of zeros compressed to about 1 MB, after
// ten entries: the ten are kept, and reading stops at MaxBytes.
func TestMemoryGzipBomb(t *testing.T) {
	if why := sitemaptest.Heavy(); why != "" {
		t.Skip(why)
	}
	var prefix bytes.Buffer
	prefix.WriteString(ns + "\n")
	for i := range 10 {
		fmt.Fprintf(&prefix, "<url><loc>https://example.com/page-%d</loc></url>\n", i)
	}
	bomb := sitemaptest.GzipBomb(prefix.Bytes(), 1<<30)
	t.Logf("bomb: %d bytes compressed, 1 GiB of zeros", len(bomb))
	var n int
	var r *sitemap.Reader
	peak := sitemaptest.PeakHeap(func() {
		n, r = drain(t, bytes.NewReader(bomb), &sitemap.Options{URL: "https://example.com/sitemap.xml.gz"})
	})
	if n != 10 || len(r.Findings()) != 1 || r.Findings()[0].Code != sitemap.TooLarge {
		t.Errorf("%d entries, findings %v; want 10 and one too-large", n, r.Findings())
	}
	checkPeak(t, "gzip bomb", peak)
}

// TestMemoryLongText reads a text file of one 60 MB line.
func TestMemoryLongText(t *testing.T) {
	if why := sitemaptest.Heavy(); why != "" {
		t.Skip(why)
	}
	src := io.MultiReader(strings.NewReader("https://example.com/a\nhttps://example.com/"), io.LimitReader(repeat('a'), 60<<20))
	var n int
	var r *sitemap.Reader
	peak := sitemaptest.PeakHeap(func() { n, r = drain(t, src, &sitemap.Options{URL: smURL}) })
	if n != 1 || !r.Stopped() {
		t.Errorf("%d entries, findings %v; want 1 and a stop", n, r.Findings())
	}
	checkPeak(t, "one 60 MB text line", peak)
}

// repeat is an endless stream of c.
type repeat byte

func (c repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}
