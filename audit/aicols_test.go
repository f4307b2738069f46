package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/aiuse"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// aiCaptures are made-up captures whose answers differ by operator and
// use, each for a reason.
var aiCaptures = []capture{
	// Google's Google-Extended page: the token governs Gemini training
	// and grounding, not Search.
	{url: "https://ext.example/robots.txt", status: 200, body: "User-agent: Google-Extended\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\nDisallow: /private/\n"},
	// Cloudflare's managed robots.txt: Content-Signal says yes to search,
	// no to training, nothing of ai-input.
	{url: "https://signal.example/robots.txt", status: 200, body: "User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n"},
	// vocab-08 §5.1: a Content-Usage no wins over an Allow.
	{url: "https://usage.example/robots.txt", status: 200, body: "User-agent: ClaudeBot\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: *\nContent-Usage: /search search=n\nDisallow: /cart\n"},
	// RFC 9309 §2.3.1.4: a 5xx disallows everything: not crawlable.
	{url: "https://down.example/robots.txt", status: 503, body: "oops"},
	// §2.3.1.3: a 4xx allows everything: nothing stated.
	{url: "https://gone.example/robots.txt", status: 404},
	// A redirect followed to a captured target answers with its rules.
	{url: "https://moved.example/robots.txt", status: 301, location: "https://ext.example/robots.txt"},
	// A redirect whose target is not captured: the rules are unknown,
	// the verdicts null.
	{url: "https://lost.example/robots.txt", status: 302, location: "https://elsewhere.example/robots.txt"},
}

var aiPaths = []string{"/", "/private/x", "/search", "/cart"}

// aiRow is a row of the AI table as JSON Lines writes it.
type aiRow map[string]any

func decodeAIRows(t testing.TB, b []byte) []aiRow {
	t.Helper()
	var rows []aiRow
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r aiRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		rows = append(rows, r)
	}
	return rows
}

// wantRobots is the robots.txt that answers for a capture URL, read
// straight from the captures with robotstxt.FromStatus, following
// redirects; nil when the chain ends at a URL not captured.
func wantRobots(byURL map[string]capture, url string) *robotstxt.Robots {
	for range 6 {
		c, ok := byURL[url]
		if !ok {
			return nil
		}
		if c.status < 300 || c.status > 399 {
			return robotstxt.FromStatus(c.status, []byte(c.body))
		}
		url = c.location
	}
	return robotstxt.FromStatus(404, nil) // more than five hops: allow all, as Google does
}

// checkAIRow holds every cell of a row to aiuse asked directly about the
// same robots.txt and URL, and the row's columns to the cells of the
// crawler table.
func checkAIRow(t *testing.T, r aiRow, robots *robotstxt.Robots, asked string) int {
	t.Helper()
	cells := 0
	for _, op := range crawlers.UseOperators() {
		for _, u := range crawlers.Uses {
			col := AIColumn(op, u)
			v, hasV := r[col]
			l, hasL := r[col+"_line"]
			_, documented := crawlers.GovernsFor(op, u)
			if hasV != documented || hasL != documented {
				t.Errorf("%v %s: column %s present %v, %s_line %v; the operator documents the use: %v", r["url"], asked, col, hasV, col, hasL, documented)
				continue
			}
			if !documented {
				continue
			}
			cells++
			if robots == nil {
				if v != nil || l != float64(0) {
					t.Errorf("%v %s: %s = %v, line %v; want null, 0 (rules unknown)", r["url"], asked, col, v, l)
				}
				continue
			}
			site := aiuse.Site{Robots: robots}
			a := site.Ask(op, u, asked)
			line := int32(0)
			if s, ok := a.Decider(); ok {
				line = s.Line
			}
			if v != a.Verdict.String() || l != float64(line) {
				t.Errorf("%v %s: %s = %v, line %v; aiuse.Site.Ask says %v, line %d", r["url"], asked, col, v, l, a.Verdict, line)
			}
		}
	}
	if len(r) != 13+2*cells && len(r) != 8+2*cells {
		t.Errorf("%v: %d columns, want the capture's and 2 × %d cells", r["url"], len(r), cells)
	}
	return cells
}

// TestAITableIsAiuse: every cell of the AI table, with paths and with a
// URL list, is package aiuse's answer asked directly of the capture's
// robots.txt (robotstxt.FromStatus, redirects followed) and the URL.
func TestAITableIsAiuse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ai.warc.gz")
	writeWARC(t, p, aiCaptures)
	byURL := map[string]capture{}
	for _, c := range aiCaptures {
		byURL[c.url] = c
	}
	out, s := run(t, Config{Inputs: []string{p}, Paths: aiPaths, Format: FormatJSONL, AI: true})
	rows := decodeAIRows(t, out)
	if len(rows) != len(aiCaptures)*len(aiPaths) || s.Rows != int64(len(rows)) {
		t.Fatalf("%d rows (%d counted), want %d captures × %d paths", len(rows), s.Rows, len(aiCaptures), len(aiPaths))
	}
	seen := map[aiuse.Verdict]bool{}
	for _, r := range rows {
		robots := wantRobots(byURL, r["url"].(string))
		checkAIRow(t, r, robots, r["path"].(string))
		if robots != nil {
			site := aiuse.Site{Robots: robots}
			m := site.Matrix(r["path"].(string))
			for i := range m.Cells {
				for _, a := range m.Cells[i] {
					seen[a.Verdict] = true
				}
			}
		}
	}
	for _, v := range []aiuse.Verdict{aiuse.Allowed, aiuse.NotAllowed, aiuse.NotStated, aiuse.NotCrawlable} {
		if !seen[v] {
			t.Errorf("no cell says %v: the captures do not reach every verdict", v)
		}
	}

	var urls strings.Builder
	var asked []string
	for _, c := range aiCaptures {
		for _, path := range aiPaths {
			u := strings.TrimSuffix(c.url, "/robots.txt") + path
			urls.WriteString(u + "\n")
			asked = append(asked, u)
		}
	}
	urls.WriteString("https://uncaptured.example/a\n")
	out, s = run(t, Config{Inputs: []string{p}, URLs: strings.NewReader(urls.String()), Format: FormatJSONL, AI: true})
	rows = decodeAIRows(t, out)
	if len(rows) != len(asked) || s.Unmatched != 1 {
		t.Fatalf("-urls: %d rows, %d unmatched; want %d, 1", len(rows), s.Unmatched, len(asked))
	}
	for i, r := range rows {
		if r["url"] != asked[i] {
			t.Fatalf("-urls: row %d is %v, want %s", i, r["url"], asked[i])
		}
		checkAIRow(t, r, wantRobots(byURL, r["robots_url"].(string)), asked[i])
	}
}

// TestAITableCorpus holds the AI table of the real corpus, read as a
// directory, to aiuse asked directly, cell by cell.
func TestAITableCorpus(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "real")
	byURL := map[string]capture{}
	for _, c := range corpusCaptures(t) {
		byURL[strings.ToLower(c.url)] = c // a directory's file names are hosts, in any case
	}
	paths := []string{"/", "/search", "/private/", "/wp-admin/admin-ajax.php", "/images/a.png?x=1"}
	out, _ := run(t, Config{Inputs: []string{dir}, Paths: paths, Format: FormatJSONL, AI: true})
	rows := decodeAIRows(t, out)
	if len(rows) != len(byURL)*len(paths) {
		t.Fatalf("%d rows, want %d files × %d paths", len(rows), len(byURL), len(paths))
	}
	for _, r := range rows {
		robots := wantRobots(byURL, strings.ToLower(r["url"].(string)))
		if robots == nil {
			t.Fatalf("%v: no file for the row", r["url"])
		}
		checkAIRow(t, r, robots, r["path"].(string))
		if t.Failed() {
			break
		}
	}
}

// TestAIColumnNames: each column name is unique and reads in SQL without
// quotes (lower-case letters, digits, '_'), one per documented use.
func TestAIColumnNames(t *testing.T) {
	tests := []struct {
		op   string
		use  crawlers.Use
		want string
		why  string
	}{
		{"Google", crawlers.UseTraining, "ai_google_training", "lower case"},
		{"Common Crawl", crawlers.UseTraining, "ai_common_crawl_training", "a space is '_'"},
		{"OpenAI", crawlers.UseUserFetch, "ai_openai_user_fetch", "a '-' is '_'"},
		{"Google", crawlers.UseAIInput, "ai_google_ai_input", "the use's words"},
		{" A--B ", "x.y", "ai_a_b_x_y", "runs are one '_', none at the ends"},
	}
	for _, tt := range tests {
		if got := AIColumn(tt.op, tt.use); got != tt.want {
			t.Errorf("%s: AIColumn(%q, %q) = %q, want %q", tt.why, tt.op, tt.use, got, tt.want)
		}
	}
	names := map[string]bool{}
	cells := aiCells()
	if len(cells) != len(crawlers.AllGoverns()) {
		t.Errorf("%d cells, the crawler table documents %d uses", len(cells), len(crawlers.AllGoverns()))
	}
	for _, c := range cells {
		for _, n := range []string{c.name, c.name + "_line"} {
			if names[n] {
				t.Errorf("column %s twice", n)
			}
			names[n] = true
			for _, ch := range n {
				if !('a' <= ch && ch <= 'z' || '0' <= ch && ch <= '9' || ch == '_') {
					t.Errorf("column %s: %q needs quotes in SQL", n, ch)
				}
			}
		}
	}
}

// TestAITableWorkers: the AI table is the same bytes in every format
// whatever the number of workers, a .gz WARC read in small segments.
func TestAITableWorkers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ai.warc.gz")
	var cs []capture
	for i := range 40 {
		c := aiCaptures[i%len(aiCaptures)]
		c.url = strings.Replace(c.url, ".example", fmt.Sprintf("%d.example", i), 1)
		cs = append(cs, c)
	}
	writeWARC(t, p, cs)
	for _, f := range []string{FormatCSV, FormatJSONL, FormatParquet} {
		one, _ := run(t, Config{Inputs: []string{p}, Paths: aiPaths, Format: f, AI: true, Workers: 1})
		two, _ := run(t, Config{Inputs: []string{p}, Paths: aiPaths, Format: f, AI: true, Workers: 2, split: 512})
		if !bytes.Equal(one, two) || len(one) == 0 {
			t.Errorf("%s: 1 worker wrote %d bytes, 2 workers %d; they differ", f, len(one), len(two))
		}
	}
}

// TestAITableRefused: the AI table is a file format's, and no change
// table.
func TestAITableRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ai.warc.gz")
	writeWARC(t, p, aiCaptures[:1])
	for _, cfg := range []Config{
		{Inputs: []string{p}, AI: true, Format: FormatTable},
		{Inputs: []string{p}, AI: true, Before: []string{p}},
	} {
		if _, err := Run(context.Background(), cfg, io.Discard); err == nil || !strings.Contains(err.Error(), "AI table") {
			t.Errorf("format %q, before %v: error %v, want the AI table refused", cfg.Format, cfg.Before, err)
		}
	}
}
