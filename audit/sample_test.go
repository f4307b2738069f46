package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// sampleCaptures make testdata/sample.warc.gz: made-up sites, one for each
// kind of answer the README's table shows.
var sampleCaptures = []capture{
	{url: "https://news.example/robots.txt", status: 200, body: "# AI crawlers are not welcome\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nDisallow: /search\nAllow: /\nContent-Signal: search=yes, ai-train=no\nContent-Usage: train-ai=n\n"},
	{url: "https://shop.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /cart\nDisallow: /checkout\nCrawl-delay: 5\n\nSitemap: https://shop.example/sitemap.xml\n"},
	{url: "https://closed.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /\nAllow: /about$\n"},
	{url: "https://open.example/robots.txt", status: 404},
	{url: "https://flaky.example/robots.txt", status: 503},
	{url: "http://blog.example/robots.txt", status: 301, location: "https://blog.example/robots.txt"},
	{url: "https://blog.example/robots.txt", status: 200, body: "User-agent: *\nDisalow: /drafts\n"},
}

// TestSample checks that testdata/sample.warc.gz is what sampleCaptures
// write, and writes it again when ROBOTSAUDIT_WRITE_SAMPLE is set.
func TestSample(t *testing.T) {
	p := filepath.Join("testdata", "sample.warc.gz")
	tmp := filepath.Join(t.TempDir(), "sample.warc.gz")
	writeWARC(t, tmp, sampleCaptures)
	want, _ := os.ReadFile(tmp)
	if os.Getenv("ROBOTSAUDIT_WRITE_SAMPLE") != "" {
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what sampleCaptures write; run ROBOTSAUDIT_WRITE_SAMPLE=1 go test -run TestSample", p)
	}
	_, s := run(t, Config{Inputs: []string{p}, Format: FormatTable})
	if s.Captures != 7 || s.Skipped != 0 {
		t.Errorf("sample: %d captures, %d skipped, want 7, 0", s.Captures, s.Skipped)
	}
}
