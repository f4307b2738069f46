package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSmallMeasure checks which files the small-file workloads take (at
// most smallMax bytes, opened by temoto, with questions), that w2 asks each
// smallQuestions questions with their paths cut, and that every series
// runs and gives a row against grobotstxt.
func TestSmallMeasure(t *testing.T) {
	small := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/open$\n")
	big := append(bytes.Repeat([]byte("# padding line of a large file\n"), 200), small...)
	files := []*file{
		{name: "real/a.txt", data: small, questions: []question{
			newQuestion("Googlebot", "https://a.example/private/x", false),
			newQuestion("Googlebot", "https://a.example/private/open", true),
		}},
		{name: "real/big.txt", data: big, questions: []question{newQuestion("Googlebot", "https://b.example/", true)}},
		{name: "real/none.txt", data: small},
	}
	var l loop
	m := newSmallMeasure(files, &l)
	if m.files != 1 || m.bytes != len(small) {
		t.Fatalf("small set of %d files, %d bytes; want 1 file of %d bytes", m.files, m.bytes, len(small))
	}
	l.run(2, 0)
	for li := range nLibs {
		if !m.w1[li].ok() || !m.w2[li].ok() {
			t.Errorf("library %d: a series has no sample", li)
		}
	}
	var tab table
	m.rows(&tab)
	if len(tab.rows) != 2 || !strings.Contains(tab.rows[1][3], "grobotstxt") {
		t.Errorf("rows %q, want w1 and w2 with ours against grobotstxt", tab.rows)
	}
}
