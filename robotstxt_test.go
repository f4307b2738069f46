package robotstxt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// decideTest is one question about one robots.txt body.
type decideTest struct {
	reason string // the SPEC section or conformance row the case stands for
	robots string
	agent  string
	url    string
	want   bool
	line   int
}

func runDecideTests(t *testing.T, tests []decideTest) {
	t.Helper()
	for _, tt := range tests {
		if tt.reason == "" {
			t.Fatalf("row %q has no reason", tt.robots)
		}
		r := Parse([]byte(tt.robots))
		d := r.Decide(tt.agent, tt.url)
		if d.Allowed != tt.want || d.Line != tt.line {
			t.Errorf("%s:\nParse(%q).Decide(%q, %q) = allowed %v line %d, want %v line %d",
				tt.reason, tt.robots, tt.agent, tt.url, d.Allowed, d.Line, tt.want, tt.line)
		}
		if got := r.Allowed(tt.agent, tt.url); got != d.Allowed {
			t.Errorf("%s: Allowed = %v, Decide.Allowed = %v", tt.reason, got, d.Allowed)
		}
	}
}

func TestLines(t *testing.T) {
	long := "User-agent: *\nDisallow: /" + strings.Repeat("a", maxLineLen-len("Disallow: /")) + "b\n"
	runDecideTests(t, []decideTest{
		{"§1 LF ends a line", "User-agent: *\nDisallow: /x\n", "a", "/x", false, 2},
		{"§1 CR ends a line", "User-agent: *\rDisallow: /x\r", "a", "/x", false, 2},
		{"§1 CR LF is one break", "User-agent: *\r\nDisallow: /x\r\n", "a", "/x", false, 2},
		{"§1 LF CR is two breaks", "User-agent: *\n\rDisallow: /x", "a", "/x", false, 3},
		{"§1 CR CR is two breaks", "User-agent: *\r\rDisallow: /x", "a", "/x", false, 3},
		{"§1 text after the last break is a line", "User-agent: *\nDisallow: /x", "a", "/x", false, 2},
		{"§1 BOM skipped", "\xef\xbb\xbfUser-agent: *\nDisallow: /x", "a", "/x", false, 2},
		{"§1 partial BOM EF skipped", "\xefUser-agent: *\nDisallow: /x", "a", "/x", false, 2},
		{"§1 partial BOM EF BB skipped", "\xef\xbbUser-agent: *\nDisallow: /x", "a", "/x", false, 2},
		{"§1 BB BF is no BOM prefix", "\xbb\xbfUser-agent: *\nDisallow: /x", "a", "/x", true, 0},
		{"§1 second BOM is text", "\xef\xbb\xbf\xef\xbb\xbfUser-agent: *\nDisallow: /x", "a", "/x", true, 0},
		{"§1 BOM on a later line is text", "User-agent: *\n\xef\xbb\xbfDisallow: /x", "a", "/x", true, 0},
		{"§1 line cut at 16,663 bytes: the 16,664th byte is dropped", long, "a", "/" + strings.Repeat("a", maxLineLen-len("Disallow: /")), false, 2},
		{"§1 NUL ends the content", "User-agent: *\nDisallow: /x\x00y", "a", "/xz", false, 2},
		{"§1 # starts a comment inside a value", "User-agent: *\nDisallow: /a#b", "a", "/ac", false, 2},
		{"§1 comment after the agent", "User-agent: Foo # x\nDisallow: /", "Foo", "/", false, 2},
		{"§1 VT and FF are trimmed", "User-agent: *\nDisallow:\v/x\f", "a", "/x", false, 2},
		{"§1 space before the colon", "User-agent : *\nDisallow : /x", "a", "/x", false, 2},
		{"§1 space in place of the colon", "User-agent *\nDisallow /x", "a", "/x", false, 2},
		{"§1 tab in place of the colon", "User-agent\t*\nDisallow\t/x", "a", "/x", false, 2},
		{"§1 three tokens without colon: ignored", "User-agent *\nDisallow /x y", "a", "/x", true, 0},
		{"§1 VT is no separator", "User-agent *\nDisallow\v/x", "a", "/x", true, 0},
		{"§1 first colon separates: key 'Disallow /x', value '/y'", "User-agent *\nDisallow /x:/y", "a", "/y", false, 2},
		{"§1 ... so /x is not disallowed", "User-agent *\nDisallow /x:/y", "a", "/x", true, 0},
		{"§1 empty key ignored", ": Foo\nDisallow: /x", "Foo", "/x", true, 0},
		{"§1 empty value kept", "User-agent: *\nDisallow:", "a", "/x", true, 2},
	})
}

func TestKeys(t *testing.T) {
	runDecideTests(t, []decideTest{
		{"§2 keys are case-insensitive", "USER-AGENT: *\nDISALLOW: /x", "a", "/x", false, 2},
		{"§2 prefix 'Disallowed'", "User-agent: *\nDisallowed: /x", "a", "/x", false, 2},
		{"§2 prefix 'User-agents'", "User-agents: *\nDisallow: /x", "a", "/x", false, 2},
		{"§2 prefix 'Allowance'", "User-agent: *\nDisallow: /\nAllowance: /x", "a", "/x", true, 3},
		{"§2 typo useragent", "useragent: *\nDisallow: /x", "a", "/x", false, 2},
		{"§2 typo 'user agent'", "user agent: *\nDisallow: /x", "a", "/x", false, 2},
		{"§2 user_agent is not accepted", "user_agent: *\nDisallow: /x", "a", "/x", true, 0},
		{"§2 typo dissallow", "User-agent: *\ndissallow: /x", "a", "/x", false, 2},
		{"§2 typo dissalow", "User-agent: *\ndissalow: /x", "a", "/x", false, 2},
		{"§2 typo disalow", "User-agent: *\ndisalow: /x", "a", "/x", false, 2},
		{"§2 typo diasllow", "User-agent: *\ndiasllow: /x", "a", "/x", false, 2},
		{"§2 typo disallaw", "User-agent: *\ndisallaw: /x", "a", "/x", false, 2},
		{"§2 disalllow is not accepted", "User-agent: *\ndisalllow: /x", "a", "/x", true, 0},
		{"§2 allow has no typos", "User-agent: *\nalow: /x\nDisallow: /", "a", "/x", false, 3},
		{"§2 'User-agent foo' is still user-agent", "User-agent foo: *\nDisallow: /x", "a", "/x", false, 2},
		{"§2 other keys do not end a group", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /", "a", "/x", false, 4},
		{"§2 sitemap does not end a group", "User-agent: a\nSitemap: /s\nUser-agent: b\nDisallow: /", "a", "/x", false, 4},
	})
}

func TestPatterns(t *testing.T) {
	runDecideTests(t, []decideTest{
		{"§3 %aa in a pattern becomes %AA", "User-agent: *\nDisallow: /%aa", "a", "/%AA", false, 2},
		{"§3 the URL is not normalised", "User-agent: *\nDisallow: /%aa", "a", "/%aa", true, 0},
		{"§3 URL lower-case escape vs %AA", "User-agent: *\nDisallow: /%AA", "a", "/%aa", true, 0},
		{"§3 non-ASCII pattern is %-encoded", "User-agent: *\nDisallow: /\xc3\xa9", "a", "/%C3%A9", false, 2},
		{"§3 raw UTF-8 URL does not match the escaped pattern", "User-agent: *\nDisallow: /\xc3\xa9", "a", "/\xc3\xa9", true, 0},
		{"§3 space kept raw", "User-agent: *\nDisallow: /a b", "a", "/a b", false, 2},
		{"§3 no %20 equivalence", "User-agent: *\nDisallow: /a b", "a", "/a%20b", true, 0},
		{"§3 no ~ equivalence", "User-agent: *\nDisallow: /~a", "a", "/%7Ea", true, 0},
		{"§3 lone % kept", "User-agent: *\nDisallow: /a%", "a", "/a%", false, 2},
		{"§3 % with one hex digit kept", "User-agent: *\nDisallow: /a%b", "a", "/a%b", false, 2},
		{"§3 % at the end with a hex digit", "User-agent: *\nDisallow: /a%e", "a", "/a%e", false, 2},
		{"§5 the reference matches the path as a C string: '$' after the part before NUL", "User-agent: *\nDisallow: /a$\n", "FooBot", "http://example.com/a\x00b", false, 2},
		{"§5 ... and bytes after NUL do not match", "User-agent: *\nDisallow: /*b\n", "FooBot", "http://example.com/a\x00b", true, 0},
		{"§5 ... a NUL right after the root", "User-agent: *\nAllow: /$\n", "FooBot", "http://example.com/\x00", true, 2},
		{"§5 ... with typo keys and a leading star", "Useragent:*\nDisalow:*l$", "t", "/l\x00", false, 2},
		{"§5 ... a NUL in the query", "User-agent: *\nDisallow: /a?b$\n", "t", "/a?b\x00c", false, 2},
		{"§5 ... a NUL in a query that starts the path", "User-agent: *\nDisallow: /?b$\n", "t", "http://h?b\x00c", false, 2},
	})
}

func TestGroups(t *testing.T) {
	runDecideTests(t, []decideTest{
		{"§4 rules before the first user-agent are ignored", "Disallow: /\nUser-agent: Foo\nAllow: /y", "Foo", "/x", true, 0},
		{"§4 user-agent lines accumulate", "User-agent: a\nUser-agent: b\nDisallow: /x", "b", "/x", false, 3},
		{"§4 blank lines do not close a group", "User-agent: a\n\nUser-agent: *\nDisallow: /", "a", "/x", false, 4},
		{"§4 comments do not close a group", "User-agent: a\n# c\nUser-agent: *\nDisallow: /", "a", "/x", false, 4},
		{"§4 a rule closes the user-agent list", "User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /x", "a", "/x", true, 0},
		{"§4 '*' is global", "User-agent: *\nDisallow: /", "Foo", "/x", false, 2},
		{"§4 '* foo' is global", "User-agent: * foo\nDisallow: /", "Bar", "/x", false, 2},
		{"§4 '*<TAB>foo' is global", "User-agent: *\tfoo\nDisallow: /", "Bar", "/x", false, 2},
		{"§4 '*foo' is not global", "User-agent: *foo\nDisallow: /", "Bar", "/x", true, 0},
		{"§4 '*foo' reduces to the empty token", "User-agent: *foo\nDisallow: /", "", "/x", false, 2},
		{"§4 empty value is the empty token", "User-agent:\nDisallow: /", "", "/x", false, 2},
		{"§4 version stripped", "User-agent: Googlebot/2.1\nDisallow: /", "Googlebot", "/x", false, 2},
		{"§4 digits end the token", "User-agent: Googlebot2\nDisallow: /", "Googlebot", "/x", false, 2},
		{"§4 space ends the token", "User-agent: Foo Bar\nDisallow: /", "Foo", "/x", false, 2},
		{"§4 '.' ends the token", "User-agent: Foo.Bar\nDisallow: /", "Foo", "/x", false, 2},
		{"§4 non-ASCII ends the token", "User-agent: F\xf6\xf6\nDisallow: /", "F", "/x", false, 2},
		{"§4 '_' and '-' are token bytes", "User-agent: a_b-c\nDisallow: /", "A_B-C", "/x", false, 2},
		{"§4 caller agent compared case-insensitively", "User-agent: Googlebot\nDisallow: /", "googlebot", "/x", false, 2},
		{"§4 caller agent not reduced", "User-agent: Googlebot\nDisallow: /", "Googlebot/2.1", "/x", true, 0},
		{"§4 caller agent not trimmed", "User-agent: Googlebot\nDisallow: /", " Googlebot", "/x", true, 0},
		{"§4 caller agent '*' uses the global group", "User-agent: *\nDisallow: /", "*", "/x", false, 2},
		{"§4 caller agent 'K' is not Kelvin sign", "User-agent: K\nDisallow: /", "\u212a", "/x", true, 0},
		{"§4 same-agent groups merged", "User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: a\nDisallow: /x", "a", "/x", false, 6},
		{"§4 merged groups: longest across groups", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /\nUser-agent: a\nAllow: /xy", "a", "/xyz", true, 6},
		{"§4 '*' groups merged", "User-agent: *\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: *\nDisallow: /x", "c", "/x", false, 6},
		{"§4 group naming '*' and the agent: rule counts for the agent", "User-agent: *\nUser-agent: Foo\nDisallow: /x", "Foo", "/x", false, 3},
		{"§4 ... and for the others", "User-agent: *\nUser-agent: Foo\nDisallow: /x", "Bar", "/x", false, 3},
		{"§4 named agent ignores '*'", "User-agent: *\nDisallow: /\nUser-agent: Foo\nAllow: /y", "Foo", "/x", true, 0},
		{"§4 named in an empty group at the end still overrides '*'", "User-agent: *\nDisallow: /\nUser-agent: Foo", "Foo", "/x", true, 0},
		{"§4 empty disallow in the specific group", "User-agent: *\nDisallow: /\nUser-agent: Foo\nDisallow:", "Foo", "/x", true, 4},
		{"§4 neither named nor '*': allowed", "User-agent: Foo\nDisallow: /", "Bar", "/x", true, 0},
		{"§4 empty file", "", "Foo", "/x", true, 0},
		{"§4 empty token named by many lines around another token: its names keep file order when sorted",
			"User-agent:\nDisallow: /\n" + strings.Repeat("User-agent:\n", 10) + "User-agent: a\nUser-agent:\n", "", "http://example.com/", false, 2},
		{"§4 empty token interleaved with 'a' in several groups",
			"Useragent:\nuseragent:\nuseragent:\nUseragent:a\nuseragent:\nUseragent:\nuseragent:a\nUseragent:\nUseragent:\nUseragent:\nallow:.\nUseragent:\nallow:\nuseragent:\nUseragent B",
			"", "/", true, 13},
	})
}

func TestValidAgent(t *testing.T) {
	tests := []struct {
		reason, agent string
		want          bool
	}{
		{"§4 plain token", "Googlebot", true},
		{"§4 '-' and '_'", "Google-Extended_x", true},
		{"§4 empty is not a token", "", false},
		{"§4 version is not part of a token", "Googlebot/2.1", false},
		{"§4 digits are not token bytes", "bot2", false},
		{"§4 spaces are not token bytes", "Foo Bar", false},
		{"§4 '*' is not a token", "*", false},
		{"§4 non-ASCII is not a token byte", "F\u00f6\u00f6", false},
	}
	for _, tt := range tests {
		if got := ValidAgent(tt.agent); got != tt.want {
			t.Errorf("%s: ValidAgent(%q) = %v, want %v", tt.reason, tt.agent, got, tt.want)
		}
	}
}

func TestSitemaps(t *testing.T) {
	tests := []struct {
		reason, robots string
		want           []string
	}{
		{"§6 none", "User-agent: *\nDisallow: /", nil},
		{"§6 file order, any group, outside groups", "Sitemap: https://a/1\nUser-agent: *\nsitemap: https://a/2\nDisallow: /\nSite-map: https://a/3",
			[]string{"https://a/1", "https://a/2", "https://a/3"}},
		{"§6 duplicates kept out", "Sitemap: https://a/1\nSitemap: https://a/2\nSitemap: https://a/1", []string{"https://a/1", "https://a/2"}},
		{"§6 not normalised", "Sitemap: https://a/\xc3\xa9?%aa", []string{"https://a/\xc3\xa9?%aa"}},
		{"§6 comment cut, empty skipped", "Sitemap: https://a/x#y\nSitemap:", []string{"https://a/x"}},
	}
	for _, tt := range tests {
		got := Parse([]byte(tt.robots)).Sitemaps()
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Sitemaps() mismatch (-want +got):\n%s", tt.reason, diff)
		}
	}
	// Beyond the linear scan, a hash set keeps duplicates out.
	var b strings.Builder
	for i := 0; i < 100; i++ {
		b.WriteString("Sitemap: https://a/" + strings.Repeat("x", i%40) + "\n")
	}
	if got := len(Parse([]byte(b.String())).Sitemaps()); got != 40 {
		t.Errorf("§6 many sitemaps: got %d distinct, want 40", got)
	}
	// Thousands, each repeated at once, later and much later, across the
	// growths of the set, in file order: the first of each is kept.
	b.Reset()
	var want []string
	for i := 0; i < 3000; i++ {
		s := fmt.Sprintf("https://a/%d", i)
		want = append(want, s)
		b.WriteString("Sitemap: " + s + "\n")
		b.WriteString("Sitemap: " + s + "\n")
		b.WriteString(fmt.Sprintf("Sitemap: https://a/%d\n", i/2))
		b.WriteString(fmt.Sprintf("Sitemap: https://a/%d\n", i/50))
	}
	if diff := cmp.Diff(want, Parse([]byte(b.String())).Sitemaps()); diff != "" {
		t.Errorf("§6 thousands of sitemaps with duplicates: mismatch (-want +got):\n%s", diff)
	}
}

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		reason, robots, agent string
		want                  time.Duration
		ok                    bool
	}{
		{"§6 integer seconds", "User-agent: *\nCrawl-delay: 5", "a", 5 * time.Second, true},
		{"§6 decimal seconds", "User-agent: *\nCrawl-delay: 0.5", "a", 500 * time.Millisecond, true},
		{"§6 trailing dot", "User-agent: *\nCrawl-delay: 2.", "a", 2 * time.Second, true},
		{"§6 leading dot", "User-agent: *\nCrawl-delay: .25", "a", 250 * time.Millisecond, true},
		{"§6 key case-insensitive", "User-agent: *\ncrawl-DELAY: 3", "a", 3 * time.Second, true},
		{"§6 invalid value ignored", "User-agent: *\nCrawl-delay: soon", "a", 0, false},
		{"§6 negative ignored", "User-agent: *\nCrawl-delay: -1", "a", 0, false},
		{"§6 exponent ignored", "User-agent: *\nCrawl-delay: 1e3", "a", 0, false},
		{"§6 too large ignored", "User-agent: *\nCrawl-delay: 99999999999999999999", "a", 0, false},
		{"§6 invalid then valid: the valid one", "User-agent: *\nCrawl-delay: x\nCrawl-delay: 7", "a", 7 * time.Second, true},
		{"§6 first valid wins", "User-agent: *\nCrawl-delay: 1\nCrawl-delay: 7", "a", time.Second, true},
		{"§6 chosen like rules: the agent's group", "User-agent: *\nDisallow: /x\nCrawl-delay: 1\nUser-agent: b\nDisallow: /y\nCrawl-delay: 9", "b", 9 * time.Second, true},
		{"§6 named agent without delay does not fall back to '*'", "User-agent: *\nDisallow: /x\nCrawl-delay: 1\nUser-agent: b\nDisallow: /", "b", 0, false},
		{"§6 merged groups: first in file order", "User-agent: b\nDisallow: /\nCrawl-delay: 4\nUser-agent: c\nDisallow: /\nUser-agent: b\nCrawl-delay: 2", "b", 4 * time.Second, true},
		{"§6 crawl-delay does not end a group: shared by both agents", "User-agent: *\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 9", "b", time.Second, true},
		{"§6 before any user-agent: no group", "Crawl-delay: 5\nUser-agent: *\nDisallow: /", "a", 0, false},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.robots)).CrawlDelay(tt.agent)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: CrawlDelay(%q) = %v, %v, want %v, %v", tt.reason, tt.agent, got, ok, tt.want, tt.ok)
		}
	}
}

// TestCrawlDelayLine checks that the line CrawlDelayLine names is the line
// of the delay CrawlDelay gives, so that a caller that reports the line
// needs no parser of its own.
func TestCrawlDelayLine(t *testing.T) {
	tests := []struct {
		reason, robots string
		delay          time.Duration
		line           int
	}{
		{"one delay", "User-agent: *\nCrawl-delay: 5\n", 5 * time.Second, 2},
		{"an exponent is no delay: the next line's", "User-agent: *\nCrawl-delay: 1e3\nCrawl-delay: 5\n", 5 * time.Second, 3},
		{"a negative is no delay", "User-agent: *\nCrawl-delay: -1\nDisallow: /\ncrawl-delay: 0.5\n", 500 * time.Millisecond, 4},
		{"merged groups: the first in file order", "User-agent: a\nCrawl-delay: 4\nUser-agent: b\nDisallow: /\nUser-agent: a\nCrawl-delay: 2\n", 4 * time.Second, 2},
		{"none", "User-agent: *\nDisallow: /\n", 0, 0},
	}
	for _, tt := range tests {
		g := Parse([]byte(tt.robots)).Group("a")
		d, line := g.CrawlDelayLine()
		cd, ok := g.CrawlDelay()
		if d != tt.delay || line != tt.line || cd != d || ok != (line != 0) {
			t.Errorf("%s: CrawlDelayLine = %v line %d (CrawlDelay %v %v), want %v line %d", tt.reason, d, line, cd, ok, tt.delay, tt.line)
		}
	}
}

func TestGroupRulesAndOthers(t *testing.T) {
	robots := "User-agent: *\nDisallow: /a\n" +
		"User-agent: Foo\nUser-agent: Bar\nAllow: /\xc3\xa9$ # c\nDisallow: /b\nHost: example.com\nClean-param: ref /x\n" +
		"User-agent: foo\nAllow: /d/index.html\nRequest-rate: 1/5\n"
	r := Parse([]byte(robots))
	g := r.Group("FOO")
	wantRules := []Rule{
		{Line: 5, Allow: true, Pattern: "/%C3%A9$", Text: "/\xc3\xa9$"},
		{Line: 6, Allow: false, Pattern: "/b", Text: "/b"},
		{Line: 10, Allow: true, Pattern: "/d/index.html", Text: "/d/index.html"},
	}
	if diff := cmp.Diff(wantRules, g.Rules()); diff != "" {
		t.Errorf("§4 §6 merged Rules() mismatch (-want +got):\n%s", diff)
	}
	wantOthers := []Other{
		{Line: 7, Key: "Host", Value: "example.com"},
		{Line: 8, Key: "Clean-param", Value: "ref /x"},
		{Line: 11, Key: "Request-rate", Value: "1/5"},
	}
	if diff := cmp.Diff(wantOthers, g.Others()); diff != "" {
		t.Errorf("§6 merged Others() mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Rule{{Line: 2, Pattern: "/a", Text: "/a"}}, r.Group("other").Rules()); diff != "" {
		t.Errorf("§4 global Rules() mismatch (-want +got):\n%s", diff)
	}
	d := g.Decide("/%C3%A9")
	if want := (Decision{Allowed: true, Line: 5, Allow: true, Rule: "/\xc3\xa9$"}); d != want {
		t.Errorf("§5 Decide = %+v, want %+v", d, want)
	}
	d = g.Decide("/d/")
	if want := (Decision{Allowed: true, Line: 10, Allow: true, Rule: "/d/index.html"}); d != want {
		t.Errorf("§5 index.html fallback Decide = %+v, want %+v", d, want)
	}
}

func TestNilAndKinds(t *testing.T) {
	var r *Robots
	if !r.Allowed("a", "/x") || r.Decide("a", "/x") != (Decision{Allowed: true}) {
		t.Error("nil *Robots must allow everything")
	}
	if r.Sitemaps() != nil || r.Kind() != AllowAll {
		t.Error("nil *Robots: no sitemaps, kind AllowAll")
	}
	if _, ok := r.CrawlDelay("a"); ok {
		t.Error("nil *Robots has no crawl-delay")
	}
	var g Group
	if !g.Allowed("/x") || g.Rules() != nil || g.Others() != nil {
		t.Error("zero Group must allow everything and list nothing")
	}
	tests := []struct {
		reason string
		code   int
		kind   Kind
		allow  bool
	}{
		{"§8 2xx parses", 200, Parsed, false},
		{"§8 206 is 2xx", 206, Parsed, false},
		{"§8 404 allows all", 404, AllowAll, true},
		{"§8 401 allows all", 401, AllowAll, true},
		{"§8 429 disallows all", 429, DisallowAll, false},
		{"§8 500 disallows all", 500, DisallowAll, false},
		{"§8 503 disallows all", 503, DisallowAll, false},
		{"§8 a redirect left unfollowed is not a file", 301, DisallowAll, false},
	}
	body := []byte("User-agent: *\nDisallow: /")
	for _, tt := range tests {
		r := FromStatus(tt.code, body)
		if r.Kind() != tt.kind || r.Allowed("a", "/x") != tt.allow {
			t.Errorf("%s: FromStatus(%d): kind %v allowed %v, want %v %v", tt.reason, tt.code, r.Kind(), r.Allowed("a", "/x"), tt.kind, tt.allow)
		}
	}
}

// TestParseKeepsNoData checks that Parse copies what it keeps.
func TestParseKeepsNoData(t *testing.T) {
	data := []byte("User-agent: Foo\nDisallow: /x\nSitemap: https://a/s\nHost: h\n")
	r := Parse(data)
	for i := range data {
		data[i] = 'z'
	}
	if r.Allowed("Foo", "/x") || r.Sitemaps()[0] != "https://a/s" || r.Group("foo").Others()[0].Value != "h" {
		t.Error("Parse result changed when the input was overwritten")
	}
}

// TestPreambleOthers checks that lines with other keys before the first
// group are kept as the file's own (Host and Clean-param at the top).
func TestPreambleOthers(t *testing.T) {
	r := Parse([]byte("Host: example.com\nClean-param: ref /a/\nDisallow: /x\nUser-agent: *\nCrawl-delay: 1\nSitemap: /s\n"))
	want := []Other{{Line: 1, Key: "Host", Value: "example.com"}, {Line: 2, Key: "Clean-param", Value: "ref /a/"}}
	if diff := cmp.Diff(want, r.Others()); diff != "" {
		t.Errorf("Others() (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Other{{Line: 5, Key: "Crawl-delay", Value: "1"}}, r.Group("a").Others()); diff != "" {
		t.Errorf("Group.Others() (-want +got):\n%s", diff)
	}
	if got := Parse([]byte("Host: h\n")).Others(); len(got) != 1 {
		t.Errorf("a file of one Host line: Others() = %v", got)
	}
}
