package main

import (
	"strings"
	"testing"
)

// TestPassPathColumn checks the pass's second temoto column: the path it
// is given, cut from the URL outside the timed call, is the one the first
// column cuts inside it, so both ask temoto the same questions and get the
// same answers.
func TestPassPathColumn(t *testing.T) {
	data := []byte("User-agent: *\nDisallow: /private/\nDisallow: /*?sort=\nAllow: /private/open$\n\nUser-agent: bot\nDisallow: /\n")
	f := &file{name: "real/a.txt", data: data, questions: []question{
		newQuestion("Googlebot", "https://a.example/private/x", false),
		newQuestion("Googlebot", "https://a.example/private/open", true),
		newQuestion("Googlebot", "https://a.example/list?sort=asc", false),
		newQuestion("Googlebot", "https://a.example/list?page=2#top", true),
		newQuestion("Googlebot", "https://a.example", true),
		newQuestion("bot", "https://a.example/", false),
	}, crawled: []question{newQuestion("Googlebot", "https://a.example/private/y?x=1", false)}}
	fq := &fileQuery{f: f}
	var err error
	if fq.answer[iTemoto], err = temotoLib.open(data); err != nil {
		t.Fatal(err)
	}
	fq.answer[iOurs], _ = ours.open(data)
	var l loop
	m := newPassMeasure(&queryMeasure{files: []*fileQuery{fq}}, &l)
	// The file has corpus.tsv questions and a crawled URL but no derived
	// questions, so the derived order is left out.
	if m.files != 1 || len(m.orders) != 4 {
		t.Fatalf("pass over %d files in %d orders, want 1 file in 4", m.files, len(m.orders))
	}
	crawler := m.order(crawlerOrder)
	if crawler == nil || crawler.n != len(f.questions) || !crawler.target {
		t.Fatalf("the crawler-like order is %+v, want the file's %d corpus.tsv questions, with the target", crawler, len(f.questions))
	}
	for _, o := range m.orders {
		if o != crawler && o.target {
			t.Errorf("%s: the target applies to the crawler-like order alone", o.name)
		}
	}
	if c := m.order("crawled URLs alone (as Googlebot), corpus order"); c == nil || c.n != len(f.crawled) {
		t.Errorf("the crawled order is %+v, want the file's %d crawled URLs", c, len(f.crawled))
	}
	byPath, err := temotoLib.openPath(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range f.probes() {
		q.path = requestURI(q.url)
		if got, want := byPath(&q), fq.answer[iTemoto](&q); got != want {
			t.Errorf("%s %s: temoto given the path %q says %v, given the URL %v", q.agent, q.url, q.path, got, want)
		}
	}
	// Every series of the pass runs, and both temoto columns are timed.
	l.run(1, 0)
	for _, o := range m.orders {
		if !o.series[iTemoto].ok() || !o.temotoPath.ok() || !o.series[iOurs].ok() {
			t.Errorf("%s: a series has no sample", o.name)
		}
	}
	var tab table
	m.rows(&tab)
	if len(tab.rows) != 1 || !strings.HasPrefix(tab.rows[0][0], "Crawler-like pass: corpus.tsv's 6 questions") {
		t.Errorf("main table rows %q, want the crawler-like pass over 6 questions", tab.rows)
	}
}

// TestPassMet checks the target's arithmetic: the median of the per-round
// ratios, not their best round.
func TestPassMet(t *testing.T) {
	for _, c := range []struct {
		rp   []float64
		want bool
	}{
		{nil, false},
		{[]float64{10}, true},
		{[]float64{9.99}, false},
		{[]float64{6.8, 7.2, 30}, false}, // one fast round does not carry it
		{[]float64{9, 10, 11}, true},
	} {
		if got := passMet(c.rp); got != c.want {
			t.Errorf("passMet(%v) = %v, want %v", c.rp, got, c.want)
		}
	}
}
