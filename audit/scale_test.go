package audit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// TestMemoryBounded audits a generated input of growing size and checks
// that the heap in use stays under a fixed bound (issue: "memory bounded
// whatever the input size ... checked by a test"): a worker holds one
// capture and one Parquet row group, not the input.
func TestMemoryBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap sizes meaningless; run without -race")
	}
	dir := t.TempDir()
	body := "User-agent: *\nDisallow: /private\n" + strings.Repeat("Disallow: /some/long/path/for/filler\n", 1500) // ~55 KB
	var peaks []uint64
	for _, n := range []int{200, 1600} {
		var buf bytes.Buffer
		member := gzipMember(t, warcRecord(t, capture{url: "https://m.example/robots.txt", status: 200, body: body}))
		for i := 0; i < n; i++ {
			buf.Write(member) // every capture is answered, even of one URL
		}
		p := filepath.Join(dir, fmt.Sprintf("m%d.warc.gz", n))
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		}()
		// Two workers, so that what is in flight does not depend on the machine.
		s, err := Run(context.Background(), Config{Inputs: []string{p}, Format: FormatParquet, NoLint: true, TempDir: dir, Workers: 2, AllCaptures: true}, io.Discard)
		close(stop)
		<-done
		if err != nil || s.Captures != int64(n) {
			t.Fatalf("%v, %d captures", err, s.Captures)
		}
		t.Logf("%d captures, %.1f MB of bodies: heap in use peaked at %.1f MB", n, float64(n*len(body))/1e6, float64(peak.Load())/1e6)
		peaks = append(peaks, peak.Load())
	}
	// Eight times the input may not take much more memory than once.
	if peaks[1] > peaks[0]*3/2+16<<20 {
		t.Errorf("heap grew with the input: %d then %d bytes", peaks[0], peaks[1])
	}
	const bound = 96 << 20
	if peaks[1] > bound {
		t.Errorf("heap peaked at %d bytes, over %d", peaks[1], bound)
	}
}

// TestOtherInputs reads the same captures from JSON Lines and a directory
// and gets the same answers as from a WARC.
func TestOtherInputs(t *testing.T) {
	dir := t.TempDir()
	bodies := map[string]string{
		"a.example": "User-agent: *\nDisallow: /private\n",
		"b.example": "User-agent: GPTBot\nDisallow: /\nUser-agent: *\nAllow: /\nCrawl-delay: 3\n",
	}
	var cs []capture
	var jl bytes.Buffer
	os.Mkdir(filepath.Join(dir, "files"), 0o755)
	for _, h := range []string{"a.example", "b.example"} {
		cs = append(cs, capture{url: "https://" + h + "/robots.txt", status: 200, body: bodies[h]})
		fmt.Fprintf(&jl, `{"url": "https://%s/robots.txt", "status": 200, "body": %q}`+"\n", h, bodies[h])
		os.WriteFile(filepath.Join(dir, "files", h+".txt"), []byte(bodies[h]), 0o644)
	}
	jl.WriteString("{not json\n")
	writeWARC(t, filepath.Join(dir, "c.warc"), cs)
	os.WriteFile(filepath.Join(dir, "c.jsonl"), jl.Bytes(), 0o644)
	pick := func(b []byte) string { // the answer columns only
		var s []string
		for _, r := range decodeRows(t, b) {
			s = append(s, fmt.Sprintf("%s %s %s %v %v", r.URL, r.Agent, r.Label, *r.Verdicts[0].Allowed, r.CrawlDelay != nil))
		}
		return strings.Join(s, "\n")
	}
	w, _ := run(t, Config{Inputs: []string{filepath.Join(dir, "c.warc")}, Format: FormatJSONL})
	j, js := run(t, Config{Inputs: []string{filepath.Join(dir, "c.jsonl")}, Format: FormatJSONL})
	d, _ := run(t, Config{Inputs: []string{filepath.Join(dir, "files")}, Format: FormatJSONL})
	if pick(w) != pick(j) || pick(w) != pick(d) || pick(w) == "" {
		t.Errorf("answers differ:\nwarc\n%s\njsonl\n%s\ndir\n%s", pick(w), pick(j), pick(d))
	}
	if len(js.Problems) != 1 || js.Problems[0].Kind != ProblemJSON || js.Problems[0].Offset != int64(jl.Len()-len("{not json\n")) {
		t.Errorf("JSON problems: %v", js.Problems)
	}
}

// TestURLList joins a URL list to the captures by RobotsURL and checks
// each answer against the core.
func TestURLList(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "u.warc.gz")
	body := "User-agent: *\nDisallow: /private\nAllow: /private/ok\n"
	writeWARC(t, p, []capture{
		{url: "https://a.example/robots.txt", status: 200, body: body},
		{url: "http://b.example/robots.txt", status: 301, location: "https://a.example/robots.txt"},
		{url: "https://c.example:8443/robots.txt", status: 500},
	})
	urls := "https://a.example/private/x\nhttps://A.example:443/private/ok\nhttp://b.example/private\nhttps://c.example:8443/\nhttps://none.example/\nnot a url\n"
	for _, chunk := range []int{1, 100} {
		out, s := run(t, Config{Inputs: []string{p}, URLs: strings.NewReader(urls), Format: FormatJSONL, ChunkURLs: chunk,
			Agents: []Agent{{Tokens: []string{"Googlebot"}}, {Tokens: []string{"GPTBot", "CCBot"}}}})
		if s.Unmatched != 1 || s.URLs != 5 || s.Skipped != 1 {
			t.Errorf("chunk %d: unmatched %d urls %d skipped %d", chunk, s.Unmatched, s.URLs, s.Skipped)
		}
		r := robotstxt.Parse([]byte(body))
		want := map[string]bool{
			"https://a.example/private/x":      r.Allowed("Googlebot", "https://a.example/private/x"),
			"https://A.example:443/private/ok": r.Allowed("Googlebot", "/private/ok"),
			"http://b.example/private":         r.Allowed("Googlebot", "/private"),
			"https://c.example:8443/":          false,
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var row URLRow
			if err := jsonUnmarshal([]byte(line), &row); err != nil {
				t.Fatal(err)
			}
			n++
			if w, ok := want[row.URL]; !ok || row.Allowed == nil || *row.Allowed != w {
				t.Errorf("chunk %d: %s %s allowed %v, want %v", chunk, row.URL, row.Agent, row.Allowed, w)
			}
		}
		if n != 8 {
			t.Errorf("chunk %d: %d rows, want 8", chunk, n)
		}
	}
}
