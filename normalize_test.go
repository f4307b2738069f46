package robotstxt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

var normalizeTests = []struct {
	in, want string
	reason   string
}{
	{"", "", "empty string"},
	{"http://example.com/a/b?c=d", "http://example.com/a/b?c=d", "plain ASCII is unchanged"},
	{"/ü/x", "/%C3%BC/x", "SPEC §3: bytes ≥ 0x80 become upper-case %XX"},
	{"/%c3%bc/x", "/%C3%BC/x", "SPEC §3: %-escapes get upper-case hex digits"},
	{"/%C3%bc", "/%C3%BC", "a mixed-case escape"},
	{"/%aB%Ab", "/%AB%AB", "each digit of an escape is upper-cased"},
	{"/%C3%BC", "/%C3%BC", "upper-case escapes are already normal"},
	{"/a%2fb", "/a%2Fb", "an escaped '/' is not decoded, only upper-cased"},
	{"/%41", "/%41", "an escaped letter is not decoded"},
	{"/a/../b/./c", "/a/../b/./c", "dot segments stay"},
	{"/ABC/def", "/ABC/def", "the path's case stays"},
	{"HTTP://Example.COM/", "HTTP://Example.COM/", "scheme and host are not case-folded either"},
	{"/%zz%g1", "/%zz%g1", "a '%' without two hex digits stays"},
	{"/%a", "/%a", "an escape cut by the end of the string stays"},
	{"/%", "/%", "a final '%' stays"},
	{"/%%61", "/%%61", "'%%' is no escape; the escape after it is already normal"},
	{"/%%6a", "/%%6A", "an escape right after a lone '%'"},
	{"/%\xff", "/%%FF", "a lone '%' before an encoded byte"},
	{"/%a\xff", "/%a%FF", "an encoded byte does not complete a cut escape"},
	{"/\xff\xfe", "/%FF%FE", "invalid UTF-8 is encoded byte by byte"},
	{"http://müller.eu/ü", "http://m%C3%BCller.eu/%C3%BC", "the whole string is normalised, host included"},
	{"/€?q=€", "/%E2%82%AC?q=%E2%82%AC", "the query is normalised like the path"},
	{"/aaaaaaaaaaaaaaaaaaaa/%e2", "/aaaaaaaaaaaaaaaaaaaa/%E2", "an escape after several plain 8-byte words"},
	{"/aaaaaa%41%42%43%44%45%46x%4f", "/aaaaaa%41%42%43%44%45%46x%4F", "normal escapes across word boundaries, then one to change"},
	{"/aaaaaaaaaaaaaaa\xc3\xa9", "/aaaaaaaaaaaaaaa%C3%A9", "a high byte in the last partial word"},
	{"#%\x00\x80", "#%\x00%80", "NUL and other control bytes stay"},
	{"/a b", "/a%20b", "issue 17 item 2: a space is sent as %20, as net/url writes it"},
	{"/a\"b<c>d", "/a%22b%3Cc%3Ed", "issue 17 item 2: '\"', '<', '>' are sent encoded"},
	{"/\\^`{|}", "/%5C%5E%60%7B%7C%7D", "RFC 3986 §2: bytes no URI holds raw, which net/url never sends raw in a path"},
	{"/?q=a b&r=<x>", "/?q=a%20b&r=%3Cx%3E", "the query is encoded like the path"},
	{"/my docs/#a b", "/my%20docs/#a%20b", "the fragment too; it plays no part in matching"},
	{"/a%2fb c", "/a%2Fb%20c", "nothing decoded: %2F stays an escape beside an encoded space"},
	{"/!$&'()*+,;=:@[]~", "/!$&'()*+,;=:@[]~", "sub-delims and the rest of what a path may hold stay raw"},
	{"/%20", "/%20", "an encoded space is already normal"},
	{"/aaaaaaaa aaaaaaaa", "/aaaaaaaa%20aaaaaaaa", "a space in the middle of a long path"},
}

func TestNormalizeURL(t *testing.T) {
	for _, tt := range normalizeTests {
		if tt.reason == "" {
			t.Fatalf("row %q has no reason", tt.in)
		}
		if got := NormalizeURL(tt.in); got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
		if got := NormalizeURL(tt.want); got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, not idempotent (%s)", tt.want, got, tt.reason)
		}
	}
}

// TestNormalizeURLMatchesParse checks that NormalizeURL is the parser's
// normalisation of patterns: appendEscaped, which Parse uses, and the slow
// reference's slowNormalise.
func TestNormalizeURLMatchesParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 3))
	for range 20000 {
		s := randNormalizeInput(rng)
		checkNormalize(t, s)
	}
}

func checkNormalize(t *testing.T, s string) {
	t.Helper()
	got := NormalizeURL(s)
	// The bytes a URI never holds raw, encoded first, then the parser's
	// normalisation of patterns: the two must be NormalizeURL.
	wire := slowWireEscape(s)
	if want := string(grammar.AppendEscaped(nil, []byte(wire))); got != want {
		t.Fatalf("NormalizeURL(%q) = %q, Parse normalises %q to %q", s, got, wire, want)
	}
	if want := slowNormalise(wire); got != want {
		t.Fatalf("NormalizeURL(%q) = %q, slow reference says %q", s, got, want)
	}
	if again := NormalizeURL(got); again != got {
		t.Fatalf("NormalizeURL(%q) = %q, but NormalizeURL(%q) = %q", s, got, got, again)
	}
	if changes := wire != s || grammar.NeedsEscape([]byte(s)); got == s && changes || got != s && !changes {
		t.Fatalf("NormalizeURL(%q) = %q, but the references say it changes: %v", s, got, changes)
	}
}

// slowWireEscape encodes, as %XX, the ASCII bytes that no part of a URI may
// hold raw (RFC 3986 §2): those outside unreserved, reserved and '%'.
func slowWireEscape(s string) string {
	const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && !strings.Contains(allowed, string(c)) {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// randNormalizeInput returns a string in which escapes of either case,
// broken escapes and high bytes meet often, at every offset of an 8-byte
// word.
func randNormalizeInput(rng *rand.Rand) string {
	pieces := []string{"a", "/", "%", "%4", "%4f", "%4F", "%e2", "%E2", "%g", "\xc3\xbc", "\xff", "\x00", "zzzzzzz", " ", "<", "|", "?", "#", "%20"}
	var b strings.Builder
	for range rng.IntN(12) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestNormalizeURLNoAllocs checks that a URL with nothing to change costs
// no allocation, so a cache can normalise every question.
func TestNormalizeURLNoAllocs(t *testing.T) {
	for _, u := range []string{
		"",
		"http://example.com/a/b?c=d",
		"http://127.0.0.1:8080/x/y?z",
		"/%C3%BC/%2F/%zz/" + strings.Repeat("abcdefgh", 40),
	} {
		if n := testing.AllocsPerRun(1000, func() {
			if NormalizeURL(u) != u {
				t.Fatalf("NormalizeURL(%q) changed it", u)
			}
		}); n != 0 {
			t.Errorf("NormalizeURL(%q): %v allocs, want 0", u, n)
		}
	}
	u := "/%c3%bc/" + strings.Repeat("ü", 40)
	if n := testing.AllocsPerRun(1000, func() { NormalizeURL(u) }); n != 1 {
		t.Errorf("NormalizeURL(%q): %v allocs, want 1 (the result)", u, n)
	}
}

// TestAllowedNormalizedAgreesWithSlow is the property that makes
// NormalizeURL worth having: for random raw URLs (non-ASCII bytes,
// escapes of either case), asking Allowed with the normalised URL gives the
// slow reference's answer on the escaped URL, line included. The files'
// patterns are written raw or escaped in either case too, so that the raw
// and the normalised URL often get different answers; the test checks that
// they do, or it would prove little.
func TestAllowedNormalizedAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 4))
	differ := 0
	for range 2000 {
		body := randNormalizeRobots(rng)
		r, slow := Parse(body), slowParse(body)
		for range 8 {
			u := randRawURL(rng)
			agent := []string{"a", "b"}[rng.IntN(2)]
			got := r.Decide(agent, NormalizeURL(u))
			want := slow.decide(agent, slowNormalise(slowWireEscape(u)))
			if got.Allowed != want.Allowed || got.Line != want.Line {
				t.Fatalf("body %q agent %q URL %q: Decide(NormalizeURL) = allowed %v line %d, slow reference on the escaped URL says allowed %v line %d",
					body, agent, u, got.Allowed, got.Line, want.Allowed, want.Line)
			}
			if raw := r.Decide(agent, u); raw.Allowed != got.Allowed || raw.Line != got.Line {
				differ++
			}
		}
	}
	if differ < 100 {
		t.Errorf("only %d of 16000 raw URLs were decided differently from their normalised form; the generator misses the point", differ)
	}
}

// normPieces are path pieces in several spellings of the same bytes.
var normPieces = [][]string{
	{"ü", "%c3%bc", "%C3%BC", "%C3%bc"},
	{"é", "%c3%a9", "%C3%A9"},
	{"€", "%e2%82%ac", "%E2%82%AC"},
	{"\xff", "%ff", "%FF"},
	{"%2f", "%2F"},
	{" ", "%20"},
	{"<", "%3c", "%3C"},
	{"a"}, {"b"}, {"/"}, {"%"}, {"%g"},
}

func randNormalizePath(rng *rand.Rand, max int) string {
	var b strings.Builder
	b.WriteByte('/')
	for range 1 + rng.IntN(max) {
		p := normPieces[rng.IntN(len(normPieces))]
		b.WriteString(p[rng.IntN(len(p))])
	}
	return b.String()
}

func randNormalizeRobots(rng *rand.Rand) []byte {
	var b strings.Builder
	for range 1 + rng.IntN(3) {
		b.WriteString([]string{"User-agent: a\n", "User-agent: *\n", "User-agent: b\n"}[rng.IntN(3)])
		for range 1 + rng.IntN(4) {
			b.WriteString([]string{"Allow: ", "Disallow: "}[rng.IntN(2)])
			b.WriteString(randNormalizePath(rng, 3))
			switch rng.IntN(4) {
			case 0:
				b.WriteString("*")
			case 1:
				b.WriteString("$")
			}
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

func randRawURL(rng *rand.Rand) string {
	prefix := []string{"", "http://h", "http://hö.example", "https://h:8080"}[rng.IntN(4)]
	u := prefix + randNormalizePath(rng, 4)
	if rng.IntN(4) == 0 {
		u += "?q=" + randNormalizePath(rng, 2)[1:]
	}
	return u
}

// TestNormalizeURLIssueExample is the case that motivated NormalizeURL: a
// raw href taken out of HTML misses the rule written for it.
func TestNormalizeURLIssueExample(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /ü/\n"))
	const href = "http://h/ü/x"
	if !r.Allowed("Foobot", href) {
		t.Fatal("the raw URL is matched as given and should miss the normalised pattern")
	}
	if r.Allowed("Foobot", NormalizeURL(href)) {
		t.Errorf("Allowed(NormalizeURL(%q)) = true, want false: Disallow: /ü/ applies", href)
	}
}

// FuzzNormalizeURL holds NormalizeURL equal to the parser's normalisation
// and idempotent on any input.
func FuzzNormalizeURL(f *testing.F) {
	for _, tt := range normalizeTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkNormalize(t, s)
	})
}

var normalizeSink string

func BenchmarkNormalizeURL(b *testing.B) {
	for _, u := range []string{"http://example.com/a/b/c/d?e=f&g=h", "http://example.com/a/%c3%bc/ü"} {
		b.Run(u, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				normalizeSink = NormalizeURL(u)
			}
		})
	}
}

// A crawler takes URLs raw out of pages; the rules are stored normalised.
// NormalizeURL brings the URL to the rules' form before asking.
func ExampleNormalizeURL() {
	r := Parse([]byte("User-agent: *\nDisallow: /ü/\n"))
	for _, u := range []string{"https://example.com/ü/x", "https://example.com/%c3%bc/x", "https://example.com/a%2fb"} {
		n := NormalizeURL(u)
		fmt.Println(n, r.Allowed("Foobot", u), r.Allowed("Foobot", n))
	}
	// Output:
	// https://example.com/%C3%BC/x true false
	// https://example.com/%C3%BC/x true false
	// https://example.com/a%2Fb true true
}

// TestPlainWord holds the word test of firstToNormalize to the byte table:
// a word it calls plain holds no byte NormalizeURL may change, for every
// byte at every position among plain neighbours.
func TestPlainWord(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			if plainWord(le64(string(w))) && needsWork[c] {
				t.Errorf("plainWord(%q) = true, but byte %#x needs work", w, c)
			}
		}
	}
	if !plainWord(le64("/a/b-c_d")) {
		t.Error("plainWord says a plain path is not plain")
	}
}

// TestIndexWireEscaped checks the table lookup against bytes.IndexAny on
// every byte, alone and after others.
func TestIndexWireEscaped(t *testing.T) {
	for c := 0; c < 256; c++ {
		for _, b := range [][]byte{{byte(c)}, {'/', 'a', byte(c), ' '}, {'/', byte(c)}} {
			if got, want := grammar.IndexWireEscaped(b), bytes.IndexAny(b, grammar.WireEscaped); got != want {
				t.Errorf("grammar.IndexWireEscaped(%q) = %d, want %d", b, got, want)
			}
		}
	}
}
