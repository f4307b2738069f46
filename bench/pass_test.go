package main

import "testing"

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
	if m.files != 1 || len(m.orders) != 3 {
		t.Fatalf("pass over %d files in %d orders, want 1 file in 3", m.files, len(m.orders))
	}
	if n := m.orders[1].n; n != len(f.questions) {
		t.Errorf("the corpus.tsv order asks %d questions, want the file's %d", n, len(f.questions))
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
}
