package robotstxt

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestMatching(t *testing.T) {
	runDecideTests(t, []decideTest{
		{"§5 prefix match", "User-agent: *\nDisallow: /a", "x", "/abc", false, 2},
		{"§5 case-sensitive", "User-agent: *\nDisallow: /X", "x", "/x", true, 0},
		{"§5 '*' matches any run", "User-agent: *\nDisallow: /a*c", "x", "/abbbc", false, 2},
		{"§5 '*' matches none", "User-agent: *\nDisallow: /a*c", "x", "/ac", false, 2},
		{"§5 leading '*'", "User-agent: *\nDisallow: *a", "x", "/ba", false, 2},
		{"§5 '*' alone", "User-agent: *\nDisallow: *", "x", "/", false, 2},
		{"§5 '$' anchors", "User-agent: *\nDisallow: /a$", "x", "/a", false, 2},
		{"§5 '$' anchors against a query", "User-agent: *\nDisallow: /a$", "x", "/a?", true, 0},
		{"§5 '$' inside is literal", "User-agent: *\nDisallow: /a$b", "x", "/a$bc", false, 2},
		{"§5 '$$': first literal, last anchor", "User-agent: *\nDisallow: /a$$", "x", "/a$", false, 2},
		{"§5 '$' alone never matches", "User-agent: *\nDisallow: $", "x", "/", true, 0},
		{"§5 '*$' matches all", "User-agent: *\nDisallow: *$", "x", "/a", false, 2},
		{"§5 '/**$' matches all", "User-agent: *\nDisallow: /**$", "x", "/abc", false, 2},
		{"§5 anchored star suffix", "User-agent: *\nDisallow: /*.pdf$", "x", "/a.pdf.pdf", false, 2},
		{"§5 anchored star suffix, no match", "User-agent: *\nDisallow: /*.pdf$", "x", "/a.pdfx", true, 0},
		{"§5 greedy leftmost", "User-agent: *\nDisallow: /*ab*ba", "x", "/abababa", false, 2},
		{"§5 pattern not starting with / or * never matches", "User-agent: *\nDisallow: a", "x", "/a", true, 0},
		{"§5 longest match wins", "User-agent: *\nDisallow: /a\nAllow: /ab", "x", "/abc", true, 3},
		{"§5 '$' counts in priority", "User-agent: *\nDisallow: /x\nAllow: /x$", "x", "/x", true, 3},
		{"§5 '*' counts in priority", "User-agent: *\nDisallow: /x*\nAllow: /x", "x", "/x", false, 2},
		{"§5 tie: allow wins", "User-agent: *\nDisallow: /ab\nAllow: /*b", "x", "/ab", true, 3},
		{"§5 tie of same kind: first line", "User-agent: *\nDisallow: /a*\nDisallow: /*b", "x", "/ab", false, 2},
		{"§5 escaped length counts: 7 vs 8", "User-agent: *\nAllow: /\xc3\xa9\nDisallow: /\xc3\xa9x", "x", "/%C3%A9x", false, 3},
		{"§5 empty disallow: allowed, line reported", "User-agent: *\nDisallow:", "x", "/x", true, 2},
		{"§5 empty allow and disallow: allow line", "User-agent: *\nDisallow:\nAllow:", "x", "/x", true, 3},
		{"§5 empty disallow never beats a match", "User-agent: *\nDisallow:\nAllow: /x", "x", "/x", true, 3},
		{"§5 index.html allows the directory", "User-agent: *\nDisallow: /\nAllow: /d/index.html", "x", "/d/", true, 3},
		{"§5 ... exactly the directory", "User-agent: *\nDisallow: /\nAllow: /d/index.html", "x", "/d/?q", false, 2},
		{"§5 index.htm too", "User-agent: *\nDisallow: /\nAllow: /d/index.htm", "x", "/d/", true, 3},
		{"§5 index.htmx too", "User-agent: *\nDisallow: /\nAllow: /d/index.htmx", "x", "/d/", true, 3},
		{"§5 INDEX.html is case-sensitive", "User-agent: *\nDisallow: /\nAllow: /d/INDEX.html", "x", "/d/", false, 2},
		{"§5 fallback priority ties /d/$ -> allow", "User-agent: *\nDisallow: /d/$\nAllow: /d/index.html", "x", "/d/", true, 3},
		{"§5 fallback not applied to disallow", "User-agent: *\nAllow: /\nDisallow: /d/index.html", "x", "/d/", true, 2},
		{"§5 fallback: the rule itself still matches", "User-agent: *\nDisallow: /\nAllow: /d/index.html", "x", "/d/index.html", true, 3},
		{"§5 root index.html", "User-agent: *\nDisallow: /\nAllow: /index.html", "x", "/", true, 3},
		{"§5 no rule matched: allowed, line 0", "User-agent: *\nDisallow: /a", "x", "/b", true, 0},
	})
}

func TestURLPath(t *testing.T) {
	tests := []struct {
		reason, url, want string
	}{
		{"§5 empty URL", "", "/"},
		{"§5 no path", "http://h", "/"},
		{"§5 userinfo and port skipped", "http://u:p@h:8080/x", "/x"},
		{"§5 query without path", "example.com?a", "/?a"},
		{"§5 params without path", "http://h;a", "/;a"},
		{"§5 single-slash scheme", "http:/host/x", "/host/x"},
		{"§5 no scheme: path starts at the first /", "a/b", "/b"},
		{"§5 '://' after the first / is no scheme", "a.com/b://c", "/b://c"},
		{"§5 protocol-relative", "//h/x", "/x"},
		{"§5 fragment ends the path", "http://h/x#y", "/x"},
		{"§5 fragment before the path", "http://h#/x", "/"},
		{"§5 fragment in the scheme part", "ht#tp://h/x", "/"},
		{"§5 bare path", "/x?y", "/x?y"},
		{"§5 nothing decoded or folded", "http://H/%aa/./A", "/%aa/./A"},
		{"§5 '?' before '://'", "h?x://y/z", "/?x://y/z"},
		{"§5 ':?/' is no scheme end", "h:?/x", "/?/x"},
		{"§5 ':;/' is no scheme end", "h:;/x", "/;/x"},
		{"§5 https:// with a path", "https://h.example/a/b?c", "/a/b?c"},
		{"§5 https:// with no path", "https://h.example", "/"},
		{"§5 http:// with a query and no path", "http://h?q", "/?q"},
		{"§5 https:// and a fragment in the host", "https://h#x/y", "/"},
		{"§5 upper-case scheme", "HTTPS://h/x", "/x"},
		{"§5 https:// alone", "https://", "/"},
		{"§5 http:/// has an empty host", "http:///x", "/x"},
		// pathOf scans the host and the path eight bytes at a time, the
		// last word read whole: each row puts the byte sought at one edge.
		{"scan: path starts in the last, partial word", "https://a.b.c.d.e/x", "/x"},
		{"scan: a host shorter than a word after the scheme's slashes", "https://a?q", "/?q"},
		{"scan: '#' in a short host", "https://a#b/c", "/"},
		{"scan: ';' ends a host of exactly a word", "https://abcdefgh;p", "/;p"},
		{"scan: '#' in the path's last, partial word", "https://h/abcdefghij#k", "/abcdefghij"},
		{"scan: NUL in a short path", "https://h/a\x00b", "/a"},
		{"scan: NUL in the host is not in the path", "https://h\x00i/ab", "/ab"},
		{"scan: NUL in the host, then a one-byte path", "https://hostname\x00/", "/"},
		{"scan: '#' at a word's last byte", "https://h/abcdef#", "/abcdef"},
		{"scan: '#' and NUL in one word: the first ends it", "https://h/ab\x00c#d", "/ab"},
		{"scan: bytes one bit from a target do not stop it", "https://h.c/a.>\x01\"x", "/a.>\x01\"x"},
	}
	for _, tt := range tests {
		if got := pathOf(tt.url).String(); got != tt.want {
			t.Errorf("%s: pathOf(%q) = %q, want %q", tt.reason, tt.url, got, tt.want)
		}
	}
}

// TestVirtualSlash checks patterns against URLs whose path gets a leading
// '/' without building a string.
func TestVirtualSlash(t *testing.T) {
	tests := []struct {
		reason, pattern, url string
		want                 bool
	}{
		{"§5 '/?' matches '/?a'", "/?", "h?a", true},
		{"§5 '/' matches", "/", "h?a", true},
		{"§5 '*' matches", "*", "h?a", true},
		{"§5 '*a' matches", "*a", "h?a", true},
		{"§5 '*/?' matches at the virtual slash", "*/?", "h?a", true},
		{"§5 '*?a$' matches", "*?a$", "h?a", true},
		{"§5 '/*a$' matches", "/*a$", "h?a", true},
		{"§5 '?' does not start with /", "?a", "h?a", false},
		{"§5 '$' never matches", "$", "h?a", false},
		{"§5 '/$' needs the path to be '/'", "/$", "h?a", false},
		{"§5 '*/$' no", "*/$", "h?a", false},
		{"§5 '**/?a$' yes", "**/?a$", "h?a", true},
		{"§5 '/;' with params", "/;", "h;x", true},
	}
	for _, tt := range tests {
		lit, anchored := tt.pattern, strings.HasSuffix(tt.pattern, "$")
		if anchored {
			lit = lit[:len(lit)-1]
		}
		p := pathOf(tt.url)
		if !p.slash {
			t.Fatalf("%s: %q should need a virtual slash", tt.reason, tt.url)
		}
		if got := matchPath(lit, anchored, p); got != tt.want {
			t.Errorf("%s: matchPath(%q, %q) = %v, want %v", tt.reason, tt.pattern, tt.url, got, tt.want)
		}
		if got := match(lit, anchored, p.String()); got != tt.want {
			t.Errorf("%s: match(%q, %q) = %v, want %v", tt.reason, tt.pattern, p.String(), got, tt.want)
		}
	}
}

// TestIndexPathStart compares the eight-bytes-at-a-time search with a plain
// loop on every placement of the sought bytes among others, high bytes too.
func TestIndexPathStart(t *testing.T) {
	slow := func(s string) int { return strings.IndexAny(s, "/?;") }
	fill := []byte("a.\x80\xff:0\x2e\x3e\x3a\x2f")
	for n := 0; n <= 20; n++ {
		for _, c := range []byte{'/', '?', ';', 0} {
			for at := 0; at < n; at++ {
				b := make([]byte, n)
				for i := range b {
					b[i] = fill[(i*7+n)%len(fill)]
					if b[i] == '/' {
						b[i] = 'x'
					}
				}
				if c != 0 {
					b[at] = c
				}
				s := string(b)
				if got, want := indexPathStart(s), slow(s); got != want {
					t.Errorf("§5 indexPathStart(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

// probesByPairs is patternProbes pair by pair, as the probes are defined:
// of the pattern's n byte pairs without a '*', the last, then pairs n/4,
// n/2 and 3n/4.
func probesByPairs(lit []byte) uint32 {
	pairs := patternPairs(string(lit))
	if len(pairs) == 0 {
		return 0
	}
	n := len(pairs)
	return uint32(pairs[n-1]) | uint32(pairs[n/4])<<8 | uint32(pairs[n/2])<<16 | uint32(pairs[3*n/4])<<24
}

func TestPatternProbes(t *testing.T) {
	for _, tt := range []struct{ reason, lit string }{
		{"§5 no pairs: probes 0", "*"},
		{"§5 empty pattern", ""},
		{"§5 one byte pieces have no pairs", "/*a*b"},
		{"§5 one pair", "/a*"},
		{"§5 leading star", "*ab"},
		{"§5 stars in a row", "/a**bc***"},
		{"§5 the usual wildcard rule", "/*?utm_source="},
		{"§5 pairs across pieces", "/search*q=*&page=*"},
		{"§5 many pairs in one piece", "/abcdefghijklmnopqrstuvwxyz*"},
		{"§5 pairs split three and one", "/abc*de"},
	} {
		if got, want := patternProbes([]byte(tt.lit)), probesByPairs([]byte(tt.lit)); got != want {
			t.Errorf("%s: patternProbes(%q) = %#x, want %#x", tt.reason, tt.lit, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for j := range 20000 {
		// Mostly short, and some on both sides of the 64 bytes up to
		// which shortProbes takes them.
		n := rng.IntN(24)
		if j%4 == 0 {
			n = rng.IntN(80)
		}
		lit := make([]byte, n)
		for i := range lit {
			lit[i] = "/ab*"[rng.IntN(4)]
		}
		if got, want := patternProbes(lit), probesByPairs(lit); got != want {
			t.Fatalf("patternProbes(%q) = %#x, want %#x", lit, got, want)
		}
	}
}

// patternPairs returns the bits of the byte pairs of a pattern without its
// final '$', in pattern order (see patternProbes).
func patternPairs(lit string) []uint8 {
	var pairs []uint8
	for i := 1; i < len(lit); i++ {
		if lit[i] != '*' && lit[i-1] != '*' {
			pairs = append(pairs, pairBit(lit[i-1], lit[i]))
		}
	}
	return pairs
}

// TestProbesAnyPairsAnyOrder pins the seam between the probes a wildcard
// rule keeps and the queries that test them (pathFilter.admits,
// query.admitted): any four of a pattern's pairs, in any order, are a
// valid filter, so that a binary stored by a build that chose other pairs
// or put them in another order answers the same. Builds before b091582
// kept pair k*n/4 in byte k; a zero probe (bit 0) every path has. Each
// wildcard rule's probes, after its pattern and beside its link in an
// indexed group, are rewritten so, and the file loaded from them answers
// as the slow reference.
func TestProbesAnyPairsAnyOrder(t *testing.T) {
	n := 120
	if !longTests() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(29, 4))
	former := func(pairs []uint8) (p uint32) {
		for k := range 4 {
			p |= uint32(pairs[k*len(pairs)/4]) << (8 * k)
		}
		return p
	}
	anyFour := func(pairs []uint8) (p uint32) {
		for k := range 4 {
			if rng.IntN(6) > 0 {
				p |= uint32(pairs[rng.IntN(len(pairs))]) << (8 * k)
			}
		}
		return p
	}
	rewritten := 0
	for range n {
		body := randIndexedFile(rng)
		slow := slowParse(body)
		for _, min := range []int{1, indexMin} {
			r := parseWith(body, min)
			for _, probes := range []func([]uint8) uint32{former, anyFour} {
				text := []byte(r.compiled().text)
				for g := range r.compiled().numGroups() {
					start, _, end := r.compiled().groupRules(g)
					for i := start; i < end; i++ {
						_, w1, patEnd := r.compiled().ruleWords3(i)
						pairs := patternPairs(strings.TrimSuffix(r.compiled().pattern(i), "$"))
						if !recStar(w1) || len(pairs) == 0 {
							continue
						}
						p := probes(pairs)
						binary.LittleEndian.PutUint32(text[patEnd:], p)
						rewritten++
					}
				}
				loaded := load(t, &Robots{file: compiledFile{form: form{kind: r.compiled().kind, wordsAt: r.compiled().wordsAt, text: string(text)}}})
				checkIndexedQuestions(t, rng, body, func() *Robots { return loaded }, slow)
			}
		}
	}
	if rewritten == 0 {
		t.Fatal("no wildcard rule with pairs: the test rewrote no probes")
	}
}

// TestTextKey pins textKey, which reads a rule's key from its pattern as
// the text holds it, final '$' included, to ruleKey of the pattern without
// that '$', over every pattern of up to four bytes of an alphabet that
// holds the bytes the two look at.
func TestTextKey(t *testing.T) {
	const alphabet = "/*$a"
	var pats []string
	var grow func(p string)
	grow = func(p string) {
		pats = append(pats, p)
		if len(p) < 4 {
			for i := range len(alphabet) {
				grow(p + alphabet[i:i+1])
			}
		}
	}
	grow("")
	for _, p := range pats {
		if got, want := textKey(p), ruleKey(strings.TrimSuffix(p, "$")); got != want {
			t.Errorf("textKey(%q) = %q, ruleKey of the pattern without its '$' = %q", p, got, want)
		}
	}
}
