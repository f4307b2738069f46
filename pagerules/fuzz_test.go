package pagerules

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

// FuzzAddHeader: any header value reads without panicking; every rule
// found says where it was written, as a part of the value; and reading a
// value twice states what reading it once does (the rules only add up).
func FuzzAddHeader(f *testing.F) {
	for _, tt := range headerTests {
		for _, l := range tt.lines {
			_, v, _ := strings.Cut(l, ": ")
			f.Add(v, tt.agent)
		}
	}
	f.Fuzz(func(t *testing.T, v, agent string) {
		var once, twice Rules
		h := http.Header{"X-Robots-Tag": {v}, "Robots-Tag": {v}}
		once.AddHeader(h, agent)
		twice.AddHeader(h, agent)
		twice.AddHeader(h, agent)
		for x := Rule(0); x < NumRules; x++ {
			if o := once.Origin(x); once.Has(x) && (o.Source == 0 || o.N < 1 || !strings.Contains(v, o.Text)) {
				t.Errorf("%v: origin %+v is not in %q", x, o, v)
			}
		}
		u1, u2 := len(once.Unknown), len(twice.Unknown)
		once.Unknown, twice.Unknown = nil, nil
		if summary(&once) != summary(&twice) || u2 != min(2*u1, MaxUnknown) {
			t.Errorf("%q read twice: %q and %d unknown, once: %q and %d", v, summary(&twice), u2, summary(&once), u1)
		}
		once.MayIndex(time.Now())
		once.SnippetLimit()
		once.VideoPreviewLimit()
	})
}

// FuzzAddMeta: any page reads without panicking, never past the bound, and
// the rules seen within a bound are the rules of the page cut at it.
func FuzzAddMeta(f *testing.F) {
	for _, tt := range metaTests {
		f.Add([]byte(tt.html), tt.agent)
	}
	f.Add([]byte("<html><head><title>"+strings.Repeat("x", 5000)), "Foobot")
	f.Fuzz(func(t *testing.T, page []byte, agent string) {
		const limit = 1 << 10
		var r Rules
		scan, err := r.AddMeta(bytes.NewReader(page), agent, limit)
		if err != nil {
			t.Fatal(err)
		}
		if scan.Read > limit || scan.Read > int64(len(page)) {
			t.Fatalf("read %d bytes of %d with a bound of %d", scan.Read, len(page), limit)
		}
		if len(page) <= limit && !scan.Ended {
			// A page within the bound is read to its end or its head's.
			t.Fatalf("a %d-byte page did not end: %+v", len(page), scan)
		}
	})
}

// FuzzParseDate: any value parses or not without panicking, and a date
// read prints back as one that reads the same.
func FuzzParseDate(f *testing.F) {
	for _, tt := range dateTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDate(s)
		if !ok {
			return
		}
		again, ok := parseDate(got.UTC().Format("2006-01-02T15:04:05Z"))
		if got.Year() >= 0 && got.Year() <= 9999 && (!ok || !again.Equal(got)) {
			t.Errorf("%q gives %v, which reads back as %v, %v", s, got, again, ok)
		}
	})
}
