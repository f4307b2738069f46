package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUsagePathMatchesAsRule holds the matching of a Content-Usage path to
// the matching of an Allow pattern (README "Usage preferences": both lines
// are scoped alike): for random paths P and raw URLs, asked in the form a
// crawler sends them, "Content-Usage: P train-ai=y" applies exactly when
// "Allow: P" matches. (An Allow rule ending in /index.htm also allows its
// directory, a quirk of Google's parser for Allow alone; no path here ends
// so.)
func TestUsagePathMatchesAsRule(t *testing.T) {
	pieces := []string{"a", "b", "ü", "%c3%bc", "%C3%BC", "%7e", "%7E", "~", "%20", " ", `"`, "*", "$", "?", "=", "/", "%", "%2F", "."}
	rng := rand.New(rand.NewPCG(9, 9))
	word := func() string {
		s := "/"
		for range rng.IntN(4) {
			s += pieces[rng.IntN(len(pieces))]
		}
		return s
	}
	matched := 0
	for range 20000 {
		p, u := word(), word()
		if p == "/" || strings.Contains(p, " ") {
			continue // a space ends a Content-Usage path; "/" matches everything either way
		}
		r := Parse([]byte("User-agent: *\nAllow: " + p + "\nContent-Usage: " + p + " train-ai=y\n"))
		asked := NormalizeURL(u)
		rule := r.Decide("Foobot", asked).Line == 2
		usage := r.Usage("Foobot", asked).UsageLine == 3
		if rule != usage {
			t.Fatalf("path %q, URL %q (asked %q): Allow matches %v, Content-Usage applies %v", p, u, asked, rule, usage)
		}
		if rule {
			matched++
		}
	}
	if matched < 500 {
		t.Errorf("only %d matches: the generator misses the point", matched)
	}
}
