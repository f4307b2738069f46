package robotstxt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// dirtyFile returns a file that fills the parse's pooled scratch space
// (see scratch) with bytes no other file has: long agent tokens, escaped
// and wildcard patterns, "/index.htm" values and other lines of high bytes.
func dirtyFile(rng *rand.Rand) []byte {
	junk := func(n int) string { return randString(rng, "\xfe\xfd*%Zq/", n) }
	var b strings.Builder
	for g := range 1 + rng.IntN(4) {
		fmt.Fprintf(&b, "User-agent: ZqZqZq%d%s\nUser-agent: %s\n", g, junk(40), junk(20))
		for range rng.IntN(60) {
			fmt.Fprintf(&b, "Disallow: /%s\nAllow: /%s/index.html\nX-%s: %s\n", junk(30), junk(10), "Zq", junk(30))
		}
	}
	return []byte(b.String())
}

// TestParseIgnoresPoolState holds that a parse keeps nothing of the files
// parsed before it: Parse reuses scratch space from a pool, and parts of the
// parse read a word past a value or a token where the room holds earlier
// files' bytes (scanValue, headBytes, the copies of short patterns and
// tokens). Each file is parsed after a file that leaves other bytes in
// that room, and its stored form must be the same, byte for byte.
func TestParseIgnoresPoolState(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 7))
	n := 1500
	if !longTests() {
		n = 400
	}
	// Files whose text ends in each of its parts, so that a copy of 16
	// bytes made for the last pattern or token runs into the words: only
	// tokens, only patterns, escaped patterns, values as written, other
	// lines, sitemaps, a preamble, and no words at all.
	shapes := []string{
		"User-agent: a\n",
		"User-agent: *\nDisallow: /a\n",
		"User-agent: *\nDisallow: /a*b\n",
		"User-agent: *\nDisallow: /%zz\xfe\n",
		"User-agent: *\nAllow: /a/index.html\n",
		"User-agent: bot\nDisallow: /x\nAllow: /%ab*$\n",
		"User-agent: bot\nCrawl-delay: 1\n",
		"Sitemap: https://example.com/s.xml\n",
		"Host: example.com\n",
		"Content-Signal: search=yes\n",
		"",
		"User-agent: abcdefghijklmnopq\nUser-agent: b\n",
	}
	for i := range n + len(shapes) {
		var body []byte
		switch {
		case i < len(shapes):
			body = []byte(shapes[i])
		case i%2 == 1:
			body = randIndexedFile(rng)
		default:
			body = randRobots(rng)
		}
		for _, min := range []int{1, indexMin} {
			parseWith(dirtyFile(rng), min)
			a := parseWith(body, min)
			parseWith(dirtyFile(rng), min)
			b := parseWith(body, min)
			if a.compiled().wordsAt != b.compiled().wordsAt || a.compiled().text != b.compiled().text {
				t.Fatalf("%q: two parses differ after other files (indexMin %d):\n%q\n%q", clipBody(body), min, a.compiled().text, b.compiled().text)
			}
			// Tokens are kept in lower case.
			if bytes.Contains([]byte(a.compiled().text), []byte("ZqZqZq")) || bytes.Contains([]byte(a.compiled().text), []byte("zqzqzq")) {
				t.Fatalf("%q: the parse keeps bytes of another file: %q", clipBody(body), a.compiled().text)
			}
		}
	}
}
