package lint

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// randomRobots returns a body of random lines in the shapes the parser
// tells apart: each key in several spellings and cases, with and without
// a colon, values of every kind, comments, NULs, blank lines and the three
// line breaks.
func randomRobots(rng *rand.Rand) []byte {
	keys := []string{"User-agent", "user-agent", "USERAGENT", "user agent", "Allow", "allow", "Disallow", "DISALLOWED",
		"dissallow", "Sitemap", "site-map", "Crawl-delay", "Host", "Content-Usage", "content-signal", "Noindex", "x", ""}
	values := []string{"*", "Googlebot", "googlebot/2.1", "007bot", "/", "/a", "/a*b$", "/%e9", "/é", "a", "", "/my docs/",
		"https://example.com/s.xml", "10", "1e3", "train-ai=n", "/p train-ai=y", "/p ai-train=no", "ai-train=yes, ai-train=no"}
	seps := []string{": ", ":", " ", "\t", " : "}
	ends := []string{"\n", "\r\n", "\r"}
	var b bytes.Buffer
	if rng.IntN(10) == 0 {
		b.WriteString("\xef\xbb\xbf")
	}
	for range rng.IntN(30) {
		switch rng.IntN(12) {
		case 0:
		case 1:
			b.WriteString("# comment")
		case 2:
			b.WriteString("  \t")
		default:
			b.WriteString(keys[rng.IntN(len(keys))])
			b.WriteString(seps[rng.IntN(len(seps))])
			b.WriteString(values[rng.IntN(len(values))])
			switch rng.IntN(10) {
			case 0:
				b.WriteString(" # note")
			case 1:
				b.WriteString("\x00rest")
			}
		}
		b.WriteString(ends[rng.IntN(len(ends))])
	}
	if rng.IntN(3) == 0 {
		b.Truncate(max(0, b.Len()-1)) // no final break
	}
	return b.Bytes()
}

// TestObservedParse is the seam between Parse and what lint watches: over
// random files, the file the observed pass builds is Parse's, byte for
// byte; every line is reported once, in order; the counts agree with the
// lines; and NotRobots says what Diagnose says.
func TestObservedParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	n := 3000
	if longTests() {
		n = 30000
	}
	for range n {
		body := randomRobots(rng)
		rep := Diagnose(body)
		got, _ := rep.Robots.MarshalBinary()
		want, _ := robotstxt.Parse(body).MarshalBinary()
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: the observed parse built another file than Parse", body)
		}
		if rep.Counts.Lines != len(rep.Lines) {
			t.Fatalf("%q: %d lines counted, %d reported", body, rep.Counts.Lines, len(rep.Lines))
		}
		c := rep.Counts
		if sum := c.Blank + c.Comments + c.Invalid + c.UserAgents + c.Allow + c.Disallow + c.NeverMatch + c.Others + c.Outside; sum > c.Lines {
			t.Fatalf("%q: %+v: more lines of each kind than lines", body, c)
		}
		for i, l := range rep.Lines {
			if l.Num != i+1 {
				t.Fatalf("%q: line %d reported as %d", body, i+1, l.Num)
			}
			if l.Kind == LineUserAgent || l.Kind == LineAllow || l.Kind == LineDisallow || l.Kind == LineOther {
				if !strings.Contains(l.Text, l.Key) {
					t.Fatalf("%q: line %d's key %q is not in its text %q", body, l.Num, l.Key, l.Text)
				}
			}
		}
		if n := len(rep.Robots.Sitemaps()); n != c.Sitemaps {
			t.Fatalf("%q: %d sitemaps counted, Parse keeps %d", body, c.Sitemaps, n)
		}
		checkNotRobots(t, string(body), body)
	}
}
