package lint

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// finding renders e as "line:severity:cause", short enough to compare in
// tables.
func finding(e *Error) string {
	return fmt.Sprintf("%d:%s:%v", e.Line, e.Severity, e.Err)
}

func findings(r *Report) []string {
	var out []string
	for _, e := range r.Findings {
		out = append(out, finding(e))
	}
	return out
}

func TestDiagnoseFindings(t *testing.T) {
	tests := []struct {
		reason string
		robots string
		want   []string // finding() of each finding, in order
	}{
		{"a clean file draws no finding",
			"User-agent: *\nDisallow: /private/\nAllow: /private/press/\nSitemap: https://e.com/s.xml\n", nil},
		{"SPEC §5: a pattern that starts with neither '/' nor '*' never matches",
			"User-agent: *\nDisallow: private/\n", []string{"2:error:pattern can never match"}},
		{"crawlers send a space %-encoded (NormalizeURL): a raw one in a pattern never matches",
			"User-agent: *\nDisallow: /my docs/\n", []string{"2:error:pattern holds a byte crawlers send escaped"}},
		{"so do '\"', '<', '>' and the other bytes no URI holds raw, in Allow too",
			"User-agent: *\nAllow: /a{b}\nDisallow: /a\n", []string{"2:error:pattern holds a byte crawlers send escaped"}},
		{"'|', '^', '\\' and, in the query, '{' '}' '`' go out raw from browsers: a warning, not an error",
			"User-agent: *\nDisallow: /a|b\nDisallow: /s?q={x}\n", []string{"2:warning:pattern holds a byte crawlers send escaped", "3:warning:pattern holds a byte crawlers send escaped"}},
		{"the escaped form, non-ASCII bytes (escaped by the matcher itself) and '*' '$' are fine",
			"User-agent: *\nDisallow: /my%20docs/\nDisallow: /ü/\nDisallow: /*.pdf$\n", nil},
		{"SPEC §5: '*' starts a pattern as well as '/'",
			"User-agent: *\nDisallow: *.pdf$\n", nil},
		{"an empty Disallow is the usual way to allow everything",
			"User-agent: *\nDisallow:\n", nil},
		{"SPEC §4: rules before the first user-agent line are ignored",
			"Disallow: /a\nUser-agent: *\nDisallow: /b\n", []string{"1:error:line before any user-agent line"}},
		{"Crawl-delay before any group matters less, but is lost too",
			"Crawl-delay: 5\nUser-agent: *\nDisallow: /b\n", []string{"1:warning:line before any user-agent line"}},
		{"Host is often written outside groups, for Yandex",
			"Host: example.com\nUser-agent: *\nDisallow: /b\n", []string{"1:info:line before any user-agent line"}},
		{"SPEC §4: a version after the token is dropped, harmlessly",
			"User-agent: Googlebot/2.1\nDisallow: /a\n", []string{"1:info:user-agent value reduced to its product token"}},
		{"SPEC §4: two agents on one line name only the first",
			"User-agent: Googlebot, Bingbot\nDisallow: /a\n", []string{"1:warning:user-agent value reduced to its product token"}},
		{"SPEC §4: '* anything' names the global group",
			"User-agent: * everyone\nDisallow: /a\n", []string{"1:info:user-agent value reduced to its product token"}},
		{"SPEC §4: a value that starts with a digit reduces to the empty token",
			"User-agent: 007bot\nDisallow: /a\n", []string{"1:error:user-agent value names no product token"}},
		{"SPEC §4: an empty user-agent names no crawler",
			"User-agent:\nDisallow: /a\n", []string{"1:error:user-agent value names no product token"}},
		{"unknown keys are ignored; a close one is suggested",
			"User-agent: *\nCrawl_delay: 5\nDisallow: /a\n", []string{"2:warning:unknown key"}},
		{"SPEC §6: well-known other keys are no finding",
			"User-agent: *\nClean-param: ref /x\nRequest-rate: 1/5\nHost: example.com\nDisallow: /a\n", nil},
		{"SPEC §5: '$' is an anchor only at the end",
			"User-agent: *\nDisallow: /a$b\nDisallow: /c$\n", []string{"2:warning:'$' inside a pattern"}},
		{"SPEC §6: invalid crawl-delay values are ignored",
			"User-agent: *\nCrawl-delay: ten\nDisallow: /a\n", []string{"2:warning:invalid or repeated crawl-delay"}},
		{"SPEC §6: the first valid crawl-delay of a group counts",
			"User-agent: *\nCrawl-delay: 1\nCrawl-delay: 2\nDisallow: /a\n", []string{"2:info:line Google ignores", "3:warning:invalid or repeated crawl-delay"}},
		{"SPEC §5: allow wins a tie, so the disallow is dead",
			"User-agent: *\nDisallow: /a\nAllow: /a\n", []string{"3:warning:same pattern allowed and disallowed"}},
		{"SPEC §3: patterns are compared after normalisation",
			"User-agent: *\nAllow: /%aa\nDisallow: /%AA\n", []string{"3:warning:same pattern allowed and disallowed"}},
		{"the first line of the second kind is the one reported, once, however many lines of each kind come before and after",
			"User-agent: *\nDisallow: /b\nDisallow: /a\nDisallow: /a\nAllow: /c\nAllow: /a\nAllow: /a\nDisallow: /a\n", []string{"6:warning:same pattern allowed and disallowed"}},
		{"each pattern is reported on its own line, also when it needed escaping",
			"User-agent: *\nAllow: /a\nAllow: /ü\nDisallow: /%C3%BC\nDisallow: /a\n", []string{"4:warning:same pattern allowed and disallowed", "5:warning:same pattern allowed and disallowed"}},
		{"a partial byte order mark is skipped as Google does: the rest of its line is read, here not UTF-8 (corpus i.cdn.nrholding.net)",
			"\xef\xbf\xbd\nUser-agent: *\nDisallow: /a\n", []string{"1:warning:line is not a key and value", "1:warning:not UTF-8"}},
		{"a pattern in two groups is no conflict",
			"User-agent: a\nDisallow: /a\nUser-agent: b\nAllow: /a\nDisallow: /b\n", nil},
		{"the same pattern in different groups is fine",
			"User-agent: a\nDisallow: /a\nUser-agent: b\nAllow: /a\n", nil},
		{"SPEC §4: a named group without rules allows everything to its agents",
			"User-agent: *\nDisallow: /a\n\nUser-agent: Foo\nHost: example.com\n", []string{"4:warning:group without rules"}},
		{"a '*' group without rules is only worth a note",
			"User-agent: Foo\nDisallow: /\nUser-agent: *\n", []string{"3:info:group without rules"}},
		{"SPEC §1: a line keeps at most 16,663 bytes",
			"User-agent: *\nDisallow: /" + strings.Repeat("a", grammar.MaxLineLen) + "\n", []string{"2:warning:line too long"}},
		{"SPEC §1: whitespace may stand for the colon between two tokens",
			"User-agent: *\nDisallow /a\n", []string{"2:warning:missing colon"}},
		{"SPEC §2: a misspelt key is read anyway",
			"User-agent: *\nDissallow: /a\n", []string{"2:warning:misspelled key accepted"}},
		{"SPEC §2: keys are read by prefix",
			"User-agents: *\nDisallowed: /a\n", []string{"1:warning:misspelled key accepted", "2:warning:misspelled key accepted"}},
		{"SPEC §2: site-map is a spelling of sitemap",
			"Site-map: https://e.com/s.xml\n", []string{"1:warning:misspelled key accepted"}},
		{"SPEC §1: a NUL ends the line's content",
			"User-agent: *\nDisallow: /a\x00b\n", []string{"2:warning:NUL byte"}},
		{"SPEC §1: three tokens without a colon are not a line",
			"User-agent: *\nthis is text\nDisallow: /a\n", []string{"2:warning:line is not a key and value"}},
		{"SPEC §1: non-UTF-8 bytes are reported once, at the first line",
			"User-agent: *\nDisallow: /\xe9\nDisallow: /\xe8\n", []string{"2:warning:not UTF-8"}},
		{"a UTF-16 file cannot be read at all; its lines are not reported one by one",
			"\xff\xfeU\x00s\x00e\x00r\x00\n\x00", []string{"1:error:not UTF-8"}},
		{"a compressed or binary body cannot be read; its lines are not reported one by one",
			"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x01\x02\x03\x04\x05\x06\nUser-agent\n", []string{"1:error:not UTF-8"}},
		{"an HTML error page is not a robots.txt",
			"\n<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body>Not found: the page</body></html>\n",
			[]string{"2:error:HTML page served as robots.txt"}},
		{"a '<' in a comment is no HTML page",
			"# <b>rules</b>\nUser-agent: *\nDisallow: /a\n", nil},
		{"a sitemap must be an absolute URL",
			"Sitemap: /sitemap.xml\n", []string{"1:error:sitemap is not an absolute URL"}},
		{"a sitemap URL needs a host after the scheme",
			"Sitemap: https:///sitemap.xml\nSitemap: HTTP://e.com/s.xml\n", []string{"1:error:sitemap is not an absolute URL"}},
		{"noindex before any group is still a noindex line, reported once",
			"Noindex: /a\nUser-agent: *\nDisallow: /b\n", []string{"1:error:noindex or nofollow line"}},
		{"an invalid crawl-delay draws no note that Google ignores it: the warning says it is ignored",
			"User-agent: *\nCrawl-delay: soon\nDisallow: /a\n", []string{"2:warning:invalid or repeated crawl-delay"}},
		{"'*' closes the site as '/' does",
			"User-agent: *\nDisallow: *\n", []string{"2:warning:whole site disallowed"}},
		{"Google merges the groups for '*': an Allow in another of them opens the site",
			"User-agent: *\nDisallow: /\n\nUser-agent: *\nAllow: /public/\n", nil},
		{"an empty Allow opens nothing: Disallow: / is longer and wins",
			"User-agent: *\nDisallow: /\nAllow:\n", []string{"2:warning:whole site disallowed"}},
		{"Disallow: / for a named crawler is no finding: it closes the site to that crawler only",
			"User-agent: BadBot\nDisallow: /\n", nil},
		{"a '*' after a name is no wildcard",
			"User-agent: Googlebot*\nDisallow: /a\n", []string{"1:warning:user-agent value reduced to its product token"}},
		{"a UTF-16 file in big-endian order is read too",
			"\xfe\xff\x00U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00/\x00x\x00\n",
			[]string{"1:error:not UTF-8"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := Diagnose([]byte(tt.robots))
			if got := findings(r); !slices.Equal(got, tt.want) {
				t.Errorf("Diagnose(%.60q) findings:\n got %q\nwant %q\n(%v)", tt.robots, got, tt.want, r.Findings)
			}
		})
	}
}

func TestDiagnoseLines(t *testing.T) {
	robots := "User-agent: Foo # the bot\n" + // 1
		"\n" + // 2
		"# just a comment\n" + // 3
		"Disallow /a\n" + // 4
		"Dissallow: /b\n" + // 5
		"Allow: /c\x00d\n" + // 6
		"Sitemap: https://e.com/s.xml\n" + // 7
		"Crawl-delay: 2\n" + // 8
		"free text here\n" + // 9
		"User-agent: *\n" + // 10
		"Disallow: /\xff\n" // 11
	want := []Line{
		{Num: 1, Kind: LineUserAgent, Key: "User-agent", Value: "Foo", Group: 1, Comment: true},
		{Num: 2, Kind: LineBlank},
		{Num: 3, Kind: LineComment, Comment: true},
		{Num: 4, Kind: LineDisallow, Key: "Disallow", Value: "/a", Group: 1, NoColon: true},
		{Num: 5, Kind: LineDisallow, Key: "Dissallow", Value: "/b", Group: 1, Typo: true},
		{Num: 6, Kind: LineAllow, Key: "Allow", Value: "/c", Group: 1, NUL: true},
		{Num: 7, Kind: LineSitemap, Key: "Sitemap", Value: "https://e.com/s.xml"},
		{Num: 8, Kind: LineOther, Key: "Crawl-delay", Value: "2", Group: 1},
		{Num: 9, Kind: LineInvalid},
		{Num: 10, Kind: LineUserAgent, Key: "User-agent", Value: "*", Group: 2},
		{Num: 11, Kind: LineDisallow, Key: "Disallow", Value: "/\xff", Group: 2, NonUTF8: true},
	}
	r := Diagnose([]byte(robots))
	// Text is pinned by TestLineText.
	if diff := cmp.Diff(want, r.Lines, cmpopts.IgnoreFields(Line{}, "Text")); diff != "" {
		t.Errorf("Diagnose().Lines mismatch (-want +got):\n%s", diff)
	}
	wantCounts := Counts{Lines: 11, Blank: 1, Comments: 1, Invalid: 1, UserAgents: 2, Groups: 2,
		Allow: 1, Disallow: 3, Others: 1, Sitemaps: 1}
	if diff := cmp.Diff(wantCounts, r.Counts); diff != "" {
		t.Errorf("Diagnose().Counts mismatch (-want +got):\n%s", diff)
	}
}

func TestDiagnoseTruncatedAndPastLimit(t *testing.T) {
	// 600 lines of 1000 bytes: byte 512,000 falls on line 513, which starts
	// at 512 × 1000 = 512,000.
	line := "Disallow: /" + strings.Repeat("x", 1000-len("Disallow: /")-1) + "\n"
	robots := "User-agent: *\n" + strings.Repeat(line, 600)
	r := Diagnose([]byte(robots))
	var got []string
	for _, e := range r.Findings {
		got = append(got, e.Render("robots.txt"))
	}
	// The first line is 14 bytes, so line n ≥ 2 starts at 14 + (n-2)×1000
	// and byte 512,000 lies in line 513 at offset 512000-14-511000 = 986.
	want := []string{"robots.txt:513: warning: the file is 600014 bytes: Google's crawler reads only the first 512000 (500 KiB) and ignores the rest, from byte 987 of this line on"}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	if r.Lines[511].PastLimit || !r.Lines[512].PastLimit || !r.Lines[600].PastLimit {
		t.Errorf("PastLimit of lines 512, 513, 601 = %v, %v, %v; want false, true, true",
			r.Lines[511].PastLimit, r.Lines[512].PastLimit, r.Lines[600].PastLimit)
	}

	// Exactly 512,000 bytes, ending with a line break: nothing is lost.
	exact := "User-agent: *\n" + strings.Repeat(line, 511) + "Disallow: /" + strings.Repeat("y", 1000-14-len("Disallow: /")-1) + "\n"
	if r := Diagnose([]byte(exact)); len(exact) != grammar.MaxBodySize || len(r.Findings) != 0 || r.Lines[len(r.Lines)-1].PastLimit {
		t.Errorf("a file of %d bytes: findings %v, last line past the limit: %v; want %d bytes, none, false",
			len(exact), r.Findings, r.Lines[len(r.Lines)-1].PastLimit, grammar.MaxBodySize)
	}

	long := "User-agent: *\nDisallow: /" + strings.Repeat("a", 20000) + "\n"
	r = Diagnose([]byte(long))
	if l := r.Lines[1]; !l.Truncated || len(l.Key)+len(": ")+len(l.Value) != grammar.MaxLineLen {
		t.Errorf("long line: Truncated=%v, key and value %d bytes; want true, %d", l.Truncated, len(l.Key)+2+len(l.Value), grammar.MaxLineLen)
	}
}

func TestDiagnoseMessages(t *testing.T) {
	tests := []struct {
		reason string
		robots string
		want   string // the first finding, rendered for "robots.txt"
	}{
		{"a close unknown key gets a suggestion",
			"User-agent: *\nCrawl_delay: 5\nDisallow: /\n", `robots.txt:2: warning: unknown key "Crawl_delay" is ignored; did you mean "crawl-delay"?`},
		{"a far unknown key gets none",
			"User-agent: *\nX-Frobnicate: 5\nDisallow: /\n", `robots.txt:2: warning: unknown key "X-Frobnicate" is ignored`},
		{"a full URL as pattern suggests its path",
			"User-agent: *\nDisallow: https://e.com/x/\n", `robots.txt:2: error: pattern "https://e.com/x/" can never match: a pattern starts with '/' or '*'; did you mean "/x/"?`},
		{"a relative pattern suggests a leading slash",
			"User-agent: *\nDisallow: x/\n", `robots.txt:2: error: pattern "x/" can never match: a pattern starts with '/' or '*'; did you mean "/x/"?`},
		{"a typo says how it was read",
			"User-agent: *\nDisalow: /x\n", `robots.txt:2: warning: key "Disalow" read as disallow: write "disallow", as other crawlers may not accept it`},
		{"an empty named group lists its agents",
			"User-agent: A\nUser-agent: B\n", `robots.txt:1: warning: group for "A", "B" has no allow or disallow rules: these crawlers may fetch everything, and the rules for "*" do not apply to them`},
		{"an invalid token names its first character",
			"User-agent: \xffbot\nDisallow: /\n", `robots.txt:1: error: user-agent "\xffbot" names no crawler: a product token is made of letters, '-' and '_', and this one starts with "\xff", so the group applies to no crawler`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := Diagnose([]byte(tt.robots))
			if len(r.Findings) == 0 {
				t.Fatalf("no findings, want %q", tt.want)
			}
			if got := r.Findings[0].Render("robots.txt"); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestErrorList(t *testing.T) {
	var empty ErrorList
	if err := empty.Err(); err != nil {
		t.Errorf("empty ErrorList.Err() = %v, want nil", err)
	}
	r := Diagnose([]byte("Disallow: /a\nUser-agent: *\nDisallow: b\nDisallow /c\n"))
	if len(r.Findings) != 3 {
		t.Fatalf("findings = %v, want 3", r.Findings)
	}
	want := "robotstxt: line 1: error: disallow rule before any user-agent line belongs to no group and is ignored (and 2 more errors)"
	if got := r.Findings.Error(); got != want {
		t.Errorf("ErrorList.Error() = %q, want %q", got, want)
	}
	err := r.Err()
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("Report.Err() = %v, want the 2 errors", err)
	}
	var e *Error
	if !errors.As(list[1], &e) || e.Line != 3 || !errors.Is(e, ErrNeverMatches) {
		t.Errorf("second error = %v, want line 3 and ErrNeverMatches", list[1])
	}
	if Diagnose([]byte("User-agent: *\nDisallow /c\n")).Err() != nil {
		t.Errorf("Report.Err() of a file with only warnings is not nil")
	}
}

func TestHostLike(t *testing.T) {
	tests := []struct {
		s      string
		want   bool
		reason string
	}{
		{"www.example.com", true, "the usual host"},
		{"example.co.uk", true, "more labels"},
		{"example.com:8080", true, "with a port"},
		{"index.html", false, "a file, not a host"},
		{"search.php", false, "a script"},
		{"drafts", false, "one label"},
		{"10.0.0.1", false, "the last label is digits: an address, or a version"},
		{"a..b", false, "an empty label"},
		{"example.com:", false, "an empty port"},
		{"exa_mple.com", false, "'_' is no host character"},
	}
	for _, tt := range tests {
		if got := hostLike(tt.s); got != tt.want {
			t.Errorf("hostLike(%q) = %v, want %v (%s)", tt.s, got, tt.want, tt.reason)
		}
	}
}

func TestLeadingInvisible(t *testing.T) {
	tests := []struct {
		v      string
		n      int
		reason string
	}{
		{"\xa0/x", 1, "a Latin-1 non-breaking space byte"},
		{"\u00a0\u00a0/x", 4, "two UTF-8 non-breaking spaces"},
		{"\ufeff/x", 3, "a byte order mark inside the line"},
		{"\u200b/x", 3, "a zero-width space"},
		{"\u3000/x", 3, "an ideographic space"},
		{"/x", 0, "nothing to delete"},
		{"\xe9/x", 0, "another Latin-1 byte is no space"},
	}
	for _, tt := range tests {
		if n, what := leadingInvisible(tt.v); n != tt.n || (n > 0) != (what != "") {
			t.Errorf("leadingInvisible(%q) = %d, %q; want %d (%s)", tt.v, n, what, tt.n, tt.reason)
		}
	}
}

func TestNearestKey(t *testing.T) {
	tests := []struct{ key, want, reason string }{
		{"crawldelay", "crawl-delay", "a missing dash"},
		{"User_Agent", "user-agent", "case does not count"},
		{"hots", "", "two edits are too many for a four-letter key"},
		{"hst", "host", "one edit is fine"},
		{"Clean-params", "clean-param", "one extra letter"},
		{strings.Repeat("a", 100), "", "long keys get no suggestion"},
	}
	for _, tt := range tests {
		if got := nearestKey(tt.key); got != tt.want {
			t.Errorf("nearestKey(%q) = %q, want %q (%s)", tt.key, got, tt.want, tt.reason)
		}
	}
}

// TestDiagnoseInvariants checks on odd inputs what must hold for every
// input: one Line per line, numbered in order, findings in line order on
// existing lines, and every finding formats with a known cause.
func TestDiagnoseInvariants(t *testing.T) {
	inputs := []string{"", "\n", "\r\n\r", "\xef\xbb", "\xef\xbb\xbfUser-agent: *", ":", "a:b:c", "#", "\x00", "\xff\xfe", "<", strings.Repeat("*", 20000)}
	if dir, err := os.ReadDir(sharedPath(t, filepath.Join("corpus", "synthetic"))); err == nil {
		for _, f := range dir {
			b, err := os.ReadFile(filepath.Join(sharedDir, "corpus", "synthetic", f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(b))
		}
	}
	causes := []error{ErrNeverMatches, ErrNoGroup, ErrAgentReduced, ErrAgentInvalid, ErrUnknownKey, ErrDollar,
		ErrCrawlDelay, ErrEncoding, ErrTooLarge, ErrHTML, ErrAllowDisallow, ErrEmptyGroup, ErrLineTooLong,
		ErrNoColon, ErrTypo, ErrNUL, ErrIgnoredLine, ErrSitemap, ErrNoindex, ErrGoogleIgnores, ErrSiteClosed, ErrRawByte}
	for _, in := range inputs {
		r := Diagnose([]byte(in))
		if r.Counts.Lines != len(r.Lines) || (len(r.Lines) == 0) != (in == "") {
			t.Errorf("Diagnose(%.40q): Counts.Lines = %d, %d Lines", in, r.Counts.Lines, len(r.Lines))
		}
		for i, l := range r.Lines {
			if l.Num != i+1 {
				t.Errorf("Diagnose(%.40q): Lines[%d].Num = %d", in, i, l.Num)
				break
			}
		}
		for i, e := range r.Findings {
			if e.Line < 1 || e.Line > len(r.Lines) || (i > 0 && e.Line < r.Findings[i-1].Line) {
				t.Errorf("Diagnose(%.40q): finding %d on line %d of %d, out of order or range", in, i, e.Line, len(r.Lines))
			}
			if !slices.ContainsFunc(causes, func(c error) bool { return errors.Is(e, c) }) || e.Msg == "" ||
				strings.ToLower(e.Msg[:1]) != e.Msg[:1] {
				t.Errorf("Diagnose(%.40q): finding %v has an unknown cause or a bad message", in, e)
			}
		}
	}
}

// TestDiagnoseAgreesWithParse checks, over the real corpus, that the rules,
// groups, other lines and sitemaps that Diagnose counts are those that Parse
// keeps, and that the lines it marks as rules of a group are exactly the
// lines of the rules that the groups answer with.
func TestDiagnoseAgreesWithParse(t *testing.T) {
	dir := needShared(t, filepath.Join("corpus", "real"))
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var nRules, nFiles int
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		r, rep := robotstxt.Parse(data), Diagnose(data)
		nFiles++
		// The file the observed pass built is the file Parse builds.
		want, _ := r.MarshalBinary()
		got, _ := rep.Robots.MarshalBinary()
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the parse Diagnose watched built another file than Parse", f.Name())
			continue
		}
		if n := len(r.Sitemaps()); rep.Counts.Sitemaps != n {
			t.Errorf("%s: Diagnose counts %d sitemaps, Parse kept %d", f.Name(), rep.Counts.Sitemaps, n)
		}
		nRules += rep.Counts.Allow + rep.Counts.Disallow

		// Through the public API: every group is reached by one of its
		// agents or by "*".
		rules := map[int]bool{} // line → allow
		others := map[int]bool{}
		agents := []string{"*"}
		for _, l := range rep.Lines {
			// "360Spider" names the empty token, which Group("") finds.
			if v := []byte(l.Value); l.Kind == LineUserAgent && !grammar.IsGlobalAgent(v) {
				agents = append(agents, string(grammar.AgentToken(v)))
			}
		}
		for _, a := range agents {
			g := r.Group(a)
			for _, ru := range g.Rules() {
				rules[ru.Line] = ru.Allow
			}
			for _, o := range g.Others() {
				others[o.Line] = true
			}
		}
		never := map[int]bool{}
		for _, e := range rep.Findings {
			if errors.Is(e, ErrNeverMatches) {
				never[e.Line] = true
			}
		}
		wantRules, wantOthers := map[int]bool{}, map[int]bool{}
		for _, l := range rep.Lines {
			switch {
			case l.Group == 0, never[l.Num]:
			case l.Kind == LineAllow || l.Kind == LineDisallow:
				wantRules[l.Num] = l.Kind == LineAllow
			case l.Kind == LineOther:
				wantOthers[l.Num] = true
			}
		}
		if !maps.Equal(rules, wantRules) || !maps.Equal(others, wantOthers) {
			t.Errorf("%s: the groups' rules and other lines differ from the lines Diagnose placed in groups", f.Name())
		}
	}
	t.Logf("%d files, %d rules agree", nFiles, nRules)
}

func TestDiagnoseLineCount(t *testing.T) {
	tests := []struct {
		robots string
		want   int
		reason string
	}{
		{"", 0, "a 0-byte file shows no line in an editor; lint says 0 lines"},
		{"\n", 1, "one break: one empty line"},
		{"a", 1, "text after the last break is a line"},
		{"a\n", 1, "no empty line after a final break, as editors show it"},
		{"a\n\n", 2, "a blank line before the final break counts"},
		{"a\r\n", 1, "CR LF is one break"},
		{"a\n\r", 2, "SPEC §1: LF CR is two breaks"},
		{"\xef\xbb\xbf\n", 1, "a BOM is not a line"},
	}
	for _, tt := range tests {
		if got := Diagnose([]byte(tt.robots)).Counts.Lines; got != tt.want {
			t.Errorf("Diagnose(%q): %d lines, want %d (%s)", tt.robots, got, tt.want, tt.reason)
		}
	}
}

// TestDiagnoseLintFiles runs Diagnose on the files of testdata/lint, one a
// mistake that webmasters make, and checks the findings and the message that
// explains the mistake.
func TestDiagnoseLintFiles(t *testing.T) {
	tests := []struct {
		file   string
		reason string
		want   []string // finding() of each finding, in order
		msg    string   // a part of the message of the finding on line msgAt
		msgAt  int
	}{
		{"noindex.txt", "Google stopped reading noindex and nofollow lines in 2019",
			[]string{"4:error:noindex or nofollow line", "5:error:noindex or nofollow line"},
			"noindex lines in robots.txt are read by no major search engine (Google stopped on 1 September 2019)", 4},
		{"crawl-delay.txt", "Google ignores crawl-delay; the note is made once, not per group",
			[]string{"2:info:line Google ignores"},
			"crawl-delay is ignored by Google; Bing, Yandex and other crawlers read it", 2},
		{"site-closed.txt", `"User-agent: *" with "Disallow: /" closes the site to every crawler`,
			[]string{"3:warning:whole site disallowed"},
			`"Disallow: /" in the group for "*" closes the whole site to every crawler: search engines will crawl none of its pages`, 3},
		{"site-closed-named.txt", `"Disallow: /*" is "Disallow: /"; the crawlers named elsewhere keep their own rules`,
			[]string{"8:warning:whole site disallowed"},
			`closes the whole site to every crawler that no other group names: only "Googlebot", "Bingbot" have rules of their own`, 8},
		{"site-open-allow.txt", "an Allow rule opens part of the site: not the whole site closed",
			nil, "", 0},
		{"agent-digits.txt", "Google reads an agent up to the first digit: a group for MJ12bot is a group for MJ",
			[]string{"1:warning:user-agent value reduced to its product token", "4:warning:user-agent value reduced to its product token",
				"7:error:user-agent value names no product token", "10:warning:user-agent value reduced to its product token"},
			`user-agent "MJ12bot" is read as "MJ": Google reads the name up to the first character that is not a letter, '-' or '_' (here "1"), so this group is for a crawler called "MJ", and a crawler called "MJ12bot" is not matched by it`, 1},
		{"sitemap-relative.txt", "relative and empty sitemaps are errors: search engines need an absolute URL",
			[]string{"4:error:sitemap is not an absolute URL", "5:error:sitemap is not an absolute URL", "6:error:sitemap is not an absolute URL"},
			`such as "https://www.example.com/sitemap-news.xml"`, 6},
		{"nbsp.txt", "a pattern that starts with a non-breaking space: the fix is to delete it (www.wsop.com)",
			[]string{"2:error:pattern can never match", "2:warning:not UTF-8", "3:error:pattern can never match"},
			`it starts with a non-breaking space byte (0xA0, from a Latin-1 editor), which crawlers do not take for a space; delete it: "/_Incapsula_Resource*"`, 2},
		{"host-pattern.txt", "a pattern that starts with a host suggests its path (atlassian.com)",
			[]string{"2:error:pattern can never match", "3:error:pattern can never match", "4:error:pattern can never match",
				"5:error:pattern can never match", "6:error:pattern can never match"},
			`a pattern is a path and holds no host ("www.example.com"); did you mean "/blog/2006/02/draft$"?`, 2},
		{"utf16.txt", "a UTF-16 file says what it would hold as UTF-8 (store.usps.com)",
			[]string{"1:error:not UTF-8"},
			`saved as UTF-8 it would hold 1 group and 2 rules, the first on line 3: "Disallow: /store/ajax/"`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "lint", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Diagnose(data)
			if got := findings(r); !slices.Equal(got, tt.want) {
				t.Errorf("findings (%s):\n got %q\nwant %q\n(%v)", tt.reason, got, tt.want, r.Findings)
			}
			if tt.msg == "" {
				return
			}
			for _, e := range r.Findings {
				if e.Line == tt.msgAt && strings.Contains(e.Msg, tt.msg) {
					return
				}
			}
			t.Errorf("no finding on line %d says %q (%s); findings:\n%v", tt.msgAt, tt.msg, tt.reason, r.Findings)
		})
	}
}

// TestLineText: the Text of the lines, rejoined with the breaks that ended
// them, is the file after its byte order mark (or the prefix of one the
// lexer skips); no empty line follows a final break, an empty file has no
// line.
func TestLineText(t *testing.T) {
	inputs := []string{"", "a", "a\n", "a\n\n", "a\r\nb", "a\n\rb", "\r\r\n\n", "\xef\xbb\xbfa\nb", "\xef\xbbx", "x\x00y\nz", "\xef\xbb\xbf"}
	if names, err := filepath.Glob(filepath.Join(sharedPath(t, filepath.Join("corpus", "real")), "*")); err == nil {
		for _, n := range names[:min(len(names), 300)] {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		rep := Diagnose([]byte(in))
		rest := in[bomPrefix([]byte(in)):]
		for i, l := range rep.Lines {
			if !strings.HasPrefix(rest, l.Text) {
				t.Fatalf("%.40q: line %d's text %.40q is not what follows", in, l.Num, l.Text)
			}
			rest = rest[len(l.Text):]
			switch {
			case strings.HasPrefix(rest, "\r\n"):
				rest = rest[2:]
			case strings.HasPrefix(rest, "\r"), strings.HasPrefix(rest, "\n"):
				rest = rest[1:]
			case i != len(rep.Lines)-1:
				t.Fatalf("%.40q: line %d is not ended by a break", in, l.Num)
			}
		}
		if rest != "" {
			t.Errorf("%.40q: %q left after the last line", in, rest)
		}
	}
}
