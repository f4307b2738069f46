package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

func TestQuantile(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3} // unsorted on purpose: quantile sorts a copy
	for _, tc := range []struct {
		why  string
		q    float64
		want float64
	}{
		{"p50 of five values is the third", 0.5, 3},
		{"p90 of five values: ceil(4.5) = 5th", 0.9, 5},
		{"p20 lands exactly on the first value", 0.2, 1},
		{"p21 needs the second", 0.21, 2},
		{"p100 is the max", 1, 5},
	} {
		if got := quantile(v, tc.q); got != tc.want {
			t.Errorf("%s: quantile(%v) = %v, want %v", tc.why, tc.q, got, tc.want)
		}
	}
	if v[0] != 5 {
		t.Errorf("quantile sorted its argument in place: %v", v)
	}
	if !math.IsNaN(quantile(nil, 0.5)) {
		t.Errorf("quantile of no values is not NaN")
	}
}

func TestCommas(t *testing.T) {
	for _, tc := range []struct {
		why  string
		n    int
		want string
	}{
		{"below a thousand: unchanged", 999, "999"},
		{"one separator", 1000, "1,000"},
		{"two separators", 100000000, "100,000,000"},
		{"sign stays in front", -12345, "-12,345"},
	} {
		if got := commas(tc.n); got != tc.want {
			t.Errorf("%s: commas(%d) = %q, want %q", tc.why, tc.n, got, tc.want)
		}
	}
}

// TestCycle checks that a series' batches are whole multiples of its
// cycle, so that each question of a file is timed equally often.
func TestCycle(t *testing.T) {
	calls := make([]int, 7)
	s := newCycle(func(i int) {
		calls[i%len(calls)]++
		time.Sleep(50 * time.Microsecond)
	}, len(calls))
	s.run(time.Millisecond) // calibration
	if s.n%len(calls) != 0 || s.n == 0 {
		t.Fatalf("calibrated n = %d, want a positive multiple of %d", s.n, len(calls))
	}
	clear(calls)
	s.run(time.Millisecond)
	for i, c := range calls {
		if c != s.n/len(calls) {
			t.Errorf("call %d ran %d times in a batch of %d, want %d", i, c, s.n, s.n/len(calls))
		}
	}
}

// TestScaleFiles checks the synthetic groups: the rule count, and that
// the package answers each question as the rules call for (which the run
// also counts, for both libraries).
func TestScaleFiles(t *testing.T) {
	for _, n := range []int{10, 100, 1000} {
		for set, wild := range []bool{false, true} {
			data := scaleFile(n, wild)
			r := robotstxt.Parse(data)
			if got := len(r.Group("Googlebot").Rules()); got != n {
				t.Errorf("%d rules (wildcard set %v): the group has %d rules", n, wild, got)
			}
			if stars := bytes.Count(data, []byte("*.pdf$")); wild != (stars > 0) || wild && stars != n/5 {
				t.Errorf("%d rules (wildcard set %v): %d wildcard rules, want %d", n, wild, stars, n/5)
			}
			qs := scaleQueries(n)
			for kind := range nKinds {
				if len(qs[kind]) == 0 {
					t.Errorf("%d rules: no %s questions", n, kindNames[kind])
				}
				for _, sq := range qs[kind] {
					if got := r.Allowed(sq.q.agent, sq.q.url); got != sq.want[set] {
						t.Errorf("%d rules (wildcard set %v), %s %s: Allowed = %v, want %v",
							n, wild, kindNames[kind], sq.q.url, got, sq.want[set])
					}
				}
			}
		}
	}
}

// TestBinaryMeasure runs the load-vs-parse measure with a stand-in codec
// (the binary form is the source, and loading it parses it), so that its
// plumbing is tested whether or not the package has a binary form.
func TestBinaryMeasure(t *testing.T) {
	files := []*file{
		{name: "real/a.txt", data: []byte("User-agent: *\nDisallow: /private/\nSitemap: https://a.example/s.xml\n"),
			questions: []question{newQuestion("Googlebot", "https://a.example/private/x", false),
				newQuestion("Googlebot", "https://a.example/public", true)}},
		{name: "real/b.txt", data: []byte("User-agent: bot\nAllow: /\n")},
		{name: "real/empty.txt"},
	}
	// The measure marshals each non-empty file's parsed form first in file
	// order, then again the same *Robots: the stand-in hands out the
	// sources in that order.
	src := map[*robotstxt.Robots][]byte{}
	next := 0
	c := &codec{
		marshal: func(r *robotstxt.Robots) ([]byte, error) {
			if b, ok := src[r]; ok {
				return b, nil
			}
			for len(files[next].data) == 0 {
				next++
			}
			src[r] = files[next].data
			next++
			return src[r], nil
		},
		unmarshal: func(data []byte) (*robotstxt.Robots, error) { return robotstxt.Parse(data), nil },
	}
	var parsed heapTally
	holder := make([]any, 4)
	for _, f := range files {
		if len(f.data) > 0 {
			parsed.add(func(d []byte) (any, error) { return robotstxt.Parse(d), nil }, f.data, holder, 1<<10)
		}
	}
	var l loop
	m := newBinaryMeasure(files, c, &parsed, 1<<10, &l)
	if len(m.files) != 2 {
		t.Fatalf("measured %d files, want the 2 non-empty ones", len(m.files))
	}
	l.run(1, 10*time.Microsecond)
	var out strings.Builder
	m.print(&out)
	for _, want := range []string{
		"| 2 files | Parse | UnmarshalBinary | MarshalBinary | load vs parse |",
		"answered 0 of 2 questions differently",
		"sitemaps differed in 0 files",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	var none strings.Builder
	newBinaryMeasure(files, nil, &parsed, 1<<10, &loop{}).print(&none)
	if !strings.Contains(none.String(), "Not measured") {
		t.Errorf("without a codec the report does not say so:\n%s", none.String())
	}
}

func TestDeriveQuestions(t *testing.T) {
	f := &file{name: "real/example.org.txt", data: []byte(
		"User-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\r\n" +
			"Disallow: /a/*.pdf$ # comment\n" +
			"user-agent: *\n" +
			"Disallow:\n" +
			"Allow: b/\n")}
	qs := deriveQuestions(f)
	var got []string
	for _, q := range qs {
		got = append(got, q.agent+" "+q.url)
	}
	want := []string{
		"Googlebot https://example.org/", // the three fixed URLs
		"Googlebot https://example.org/robots.txt",
		"Googlebot https://example.org/index.html",
		"Googlebot https://example.org/",        // each named agent once, by its product token
		"Googlebot https://example.org/a/x.pdf", // '*' made 'x', '$' dropped, comment cut; agents in turn, each once
		"bingbot https://example.org/a/x.pdf/page.html",
		"UnknownBot https://example.org/a/x.pdf?q=1",
		"Googlebot https://example.org/b/", // a path without '/' gets one; the empty Disallow is skipped
		"bingbot https://example.org/b/page.html",
		"UnknownBot https://example.org/b/?q=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("deriveQuestions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	addDerived([]*file{f})
	if len(f.derived) != len(want) {
		t.Errorf("addDerived gave a file without questions %d questions, want %d", len(f.derived), len(want))
	}
	asked := &file{name: "real/x.txt", data: f.data, questions: []question{newQuestion("a", "https://x/", true)}}
	addDerived([]*file{asked})
	if len(asked.derived) != 0 {
		t.Errorf("addDerived gave a file with corpus.tsv questions %d derived ones", len(asked.derived))
	}
}

// TestOursCodec checks that the package's binary form is found, and that a
// file loaded from it answers as the parsed one.
func TestOursCodec(t *testing.T) {
	c := oursCodec()
	if c == nil {
		t.Fatal("*robotstxt.Robots has no MarshalBinary and UnmarshalBinary")
	}
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /a/*.pdf$\nAllow: /a/b\n"))
	blob, err := c.marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := c.unmarshal(blob)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"https://x/a/c.pdf", "https://x/a/b.pdf", "https://x/a/c.pdf?x"} {
		if got, want := loaded.Decide("bot", u), r.Decide("bot", u); got != want {
			t.Errorf("%s: loaded %+v, parsed %+v", u, got, want)
		}
	}
}

// benchOurs runs one of the -profile workloads as a Go benchmark, for
// benchstat: go test -run XXX -bench Ours -count 8 . One op is the whole
// round: every real file parsed, or every question asked in corpus order.
func benchOurs(b *testing.B, what string) {
	c, err := loadCorpus(filepath.Join("..", "..", "shared"), 1, true, true)
	if err != nil {
		b.Skip("no corpus:", err)
	}
	work, n, bytes, err := oursWork(c, what)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(bytes)
	work()
	b.ResetTimer()
	for b.Loop() {
		work()
	}
	if what != "parse" {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/query")
	}
}

func BenchmarkOursParse(b *testing.B) { benchOurs(b, "parse") }
func BenchmarkOursPass(b *testing.B)  { benchOurs(b, "pass") }

// BenchmarkOursCrawlerPass is ours' half of the crawler-like pass (the
// pass table's target row): corpus.tsv's questions in corpus order.
func BenchmarkOursCrawlerPass(b *testing.B) { benchOurs(b, "crawler") }
