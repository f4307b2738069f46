package robotstxt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/observe"
)

// nopObserver watches a parse and does nothing with what it sees.
type nopObserver struct{}

func (nopObserver) Line(*observe.Line) {}

// keepNothingBodies are files whose lines Parse passes over after a look
// at their first byte (see builder.keepsNothing), each beside lines it
// must still read; each row says why the line it holds matters.
var keepNothingBodies = []struct{ why, body string }{
	{"an HTML page served as robots.txt: no key made of token bytes before the first group (builder.line)",
		"<!DOCTYPE html>\n<html>\n  <head><title>x: y</title></head>\n    <body>\n\t<p>a b</p>\n<a href=\"https://h/\">z</a>\n"},
	{"after the first group a colon-less line of two tokens is kept whatever its key (SPEC §1, Robots.Others)",
		"<p>x</p>\nUser-agent: *\n<div class>\n<a b: c\nDisallow: /x\n  <p>one\n"},
	{"whitespace in place of a missing colon, before the first group (SPEC §1)",
		"<html>\nuser-agent a\ndisallow /x\n  sitemap https://h/s.xml\n"},
	{"keys of token bytes before the first group: the file's own Others",
		"Host example.com\nClean-param: a /b\n-x y\n_y z\n Content-Signal: search=yes\nUser-agent: *\nDisallow: /\n"},
	{"whitespace-only and indented lines (SPEC §1: lines are trimmed)",
		"   \n\t\v\n        Disallow: /\n   user-agent: *\n      disallow: /y\n \f allow /y/z\n"},
	{"NUL and '#' end a line's content (SPEC §1)",
		"\x00User-agent: *\n#x\n  #User-agent: a\n\x00 Disallow: /\nUser-agent: a\n  \x00x y\nDisallow: /a\n"},
	{"misspellings Google's parser accepts (SPEC §2)",
		"<p>\n useragent b\n dissallow /z\n  Site-map: https://h/m.xml\nUser Agent: c\n\tdisalow: /w\n"},
	{"keys that start with no letter are never a directive, with or without a colon",
		"1user-agent: *\n/disallow: /\n*User-agent: b\nuser-agent: a\n%64isallow: /p\n9 x\n(a b\n"},
	{"a first byte ≥ 0x80 is no token byte",
		"\xc3\xa9t\xc3\xa9: x\n\xef\xbb\xbfUser-agent: *\nUser-agent: *\n\xc3\xa9 y\nDisallow: /q\n"},
	{"content stops at maxLineLen bytes: indentation past it leaves an empty line, short of it a key",
		strings.Repeat(" ", maxLineLen) + "User-agent: *\n" + strings.Repeat(" ", maxLineLen-12) + "User-agent: a\nDisallow: /t\n" +
			strings.Repeat("\t", maxLineLen-1) + "x y\n"},
	{"lines ending with CR alone are read again (SPEC §1)",
		"<html>\r\n  <b>\r\nUser-agent: *\rDisallow: /c\r  <i>x y\r\n"},
}

// TestKeepNothingSeam holds the lines Parse passes over after a look at
// their first byte (builder.keepsNothing) to the observed parse, which
// reads every line in full for its observer: both parses must keep the
// same file, byte for byte in its binary form, and the first question of
// a deferred parse, which passes over more, must find the rule the
// observed parse's Decide finds. The corpus's files, HTML pages served as
// robots.txt among them, are held too when ../shared is there.
func TestKeepNothingSeam(t *testing.T) {
	agents := []string{"Googlebot", "a", "b", "c", "x"}
	urls := []string{"/", "/x", "/y/z", "/a", "/t", "/q", "/c", "/w", "/p"}
	check := func(t *testing.T, name string, body []byte) {
		t.Helper()
		body = body[:min(len(body), maxFileLen)]
		plain, err := parse(body).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		observed := parseLines(body, indexMin, &observing{o: nopObserver{}})
		want, err := observed.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(plain, want) {
			t.Fatalf("%s: Parse keeps another file than the observed parse", name)
		}
		if len(body) > lazyMax {
			return
		}
		for _, a := range agents {
			for _, u := range urls {
				checkFirst(t, body, a, u, observed.Decide(a, u))
			}
		}
	}
	for _, tt := range keepNothingBodies {
		check(t, tt.why, []byte(tt.body))
	}
	t.Run("corpus", func(t *testing.T) {
		for _, dir := range []string{"real", "synthetic"} {
			for _, f := range readCorpus(t, dir) {
				check(t, f.name, f.data)
			}
		}
	})
}
