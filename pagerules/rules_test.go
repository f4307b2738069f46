package pagerules

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The sources of the rows.
const (
	google   = "developers.google.com/search/docs/crawling-indexing/robots-meta-tag"
	blog2007 = "googleblog.blogspot.com/2007/07/robots-exclusion-protocol-now-with-even.html"
	repext   = "draft-illyes-repext-03"
	mdn      = "developer.mozilla.org/docs/Web/HTTP/Headers/X-Robots-Tag"
)

// summary writes the rules in a short form for tables: each stated rule in
// Rule order, with its value, then each unknown rule after a "?".
func summary(r *Rules) string {
	var parts []string
	for x := Rule(0); x < NumRules; x++ {
		if !r.Has(x) {
			continue
		}
		s := x.String()
		switch x {
		case MaxSnippet:
			s += ":" + itoaTest(r.maxSnippet)
		case MaxVideoPreview:
			s += ":" + itoaTest(r.maxVideo)
		case MaxImagePreview:
			s += ":" + r.image.String()
		case UnavailableAfter:
			s += ":" + r.unavailable.UTC().Format(time.RFC3339)
		}
		parts = append(parts, s)
	}
	for _, u := range r.Unknown {
		parts = append(parts, "?"+u.Origin.Text)
	}
	return strings.Join(parts, " ")
}

func itoaTest(n int) string {
	if n < 0 {
		return "-" + itoaTest(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoaTest(n/10) + string(rune('0'+n%10))
}

func header(lines ...string) http.Header {
	h := http.Header{}
	for _, l := range lines {
		k, v, _ := strings.Cut(l, ": ")
		h.Add(k, v)
	}
	return h
}

var headerTests = []struct {
	why   string
	lines []string // "Field: value"
	agent string
	want  string
}{
	{google + " X-Robots-Tag example", []string{"X-Robots-Tag: noindex"}, "Googlebot", "noindex"},
	{google + " several X-Robots-Tag headers", []string{"X-Robots-Tag: noimageindex", "X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST"}, "Googlebot",
		"noimageindex unavailable_after:2010-06-25T23:00:00Z"},
	{google + " user agent before the rules", []string{"X-Robots-Tag: googlebot: nofollow", "X-Robots-Tag: otherbot: noindex, nofollow"}, "Googlebot", "nofollow"},
	{google + " the rules after otherbot: are otherbot's", []string{"X-Robots-Tag: googlebot: nofollow", "X-Robots-Tag: otherbot: noindex, nofollow"}, "otherbot", "noindex nofollow"},
	{google + " rules for other crawlers do not apply", []string{"X-Robots-Tag: googlebot: nofollow", "X-Robots-Tag: otherbot: noindex, nofollow"}, "Bingbot", ""},
	{google + " header, user agent and values are not case sensitive", []string{"x-robots-tag: GoogleBot: NoIndex, NOFOLLOW"}, "googlebot", "noindex nofollow"},
	{google + " none is noindex, nofollow", []string{"X-Robots-Tag: none"}, "Googlebot", "noindex nofollow"},
	{google + " all states nothing", []string{"X-Robots-Tag: all"}, "Googlebot", ""},
	{google + " nosnippet", []string{"X-Robots-Tag: nosnippet"}, "Googlebot", "nosnippet"},
	{google + " indexifembedded with noindex", []string{"X-Robots-Tag: googlebot: noindex, indexifembedded"}, "Googlebot", "noindex indexifembedded"},
	{google + " max-snippet", []string{"X-Robots-Tag: max-snippet: 20"}, "Googlebot", "max-snippet:20"},
	{google + " max-snippet:0", []string{"X-Robots-Tag: max-snippet:0"}, "Googlebot", "max-snippet:0"},
	{google + " max-snippet:-1", []string{"X-Robots-Tag: max-snippet:-1"}, "Googlebot", "max-snippet:-1"},
	{google + " max-image-preview", []string{"X-Robots-Tag: max-image-preview:standard"}, "Googlebot", "max-image-preview:standard"},
	{google + " max-video-preview:-1", []string{"X-Robots-Tag: max-video-preview:-1"}, "Googlebot", "max-video-preview:-1"},
	{google + " max-video-preview:0", []string{"X-Robots-Tag: max-video-preview:0"}, "Googlebot", "max-video-preview:0"},
	{google + " notranslate", []string{"X-Robots-Tag: notranslate"}, "Googlebot", "notranslate"},
	{google + " noimageindex", []string{"X-Robots-Tag: noimageindex"}, "Googlebot", "noimageindex"},
	{google + " unavailable_after ISO 8601", []string{"X-Robots-Tag: unavailable_after: 2020-09-21"}, "Googlebot", "unavailable_after:2020-09-21T00:00:00Z"},
	{google + " combining rules", []string{"X-Robots-Tag: max-snippet:20, max-image-preview:large"}, "Googlebot", "max-snippet:20 max-image-preview:large"},
	{google + " conflicting rules: max-snippet:50 and nosnippet", []string{"X-Robots-Tag: max-snippet:50, nosnippet"}, "Googlebot", "nosnippet max-snippet:50"},
	{google + " the more restrictive limit", []string{"X-Robots-Tag: max-snippet:50", "X-Robots-Tag: max-snippet:20"}, "Googlebot", "max-snippet:20"},
	{google + " the more restrictive image preview", []string{"X-Robots-Tag: max-image-preview:large, max-image-preview:none"}, "Googlebot", "max-image-preview:none"},
	{google + " a limit beats no limit", []string{"X-Robots-Tag: max-video-preview:-1, max-video-preview:30"}, "Googlebot", "max-video-preview:30"},
	{google + " the earlier date", []string{"X-Robots-Tag: unavailable_after: 2030-01-01", "X-Robots-Tag: unavailable_after: 2020-09-21"}, "Googlebot", "unavailable_after:2020-09-21T00:00:00Z"},
	{google + " unavailable_after without a valid date is ignored", []string{"X-Robots-Tag: unavailable_after: someday"}, "Googlebot", "?unavailable_after: someday"},
	{blog2007 + " unavailable_after RFC 822", []string{"X-Robots-Tag: unavailable_after: 7 Jul 2007 16:30:00 GMT"}, "Googlebot", "unavailable_after:2007-07-07T16:30:00Z"},
	{blog2007 + " noarchive, nosnippet", []string{"X-Robots-Tag: noarchive, nosnippet"}, "Googlebot", "nosnippet noarchive"},
	{blog2007 + " two headers", []string{"X-Robots-Tag: noarchive", "X-Robots-Tag: unavailable_after: 23 Jul 2007 15:00:00 PST"}, "Googlebot", "noarchive unavailable_after:2007-07-23T23:00:00Z"},
	{blog2007 + " RFC 850 date has a comma", []string{"X-Robots-Tag: unavailable_after: Saturday, 25-Aug-07 15:00:00 EST, nofollow"}, "Googlebot", "nofollow unavailable_after:2007-08-25T20:00:00Z"},
	{mdn + " global rules before a bot name", []string{"X-Robots-Tag: noindex, googlebot: nofollow"}, "Googlebot", "noindex nofollow"},
	{mdn + " a bot name takes the rules after it", []string{"X-Robots-Tag: noindex, googlebot: nofollow"}, "Bingbot", "noindex"},
	{"unknown rules are kept", []string{"X-Robots-Tag: noodp, noindex, max-snippet: ten"}, "Googlebot", "noindex ?noodp ?max-snippet: ten"},
	{"a flag with a value is not understood", []string{"X-Robots-Tag: noindex: yes"}, "Googlebot", "?noindex: yes"},
	{"empty members are skipped", []string{"X-Robots-Tag: , noindex,,  "}, "Googlebot", "noindex"},
	{repext + " §3.1.1 example for ExampleBot", []string{"Robots-Tag: *;nosnippet, ExampleBot;noindex"}, "ExampleBot", "noindex nosnippet"},
	{repext + " §3.1.1 example for other crawlers", []string{"Robots-Tag: *;nosnippet, ExampleBot;noindex"}, "Foobot", "nosnippet"},
	{repext + " rules with values as parameters", []string{`Robots-Tag: *;max-snippet=20;unavailable_after="Sat, 25 Aug 2007 15:00:00 EST"`}, "Foobot", "max-snippet:20 unavailable_after:2007-08-25T20:00:00Z"},
	{repext + " both fields add up", []string{"X-Robots-Tag: nofollow", "Robots-Tag: *;noindex"}, "Foobot", "noindex nofollow"},
	{"agents compare ignoring ASCII case only, as robots.txt product tokens: U+017F (long s) is not s", []string{"X-Robots-Tag: \u017Fpider: noindex", "Robots-Tag: \u017Fpider;nofollow"}, "spider", "?\u017Fpider: noindex"},
	{"values compare ignoring ASCII case only: U+017F (long s) is not s", []string{"X-Robots-Tag: max-image-preview:\u017Ftandard"}, "Googlebot", "?max-image-preview:\u017Ftandard"},
	{"month names compare ignoring ASCII case only: U+017F (long s) is not s", []string{"X-Robots-Tag: unavailable_after: 25 Augu\u017Ft 2007 15:00:00 EST"}, "Googlebot", "?unavailable_after: 25 Augu\u017Ft 2007 15:00:00 EST"},
}

func TestAddHeader(t *testing.T) {
	for _, tt := range headerTests {
		if tt.why == "" {
			t.Errorf("row %q says not why it exists", tt.lines)
		}
		var r Rules
		r.AddHeader(header(tt.lines...), tt.agent)
		if got := summary(&r); got != tt.want {
			t.Errorf("%s\nAddHeader(%q, %q) = %q, want %q", tt.why, tt.lines, tt.agent, got, tt.want)
		}
	}
}

var metaTests = []struct {
	why   string
	html  string
	agent string
	want  string
}{
	{google + " robots meta tag", `<!DOCTYPE html><html><head><meta name="robots" content="noindex">(…)</head><body>(…)</body></html>`, "Googlebot", "noindex"},
	{google + " googlebot meta tag", `<meta name="googlebot" content="noindex">`, "Googlebot", "noindex"},
	{google + " a googlebot tag is not for others", `<meta name="googlebot" content="noindex">`, "Bingbot", ""},
	{google + " googlebot-news tag", `<meta name="googlebot-news" content="nosnippet">`, "Googlebot", ""},
	{google + " several crawlers, googlebot", `<meta name="googlebot" content="notranslate"><meta name="googlebot-news" content="nosnippet">`, "Googlebot", "notranslate"},
	{google + " several crawlers, googlebot-news", `<meta name="googlebot" content="notranslate"><meta name="googlebot-news" content="nosnippet">`, "googlebot-news", "nosnippet"},
	{google + " non-search crawlers", `<meta name="AdsBot-Google" content="noindex">`, "AdsBot-Google", "noindex"},
	{google + " name and content are case-insensitive", `<META NAME="ROBOTS" CONTENT="NOINDEX">`, "Googlebot", "noindex"},
	{google + " combining rules with commas", `<meta name="robots" content="max-snippet:20, max-image-preview:large">`, "Googlebot", "max-snippet:20 max-image-preview:large"},
	{google + " several tags add up", `<meta name="robots" content="nofollow"><meta name="googlebot" content="noindex">`, "Googlebot", "noindex nofollow"},
	{google + " unavailable_after", `<meta name="robots" content="unavailable_after: 2020-09-21">`, "Googlebot", "unavailable_after:2020-09-21T00:00:00Z"},
	{google + " indexifembedded", `<meta name="googlebot" content="noindex, indexifembedded">`, "Googlebot", "noindex indexifembedded"},
	{blog2007 + " unavailable_after", `<META NAME="GOOGLEBOT" CONTENT="unavailable_after: 25-Aug-2007 15:00:00 EST">`, "Googlebot", "unavailable_after:2007-08-25T20:00:00Z"},
	{repext + " §3.1.2 example", `<meta name="robots" content="noindex"><meta name="examplebot" content="nosnippet">`, "ExampleBot", "noindex nosnippet"},
	{repext + " §4 only the head", `<html><head><title>x</title></head><body><meta name="robots" content="noindex"></body>`, "Googlebot", ""},
	{repext + " §4 the body starts without a tag", `<title>x</title><p>text</p><meta name="robots" content="noindex">`, "Googlebot", ""},
	{"text in a title or script is no body", `<title>a, b</title><script>if (a<b) {}</script><meta name="robots" content="noindex">`, "Googlebot", "noindex"},
	{"a byte order mark starts no body", "\xef\xbb\xbf<meta name=robots content=noindex>", "Googlebot", "noindex"},
	{"a meta tag without content states nothing", `<meta name="robots"><meta name="robots" content="">`, "Googlebot", ""},
	{"meta names compare with the agent ignoring ASCII case only: U+212A (Kelvin sign) is not k", `<meta name="\u212Abot" content="noindex">`, "kbot", ""},
	{"no address inside content", `<meta name="robots" content="googlebot: noindex">`, "Googlebot", "?googlebot: noindex"},
}

func TestAddMeta(t *testing.T) {
	for _, tt := range metaTests {
		if tt.why == "" {
			t.Errorf("row %q says not why it exists", tt.html)
		}
		var r Rules
		if _, err := r.AddMeta(strings.NewReader(tt.html), tt.agent, 0); err != nil {
			t.Fatal(err)
		}
		if got := summary(&r); got != tt.want {
			t.Errorf("%s\nAddMeta(%q, %q) = %q, want %q", tt.why, tt.html, tt.agent, got, tt.want)
		}
	}
}

// A head that never ends is read up to the bound and no further; a page
// larger than the bound whose head ends early is read only as far as its
// head (and the tokenizer's read-ahead).
func TestAddMetaBound(t *testing.T) {
	endless := io.MultiReader(strings.NewReader(`<html><head><meta name="robots" content="nofollow">`),
		repeatReader(`<link rel="stylesheet" href="/a.css">`))
	var r Rules
	scan, err := r.AddMeta(endless, "Foobot", 64<<10)
	if err != nil || scan.Ended || scan.Read != 64<<10 || !r.Has(NoFollow) {
		t.Errorf("endless head: %+v, %v, nofollow %v; want 65536 bytes read, not ended, the nofollow before the bound seen", scan, err, r.Has(NoFollow))
	}

	big := strings.NewReader(`<html><head><meta name="robots" content="noindex"></head><body>` + strings.Repeat("<p>text</p>", 1<<20))
	r = Rules{}
	scan, err = r.AddMeta(big, "Foobot", 0)
	if err != nil || !scan.Ended || scan.Read > 4<<10 || !r.Has(NoIndex) {
		t.Errorf("big page: %+v, %v; want the head found within 4 KiB", scan, err)
	}
}

// repeatReader gives s over and over, without end.
func repeatReader(s string) io.Reader { return &repeater{s: s} }

type repeater struct {
	s string
	i int
}

func (r *repeater) Read(p []byte) (int, error) {
	for n := range p {
		p[n] = r.s[r.i%len(r.s)]
		r.i++
	}
	return len(p), nil
}

// TestMayIndexEmbedded checks what indexifembedded changes: the content of
// a noindex page may be indexed where another page embeds it, and a page
// that may be indexed may be embedded too.
func TestMayIndexEmbedded(t *testing.T) {
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		why      string
		header   string
		embedded bool
	}{
		{google + " indexifembedded with noindex: embedded content may be indexed", "noindex, indexifembedded", true},
		{google + " noindex alone: not even embedded", "noindex", false},
		{"no rule: the page may be indexed, so embedded too", "nofollow", true},
		{google + " indexifembedded alone changes nothing", "indexifembedded", true},
	} {
		var r Rules
		r.AddHeader(header("X-Robots-Tag: "+tt.header), "Googlebot")
		if got := r.MayIndexEmbedded(now); got != tt.embedded {
			t.Errorf("%s: MayIndexEmbedded after %q = %v, want %v", tt.why, tt.header, got, tt.embedded)
		}
	}
}

// TestPreviewLimits checks which rules limit which preview. Google's page
// says of max-snippet that it "does not affect image or video previews",
// and of nosnippet that it allows no text snippet and no video preview.
func TestPreviewLimits(t *testing.T) {
	for _, tt := range []struct {
		why            string
		header         string
		snippet, video int
	}{
		{"no rule: no limit on either", "noindex", -1, -1},
		{google + " nosnippet: no text snippet and no video preview", "nosnippet", 0, 0},
		{google + " max-snippet:0 is no snippet, but max-snippet does not affect video previews", "max-snippet:0", 0, -1},
		{google + " max-snippet does not affect video previews", "max-snippet:20", 20, -1},
		{google + " max-snippet:0 leaves max-video-preview its own limit", "max-snippet:0, max-video-preview:15", 0, 15},
		{google + " max-video-preview:0: a static image at most", "max-video-preview:0", -1, 0},
		{google + " nosnippet beats max-video-preview", "nosnippet, max-video-preview:15", 0, 0},
		{google + " max-video-preview does not limit the text snippet", "max-video-preview:30", -1, 30},
	} {
		var r Rules
		r.AddHeader(header("X-Robots-Tag: "+tt.header), "Googlebot")
		if s, v := r.SnippetLimit(), r.VideoPreviewLimit(); s != tt.snippet || v != tt.video {
			t.Errorf("%s\nafter %q: SnippetLimit %d, VideoPreviewLimit %d; want %d, %d", tt.why, tt.header, s, v, tt.snippet, tt.video)
		}
	}
}
