package robotstxt

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// This file holds the property tests and fuzz targets that hold the parser
// and matcher against the slow references of slow_test.go, and check the
// invariants every parse must keep, whatever the bytes.

// fastMatch matches a normalised pattern, final '$' included, against the
// path of url with the real matcher, splitting off the '$' as Parse does.
func fastMatch(pattern, url string) bool {
	lit, anchored := strings.CutSuffix(pattern, "$")
	return matchPath(lit, anchored, pathOf(url))
}

// checkMatch compares the real matcher with the slow one for one pattern and
// URL, and pathOf with slowPathOf. It also matches the pattern against the
// URL taken as a raw path, which need not start with '/'.
func checkMatch(t *testing.T, pattern, url string) {
	t.Helper()
	path := slowPathOf(url)
	if got := pathOf(url).String(); got != path {
		t.Fatalf("pathOf(%q) = %q, slow reference says %q", url, got, path)
	}
	if got, want := fastMatch(pattern, url), slowMatch(pattern, path); got != want {
		t.Fatalf("pattern %q, url %q (path %q): matchPath = %v, slow reference says %v", pattern, url, path, got, want)
	}
	lit, anchored := strings.CutSuffix(pattern, "$")
	if got, want := match(lit, anchored, url), slowMatch(pattern, url); got != want {
		t.Fatalf("match(%q, %v, %q) = %v, slow reference says %v", lit, anchored, url, got, want)
	}
}

// randString returns a string of up to max bytes drawn from alphabet.
func randString(rng *rand.Rand, alphabet string, max int) string {
	b := make([]byte, rng.IntN(max+1))
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// randPattern returns a pattern over a small alphabet in which stars,
// anchors and escapes meet often.
func randPattern(rng *rand.Rand) string {
	p := randString(rng, "/ab*$?%;", 8)
	switch rng.IntN(4) {
	case 0:
		return "/" + p
	case 1:
		return "*" + p
	}
	return p
}

// randURL returns a URL or path, with or without scheme and host, whose
// path often starts with '?' or ';' so that the virtual leading '/' of
// pathOf is exercised.
func randURL(rng *rand.Rand) string {
	prefixes := []string{"", "", "/", "?", ";", "http://h", "http://h/", "https://h?", "//h", "h", "a:/", "#"}
	return prefixes[rng.IntN(len(prefixes))] + randString(rng, "/ab*$?%;:#", 10)
}

// TestMatchAgreesWithSlow compares the real matcher with the slow one on
// deterministic pseudo-random patterns and URLs.
func TestMatchAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 1))
	for range 20000 {
		checkMatch(t, randPattern(rng), randURL(rng))
	}
}

// randRobots returns a robots.txt body made of lines that exercise groups,
// agent tokens, key spellings, comments, line breaks, escapes and the
// "/index.htm" fallback.
func randRobots(rng *rand.Rand) []byte {
	agents := []string{"*", "a", "A", "b", "a/1.0", "* x", "*\tx", "*a", "", "ab", "a b", "B-_"}
	pattern := func() string {
		p := randPattern(rng)
		switch rng.IntN(8) {
		case 0:
			p += "/index.htm" + randString(rng, "lx$", 2)
		case 1:
			p += "%a" + randString(rng, "aF0g", 1)
		case 2:
			p += "\xc3\xa9"
		}
		return p
	}
	var b bytes.Buffer
	if rng.IntN(8) == 0 {
		b.WriteString("\xef\xbb\xbf"[:1+rng.IntN(3)])
	}
	breaks := []string{"\n", "\n", "\r\n", "\r", "\n\r", "\r\r\n"}
	for range rng.IntN(12) {
		switch rng.IntN(11) {
		case 0, 1:
			key := []string{"User-agent: ", "user-agent:", "USERAGENT: ", "User agent: ", "User-agent "}[rng.IntN(5)]
			b.WriteString(key + agents[rng.IntN(len(agents))])
		case 2, 3:
			b.WriteString("Disallow: " + pattern())
		case 4, 5:
			b.WriteString("Allow: " + pattern())
		case 6:
			b.WriteString([]string{"allow ", "disallow\t", "Dissallow:", "Disallowed: "}[rng.IntN(4)] + pattern())
		case 7:
			b.WriteString([]string{"", "# comment", "Disallow: /c # comment", " \t"}[rng.IntN(4)])
		case 8:
			b.WriteString([]string{"Sitemap: /s", "Sitemap: /s2", "Sitemap:", "Crawl-delay: 1", "crawl-delay: 20",
				"Crawl-delay: 0.5", "Crawl-delay: x", "Host: h"}[rng.IntN(8)])
		case 9:
			b.WriteString(randString(rng, "Da: /*\x00#", 6))
		case 10:
			// A line near the 16,663-byte limit, cut inside a rule.
			if rng.IntN(8) == 0 {
				b.WriteString("Disallow: /" + strings.Repeat("x", 16640+rng.IntN(40)) + randString(rng, "/ab*$", 3))
			}
		}
		b.WriteString(breaks[rng.IntN(len(breaks))])
	}
	if rng.IntN(3) == 0 {
		// The last line ends the file, with no line break.
		return bytes.TrimRight(b.Bytes(), "\r\n")
	}
	return b.Bytes()
}

// TestDecideAgreesWithSlow compares Decide, Rules, Others and Sitemaps with
// the slow parser on deterministic pseudo-random files.
func TestDecideAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 2))
	agents := []string{"a", "A", "b", "c", "", "*", "a/1.0", "ab", "b-_"}
	for range 3000 {
		body := randRobots(rng)
		r, slow := Parse(body), slowParse(body)
		checkFile(t, body, r, slow)
		for range 4 {
			agent := agents[rng.IntN(len(agents))]
			checkDecide(t, body, r, slow, agent, randURL(rng))
			// Most random URLs match no rule; URLs made from the rules'
			// own patterns match often, and near misses are close by.
			for _, sr := range slow.rules(agent) {
				if len(sr.pattern) > 64 {
					continue // the slow matcher is quadratic
				}
				checkDecide(t, body, r, slow, agent, urlFromPattern(rng, sr.pattern))
			}
		}
	}
}

// urlFromPattern returns a path that the pattern likely matches or nearly
// matches: stars filled with short runs, the anchor dropped or kept, a few
// bytes added or cut.
func urlFromPattern(rng *rand.Rand, pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '*':
			b.WriteString(randString(rng, "/ab", 2))
		case c == '$' && i == len(pattern)-1 && rng.IntN(2) == 0:
		default:
			b.WriteByte(c)
		}
	}
	u := b.String()
	switch rng.IntN(4) {
	case 0:
		u += randString(rng, "/ab?", 2)
	case 1:
		u = u[:rng.IntN(len(u)+1)]
	}
	if rng.IntN(4) == 0 {
		u = "http://h" + u
	}
	return u
}

// checkFile checks what does not depend on agent or URL.
func checkFile(t *testing.T, body []byte, r *Robots, slow *slowFile) {
	t.Helper()
	if r == nil {
		t.Fatalf("Parse(%q) = nil", body)
	}
	if k := r.Kind(); k != Parsed {
		t.Fatalf("Parse(%q).Kind() = %v, want %v", clipBody(body), k, Parsed)
	}
	if c := r.compiled(); c.lens != c.agentLens() {
		t.Fatalf("Parse(%q): the agents' lengths %#x, the records give %#x", clipBody(body), c.lens, c.agentLens())
	}
	if got := r.Sitemaps(); !slices.Equal(got, slow.sitemaps) {
		t.Fatalf("Parse(%q).Sitemaps() = %q, slow reference says %q", clipBody(body), got, slow.sitemaps)
	}
	var preamble []Other
	for _, o := range slow.preamble {
		preamble = append(preamble, Other{Line: o.line, Key: o.key, Value: o.value})
	}
	if got := r.Others(); !slices.Equal(got, preamble) {
		t.Fatalf("Parse(%q).Others() = %+v, slow reference says %+v", clipBody(body), got, preamble)
	}
}

// checkDecide checks one question against the slow reference and the
// invariants of a Decision.
func checkDecide(t *testing.T, body []byte, r *Robots, slow *slowFile, agent, url string) {
	t.Helper()
	g := r.Group(agent)
	d := r.Decide(agent, url)
	if got := r.Allowed(agent, url); got != d.Allowed {
		t.Fatalf("%q: Allowed(%q, %q) = %v, Decide says %+v", clipBody(body), agent, url, got, d)
	}
	if got := g.Decide(url); got != d {
		t.Fatalf("%q: Group(%q).Decide(%q) = %+v, Robots.Decide says %+v", clipBody(body), agent, url, got, d)
	}
	if want := slow.decide(agent, url); d != want {
		t.Fatalf("%q: Decide(%q, %q) = %+v, slow reference says %+v", clipBody(body), agent, url, d, want)
	}
	if len(body) <= lazyMax {
		// As Parse's first question of this file (see lazy.go).
		checkFirst(t, body, agent, url, d)
	}

	rules := g.Rules()
	var want []Rule
	for _, sr := range slow.rules(agent) {
		want = append(want, Rule{Line: sr.line, Allow: sr.allow, Pattern: sr.pattern, Text: sr.text})
	}
	if !slices.Equal(rules, want) {
		t.Fatalf("%q: Group(%q).Rules() = %+v, slow reference says %+v", clipBody(body), agent, rules, want)
	}
	checkDecision(t, body, slow.lines, rules, agent, url, d)

	var others []Other
	for _, sg := range slow.selected(agent) {
		for _, o := range sg.others {
			others = append(others, Other{Line: o.line, Key: o.key, Value: o.value})
		}
	}
	slices.SortFunc(others, func(a, b Other) int { return a.Line - b.Line })
	if got := g.Others(); !slices.Equal(got, others) {
		t.Fatalf("%q: Group(%q).Others() = %+v, slow reference says %+v", clipBody(body), agent, got, others)
	}
	checkCrawlDelay(t, body, agent, g, others)
}

// checkDecision checks that a Decision is consistent with itself and with
// the rules of the group that made it.
func checkDecision(t *testing.T, body []byte, lines int, rules []Rule, agent, url string, d Decision) {
	t.Helper()
	for i, ru := range rules {
		if ru.Line < 1 || ru.Line > lines {
			t.Fatalf("%q: rule %+v of agent %q is not on one of the %d lines", clipBody(body), ru, agent, lines)
		}
		if i > 0 && ru.Line <= rules[i-1].Line {
			t.Fatalf("%q: rules of agent %q not in file order: %+v", clipBody(body), agent, rules)
		}
	}
	if d.Line == 0 {
		if d != (Decision{Allowed: true}) {
			t.Fatalf("%q: Decide(%q, %q) = %+v: no deciding line but not a plain allow", clipBody(body), agent, url, d)
		}
		return
	}
	i := slices.IndexFunc(rules, func(ru Rule) bool { return ru.Line == d.Line })
	if i < 0 {
		t.Fatalf("%q: Decide(%q, %q) = %+v: line %d is no rule of the group %+v", clipBody(body), agent, url, d, d.Line, rules)
	}
	if ru := rules[i]; ru.Allow != d.Allow || ru.Text != d.Rule {
		t.Fatalf("%q: Decide(%q, %q) = %+v, but line %d is %+v", clipBody(body), agent, url, d, d.Line, ru)
	}
	if !d.Allowed && d.Allow {
		t.Fatalf("%q: Decide(%q, %q) = %+v: an Allow rule disallowed", clipBody(body), agent, url, d)
	}
}

// checkCrawlDelay checks that a Crawl-delay comes from one of the group's
// crawl-delay lines, and that the first one is taken when it is plainly
// valid.
func checkCrawlDelay(t *testing.T, body []byte, agent string, g Group, others []Other) {
	t.Helper()
	d, ok := g.CrawlDelay()
	first, found := true, false
	for _, o := range others {
		if !asciiEqualFold(o.Key, "crawl-delay") {
			continue
		}
		if first && o.Value != "" && len(o.Value) <= 9 && strings.Trim(o.Value, "0123456789") == "" {
			n, _ := strconv.Atoi(o.Value)
			if want := time.Duration(n) * time.Second; !ok || d != want {
				t.Fatalf("%q: Group(%q).CrawlDelay() = %v, %v; want %v from line %d", clipBody(body), agent, d, ok, want, o.Line)
			}
		}
		first = false
		if f, err := strconv.ParseFloat(o.Value, 64); err == nil && f >= 0 &&
			math.Abs(f*float64(time.Second)-float64(d)) <= 1+1e-9*float64(d) {
			found = true
		}
	}
	if ok && !found {
		t.Fatalf("%q: Group(%q).CrawlDelay() = %v, which no crawl-delay line of %+v says", clipBody(body), agent, d, others)
	}
}

// matchSeeds are patterns and URLs that the fuzzer starts from.
var matchSeeds = []struct{ pattern, url string }{
	{"/", "http://example.com/"},
	{"/*.pdf$", "http://example.com/a/b.pdf"},
	{"/a*b*c$", "https://h/aXbYc"},
	{"*", "https://h?q"},
	{"*/", "?/"},
	{"/*a*a*a*a*b", "/" + strings.Repeat("a", 64)},
	{"/$", "https://h"},
	{"/index.html$", "//h/index.html#f"},
	{"/%AA", "/%aa"},
	{"/a$b", "/a$b"},
	{"**/*$", ";x"},
}

// FuzzMatch holds the real matcher and pathOf against the slow references.
func FuzzMatch(f *testing.F) {
	for _, s := range matchSeeds {
		f.Add(s.pattern, s.url)
	}
	f.Fuzz(func(t *testing.T, pattern, url string) {
		// The slow matcher is quadratic; a line keeps at most 16,663 bytes
		// anyway.
		if len(pattern) > 4096 || len(url) > 4096 {
			return
		}
		checkMatch(t, pattern, url)
	})
}

// parseSeeds are robots.txt bodies, agents and URLs that FuzzParse starts
// from, besides testdata/*.txt and the reference's edge cases.
var parseSeeds = []struct {
	body       string
	agent, url string
}{
	{"User-agent: *\nDisallow: /\n", "Googlebot", "https://example.com/"},
	{"User-agent: Googlebot\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: *\nDisallow: /*.pdf$\n", "googlebot", "/private/press/b"},
	{"User-agent: a\r\nAllow: /d/index.html\r\nDisallow: /d/\r\n", "a", "/d/"},
	{"\xef\xbb\xbfuser-agent a\rdisallow /x:/y\rSitemap: http://h/s.xml\r", "a", "/x:/y"},
	{"User-agent: *\nDisallow:\nCrawl-delay: 2.5\nHost: h\n", "", "?q"},
	{"Disallow: /before\nUser-agent: *\nUser-agent: b\nDisallow: /%aa\xc3\xa9$ # c\n", "B", "/%AA%C3%A9"},
	{"User-agent: a\x00b\nDisallow: /\x00x\n", "a", "/"},
}

// addParseSeeds adds the seeds of the fuzz targets that take a body, an
// agent and a URL: parseSeeds, the bundled files, and the edge cases of
// the conformance set when ../shared is there.
func addParseSeeds(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s.body), s.agent, s.url)
	}
	if files, _ := filepath.Glob(filepath.Join("testdata", "*.txt")); len(files) > 0 {
		for _, name := range files {
			if body, err := os.ReadFile(name); err == nil {
				f.Add(body, "Googlebot", "/")
			}
		}
	}
	if edge := sharedPath(f, filepath.Join("conformance", "edge.tsv")); haveFile(edge) {
		for _, c := range readConformance(f, edge) {
			f.Add(c.robots, c.agent, c.url)
		}
	}
}

// FuzzFirstQuestion holds the stream strategy, the first question of a
// file whose parse is deferred (engine_stream.go), to the slow reference:
// the deciding line it finds, and the answer of a fresh Parse's first
// Allowed, which it gives. FuzzParse compiles the file before it asks.
func FuzzFirstQuestion(f *testing.F) {
	addParseSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		if len(body) == 0 || len(body) > lazyMax {
			return
		}
		slow := slowParse(body)
		for _, a := range []string{agent, "*", "", "Googlebot"} {
			urls := []string{url}
			for i, sr := range slow.rules(a) {
				if i == 8 {
					break
				}
				urls = append(urls, sr.pattern, sr.pattern+url)
			}
			for _, u := range urls {
				if slow.cost(a, u) > slowBudget {
					continue
				}
				want := slow.decide(a, u)
				line := 0
				if o := firstOrder(string(body), a, u); o != 0 {
					line = int(^uint32(o))
				}
				if line != want.Line {
					t.Fatalf("%q: the first question of (%q, %q) finds line %d, slow reference says %+v", clipBody(body), a, u, line, want)
				}
				if got := Parse(body).Allowed(a, u); got != want.Allowed {
					t.Fatalf("%q: the first Allowed(%q, %q) = %v, slow reference says %+v", clipBody(body), a, u, got, want)
				}
			}
		}
	})
}

// FuzzParse checks that any bytes parse into a usable Robots whose answers
// agree with each other, with the rules it lists, and with the slow
// reference.
func FuzzParse(f *testing.F) {
	addParseSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		r := Parse(body)
		agents := []string{agent, "*", "", "Googlebot"}
		checkInvariants(t, body, r, agents, []string{url})
		if len(body) > 64<<10 {
			return
		}
		slow := slowParse(body)
		checkFile(t, body, r, slow)
		for _, a := range agents {
			if slow.cost(a, url) <= slowBudget {
				checkDecide(t, body, r, slow, a, url)
			}
			// Ask for each rule's own pattern too, so that rules match
			// more often than random URLs would make them.
			for i, ru := range r.Group(a).Rules() {
				if i == 8 {
					break
				}
				for _, u := range []string{ru.Pattern, ru.Pattern + url} {
					if slow.cost(a, u) <= slowBudget {
						checkDecide(t, body, r, slow, a, u)
					}
				}
			}
		}
	})
}

// slowBudget bounds the work of the slow matcher for one question in
// FuzzParse, so that the fuzzer spends its time on many small inputs rather
// than a few large ones.
const slowBudget = 1 << 20

// cost returns the number of table cells the slow matcher fills to answer
// agent and url.
func (f *slowFile) cost(agent, url string) int {
	n := len(slowPathOf(url)) + 1
	cells := 0
	for _, r := range f.rules(agent) {
		cells += 2 * (len(r.pattern) + 1) * n // the "/index.htm" retry at most doubles it
	}
	return cells
}

// checkInvariants checks, without the slow reference, what every parse
// must keep, asking each URL for each agent.
func checkInvariants(t *testing.T, body []byte, r *Robots, agents, urls []string) {
	t.Helper()
	if r == nil {
		t.Fatalf("Parse returned nil")
	}
	lines := len(slowSplitLines(body))
	r.Sitemaps()
	for _, agent := range agents {
		g := r.Group(agent)
		rules := g.Rules()
		for _, url := range urls {
			d := r.Decide(agent, url)
			if got := r.Allowed(agent, url); got != d.Allowed {
				t.Fatalf("Allowed(%q, %q) = %v, Decide says %+v", agent, url, got, d)
			}
			checkDecision(t, body, lines, rules, agent, url, d)
		}
		r.CrawlDelay(agent)
		g.Others()
	}
}

func haveFile(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// clipBody shortens a body for a failure message.
func clipBody(body []byte) string {
	const max = 300
	if len(body) <= max {
		return string(body)
	}
	return fmt.Sprintf("%s...(%d bytes)", body[:max], len(body))
}

// TestPathEndAgreesWithSlow asks about URLs whose path ends before the URL
// does, at a '#' or a NUL with rule-like text after it, in both layouts: a
// query finds the path's end only when a test needs it (see query), and
// must answer as the slow reference, which cuts the path first. The text
// after the end is what a prefix, an anchor or a '*' would match wrongly.
func TestPathEndAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 41))
	ends := []string{"#", "\x00", "#", "?#"}
	for j := range 1500 {
		body := randRobots(rng)
		if j%2 == 1 {
			body = randIndexedFile(rng)
		}
		slow := slowParse(body)
		for _, r := range []*Robots{Parse(body), parseWith(body, 1)} {
			for range 4 {
				agent := []string{"a", "b", "*", "c"}[rng.IntN(4)]
				path := randIndexedURL(rng)
				if rules := slow.rules(agent); len(rules) > 0 && rng.IntN(2) == 0 {
					if p := rules[rng.IntN(len(rules))].pattern; len(p) <= 64 {
						path = urlFromPattern(rng, p)
					}
				}
				// The path cut somewhere, and what follows a rule's text.
				cut := rng.IntN(len(path) + 1)
				after := randIndexedURL(rng)
				url := path[:cut] + ends[rng.IntN(len(ends))] + after
				if rng.IntN(2) == 0 && strings.HasPrefix(url, "/") {
					url = "https://h.example" + url
				}
				if slow.cost(agent, url) <= slowBudget {
					checkDecide(t, body, r, slow, agent, url)
				}
			}
		}
	}
}
