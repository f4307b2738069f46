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
	if fq.obj[iTemoto], fq.answer[iTemoto], err = temotoLib.open(data); err != nil {
		t.Fatal(err)
	}
	fq.obj[iOurs], fq.answer[iOurs], _ = ours.open(data)
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
	if n := len(crawlerQuestions(f)); n != crawler.n {
		t.Errorf("crawlerQuestions (the -profile crawler workload) has %d questions, the pass's order %d", n, crawler.n)
	}
	// A file temoto cannot open is left out of the pass, so out of the
	// profiled workload too.
	bad := &file{name: "real/b.txt", data: []byte("User-agent: *\nCrawl-delay: soon\n"), questions: f.questions[:1]}
	if _, _, err := temotoLib.open(bad.data); err == nil {
		t.Fatal("temoto opened a file with an invalid Crawl-delay; the test needs a file it rejects")
	}
	if qs := crawlerQuestions(bad); len(qs) != 0 {
		t.Errorf("crawlerQuestions asks %d questions of a file temoto rejects, want none", len(qs))
	}
	for _, o := range m.orders {
		if o != crawler && o.target {
			t.Errorf("%s: the target applies to the crawler-like order alone", o.name)
		}
	}
	if c := m.order("crawled URLs alone (as Googlebot), corpus order"); c == nil || c.n != len(f.crawled) {
		t.Errorf("the crawled order is %+v, want the file's %d crawled URLs", c, len(f.crawled))
	}
	_, byPath, err := temotoLib.openPath(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range f.probes() {
		q.path = requestURI(q.url)
		if got, want := byPath(&q), fq.answer[iTemoto](&q); got != want {
			t.Errorf("%s %s: temoto given the path %q says %v, given the URL %v", q.agent, q.url, q.path, got, want)
		}
	}
	// The passes' rows ask the questions of the order, in its order, of
	// the objects the per-file measure answers with.
	all := m.order("all questions, corpus order (file by file)")
	if all == nil || len(all.oursRows) != len(f.probes()) {
		t.Fatalf("the order of all questions is %+v, want rows for the file's %d questions", all, len(f.probes()))
	}
	for i, q := range f.probes() {
		q.path = requestURI(q.url)
		o, u, p := all.oursRows[i], all.temotoRows[i], all.atPath[i]
		if o.r != fq.obj[iOurs] || u.r != fq.obj[iTemoto] || o.agent != q.agent || o.url != q.url ||
			u.agent != q.agent || u.at != q.url || p.agent != q.agent || p.at != q.path {
			t.Fatalf("row %d: %+v, %+v, %+v; want question %+v of the per-file objects", i, o, u, p, q)
		}
		if got, want := o.r.Allowed(o.agent, o.url), fq.answer[iOurs](&q); got != want {
			t.Errorf("%s %s: ours' row says %v, the per-file measure %v", q.agent, q.url, got, want)
		}
		if got, want := p.r.TestAgent(p.at, p.agent), fq.answer[iTemoto](&q); got != want {
			t.Errorf("%s %s: temoto's row given the path says %v, given the URL %v", q.agent, q.url, got, want)
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

// TestSlowestRow checks the main table's slowest-file row: the slowest
// file over its corpus.tsv questions and over all its questions can be
// two files, and the 1 µs target needs both.
func TestSlowestRow(t *testing.T) {
	at := func(ns float64) *series { return &series{samples: []float64{ns}} }
	q := func(n int) []question { return make([]question, n) }
	// a: 900 ns over its 2 corpus.tsv questions, 300 ns over 8 more.
	a := &fileQuery{f: &file{name: "real/a.txt", questions: q(2), crawled: q(8)}}
	a.query[iOurs], a.extra[iOurs] = at(900), at(300)
	// b: 600 ns over corpus.tsv's, 1.2 µs over its 2 crawled URLs: 900 ns in all.
	b := &fileQuery{f: &file{name: "real/b.txt", questions: q(2), crawled: q(2)}}
	b.query[iOurs], b.extra[iOurs] = at(600), at(1200)
	for _, fq := range []*fileQuery{a, b} {
		fq.query[iTemoto], fq.extra[iTemoto] = at(5000), at(5000)
	}
	var tab table
	(&queryMeasure{files: []*fileQuery{a, b}}).slowestRow(&tab)
	if len(tab.rows) != 1 {
		t.Fatalf("%d rows, want 1", len(tab.rows))
	}
	if got, want := tab.rows[0][3], "900 ns (a.txt); 900 ns (b.txt)"; got != want {
		t.Errorf("ours cell %q, want %q", got, want)
	}
	if got := tab.rows[0][5]; got != "≤ 1 µs ✓" {
		t.Errorf("target %q, want met", got)
	}
	b.extra[iOurs] = at(1600) // b: 1.1 µs over all its questions
	tab = table{}
	(&queryMeasure{files: []*fileQuery{a, b}}).slowestRow(&tab)
	if got := tab.rows[0][5]; got != "≤ 1 µs ✗" {
		t.Errorf("target %q with b at 1.1 µs over all its questions, want missed", got)
	}
}
