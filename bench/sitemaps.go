package main

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/sitemaptest"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// The sitemap comparison (go run . -sitemaps) reads three documents from
// files (as a body streams in from the network, not held in the heap),
// each in turn by package sitemap ("ours") and by the
// whole-document reading of aafeher/go-sitemap-parser v1: the body read
// into a buffer, gunzipped into another with io.ReadAll, and decoded with
// encoding/xml into a slice of structs. That library is not served by the
// Go module proxy, so this module cannot import it: its reading is
// reproduced here as a stand-in that needs nothing outside the module.
// sitemapcmp/run.sh measures against the library itself.

// sitemapDoc is one document the comparison reads.
type sitemapDoc struct {
	name    string
	path    string // the file it is read from
	entries int    // what each reader must find
}

// sitemapDocs writes the three documents to dir: 50,000 URLs plain and
// gzipped, and an index of 50,000 small sitemaps.
func sitemapDocs(dir string) ([]sitemapDoc, error) {
	plain, gz, idx := sitemaptest.Documents()
	docs := []sitemapDoc{
		{fmt.Sprintf("50,000-URL sitemap (%.1f MB)", float64(len(plain))/1e6), "sitemap.xml", sitemap.MaxURLs},
		{fmt.Sprintf("the same, gzipped (%.1f MB)", float64(len(gz))/1e6), "sitemap.xml.gz", sitemap.MaxURLs},
		{fmt.Sprintf("50,000-entry index (%.1f MB)", float64(len(idx))/1e6), "index.xml", sitemap.MaxURLs},
	}
	for i, data := range [][]byte{plain, gz, idx} {
		docs[i].path = filepath.Join(dir, docs[i].path)
		if err := os.WriteFile(docs[i].path, data, 0o644); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// readOurs reads the file at path with package sitemap and returns the
// entries.
func readOurs(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	r := sitemap.NewReader(f, &sitemap.Options{URL: "https://example.com/sitemap.xml"})
	n := 0
	for _, err := range r.All() {
		if err != nil {
			return -1
		}
		n++
	}
	return n
}

// wholeURL and wholeSet are the structs the whole-document reading decodes
// into, with the fields of a sitemap entry.
type wholeURL struct {
	Loc        string   `xml:"loc"`
	LastMod    *string  `xml:"lastmod"`
	ChangeFreq *string  `xml:"changefreq"`
	Priority   *float32 `xml:"priority"`
}

type wholeSet struct {
	URLs     []wholeURL `xml:"url"`
	Sitemaps []wholeURL `xml:"sitemap"`
}

// readWhole reads doc as aafeher/go-sitemap-parser v1 does: the whole body
// into memory, the whole of it gunzipped, then decoded at once.
func readWhole(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	var body bytes.Buffer
	io.Copy(&body, f) // the response body, read whole
	content := body.Bytes()
	if bytes.HasPrefix(content, []byte("\x1f\x8b\x08")) {
		zr, err := gzip.NewReader(bytes.NewReader(content))
		if err != nil {
			return -1
		}
		if content, err = io.ReadAll(zr); err != nil {
			return -1
		}
	}
	text := string(content) // kept as a string, then read back as bytes
	var set wholeSet
	if err := xml.NewDecoder(bytes.NewReader([]byte(text))).Decode(&set); err != nil {
		return -1
	}
	return len(set.URLs) + len(set.Sitemaps)
}

// sitemapResult is one reader's measure on one document.
type sitemapResult struct {
	rates []float64 // entries per second, one per round
	peak  uint64    // the most heap taken above what was in use before
	held  uint64    // the same with GOGC=10: what the reader holds, with little garbage on top
	n     int
}

// runSitemaps measures both readers on each document, taking turns within
// each round, and prints a Markdown table.
func runSitemaps(w io.Writer, rounds int) error {
	dir, err := os.MkdirTemp("", "bench-sitemaps-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	docs, err := sitemapDocs(dir)
	if err != nil {
		return err
	}
	readers := []struct {
		name string
		read func(string) int
	}{{"ours (package sitemap)", readOurs}, {"whole document (aafeher v1's reading)", readWhole}}
	res := make([][]sitemapResult, len(docs))
	for d := range docs {
		res[d] = make([]sitemapResult, len(readers))
		for i, r := range readers {
			// The peak heap, in passes of their own: what the reader takes
			// above what was in use before, with the default GOGC and with
			// GOGC=10, where little garbage waits for a collection.
			res[d][i].peak = sitemaptest.PeakAbove(func() { res[d][i].n = r.read(docs[d].path) })
			old := debug.SetGCPercent(10)
			res[d][i].held = sitemaptest.PeakAbove(func() { r.read(docs[d].path) })
			debug.SetGCPercent(old)
			if res[d][i].n != docs[d].entries {
				return fmt.Errorf("%s read %d entries of %s, want %d", r.name, res[d][i].n, docs[d].name, docs[d].entries)
			}
		}
	}
	for round := range rounds {
		for d := range docs {
			for k := range readers {
				i := (k + round + d) % len(readers) // turns rotate with the round
				start := time.Now()
				readers[i].read(docs[d].path)
				res[d][i].rates = append(res[d][i].rates, float64(docs[d].entries)/time.Since(start).Seconds())
			}
		}
		logf("sitemaps: round %d of %d", round+1, rounds)
	}
	fmt.Fprintf(w, "### Sitemaps: entries per second (median of %d rounds) and peak heap\n\n", rounds)
	fmt.Fprintln(w, "| Document | ours entries/s | whole-document entries/s | ours / whole (target ≥ 3×) | ours peak heap | whole-document peak heap | ours / whole (target ≤ 0.1) | ours held (GOGC=10) | whole-document held (GOGC=10) | ours / whole |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	mib := func(v uint64) string { return fmt.Sprintf("%.1f MiB", float64(v)/(1<<20)) }
	for d, doc := range docs {
		o, x := res[d][0], res[d][1]
		ro, rx := median(o.rates), median(x.rates)
		fmt.Fprintf(w, "| %s | %.0f | %.0f | %.1f× | %s | %s | %.3f | %s | %s | %.3f |\n", doc.name, ro, rx, ro/rx,
			mib(o.peak), mib(x.peak), float64(o.peak)/float64(x.peak), mib(o.held), mib(x.held), float64(o.held)/float64(x.held))
	}
	fmt.Fprintln(w)
	return nil
}
