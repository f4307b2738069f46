package aiuse

import (
	"net/http"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// siteBody is a robots.txt as sites write it for AI crawlers in 2026: a
// managed Content-Signal line, groups for training crawlers and control
// tokens, a search crawler's own group.
const siteBody = `User-agent: *
Content-Signal: search=yes,ai-train=no,use=reference
Allow: /
Disallow: /admin/

User-agent: GPTBot
User-agent: ClaudeBot
User-agent: CCBot
User-agent: Bytespider
Disallow: /

User-agent: Google-Extended
User-agent: Applebot-Extended
Disallow: /articles/

User-agent: Googlebot
Allow: /
Content-Usage: train-ai=n, search=y
`

func benchSite() *Site {
	r := robotstxt.Parse([]byte(siteBody))
	r.Allowed("Googlebot", "/") // compile, as a cached file is
	return &Site{Robots: r, Page: ReadPage(http.Header{
		"Content-Usage":  {"train-ai=n"},
		"Content-Signal": {"search=yes, ai-input=no"},
		"X-Robots-Tag":   {"max-snippet:50"},
	}, []byte(`<html><head><meta name="robots" content="nosnippet"></head></html>`))}
}

// TestAskNoAllocs: one cell of the matrix allocates nothing once the
// site's robots.txt is compiled.
func TestAskNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; CI runs this without it")
	}
	site := benchSite()
	for _, op := range crawlers.UseOperators() {
		for _, u := range crawlers.Uses {
			if n := testing.AllocsPerRun(50, func() { answerSink = site.Ask(op, u, "https://example.com/articles/1") }); n != 0 {
				t.Errorf("Ask(%s, %s) allocates %v times", op, u, n)
			}
		}
	}
}

var (
	answerSink Answer
	matrixSink Matrix
)

// BenchmarkMatrix is the matrix of one URL of a site from its cached
// robots.txt and a page's response, into a matrix filled before, as a tool
// answering many URLs does (MatrixInto).
func BenchmarkMatrix(b *testing.B) {
	site := benchSite()
	site.MatrixInto(&matrixSink, "https://example.com/articles/1")
	b.ReportAllocs()
	for b.Loop() {
		site.MatrixInto(&matrixSink, "https://example.com/articles/1")
	}
}

// BenchmarkMatrixNew is Matrix, which allocates the cells.
func BenchmarkMatrixNew(b *testing.B) {
	site := benchSite()
	b.ReportAllocs()
	for b.Loop() {
		matrixSink = site.Matrix("https://example.com/articles/1")
	}
}

// TestMatrixIntoNoAllocs: a matrix filled again allocates nothing.
func TestMatrixIntoNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; CI runs this without it")
	}
	site := benchSite()
	var m Matrix
	site.MatrixInto(&m, "/a")
	if n := testing.AllocsPerRun(20, func() { site.MatrixInto(&m, "https://example.com/articles/1") }); n != 0 {
		t.Errorf("MatrixInto allocates %v times", n)
	}
	if again := site.Matrix("https://example.com/articles/1"); again.Cells[0][0].Verdict != m.Cells[0][0].Verdict || len(again.Cells) != len(m.Cells) {
		t.Errorf("MatrixInto and Matrix differ")
	}
}

// BenchmarkAsk is one cell.
func BenchmarkAsk(b *testing.B) {
	site := benchSite()
	b.ReportAllocs()
	for b.Loop() {
		answerSink = site.Ask("Google", crawlers.UseTraining, "https://example.com/articles/1")
	}
}

// TestMemoRoom: a matrix has room for the facts of every token it asks
// about, so none is read twice and no pointer into the memo goes stale.
func TestMemoRoom(t *testing.T) {
	tokens := map[string]bool{}
	for _, g := range crawlers.AllGoverns() {
		tokens[g.Token] = true
		for _, f := range g.Fetchers() {
			tokens[f] = true
		}
	}
	if len(tokens) > memoRoom {
		t.Errorf("%d tokens govern or fetch, memoRoom is %d", len(tokens), memoRoom)
	}
}
