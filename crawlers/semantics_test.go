package crawlers

import (
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

func TestGroup(t *testing.T) {
	const global = "User-agent: *\nDisallow: /\n"
	const named = global + "\nUser-agent: AdsBot-Google\nDisallow: /cart/\n"
	const googlebotX = "User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n" // the case of #32
	tests := []struct {
		robots  *robotstxt.Robots
		agent   string
		url     string
		allowed bool
		line    int
		note    bool
		why     string
	}{
		{robotstxt.Parse([]byte(global)), "AdsBot-Google", "/x", true, 0, true,
			"AdsBot-Google ignores the * group: with no group naming it, it may fetch everything (table.go: IgnoresGlobal)"},
		{robotstxt.Parse([]byte(global)), "adsbot-google-mobile", "/x", true, 0, true,
			"the same for AdsBot-Google-Mobile, its token compared without case"},
		{robotstxt.Parse([]byte(named)), "AdsBot-Google", "/cart/1", false, 5, false,
			"a group that names it decides, as for any crawler"},
		{robotstxt.Parse([]byte(named)), "AdsBot-Google", "/x", true, 0, false,
			"the * group still does not apply to it"},
		{robotstxt.Parse([]byte(global)), "Googlebot", "/x", false, 2, false,
			"other crawlers fall back to * as the parser says"},
		{robotstxt.Parse([]byte(global)), "AdsBot", "/x", false, 2, false,
			"a prefix of the token is another crawler"},
		{robotstxt.FromStatus(503, nil), "AdsBot-Google", "/x", false, 0, false,
			"an unreachable robots.txt disallows everything for every crawler (RFC 9309 §2.3.1.4)"},
		{robotstxt.Parse([]byte(googlebotX)), "Googlebot-Image", "/y", true, 0, true,
			"Googlebot-Image obeys Googlebot's group when none names it: tokens \"Googlebot-Image, Googlebot\" (google-common-crawlers)"},
		{robotstxt.Parse([]byte(googlebotX)), "Googlebot-Image", "/x", false, 2, true,
			"and Googlebot's Disallow decides for it"},
		{robotstxt.Parse([]byte(googlebotX)), "googlebot-image", "/y", true, 0, true,
			"its token compared without case"},
		{robotstxt.Parse([]byte(googlebotX + "User-agent: Googlebot-Image\nDisallow: /i\n")), "Googlebot-Image", "/x", true, 0, false,
			"a group of its own decides, Googlebot's is not read"},
		{robotstxt.Parse([]byte(googlebotX)), "Applebot", "/x", false, 2, true,
			"Applebot follows Googlebot's rules when none name Applebot (support.apple.com/en-us/119829)"},
		{robotstxt.Parse([]byte(global)), "Applebot", "/x", false, 2, false,
			"without a Googlebot group either, * decides, as the parser says"},
		{robotstxt.Parse([]byte(googlebotX)), "Applebot-Extended", "/y", false, 5, false,
			"Applebot-Extended is a token of its own: Apple documents no fallback for it"},
		{robotstxt.Parse([]byte(googlebotX)), "Storebot-Google", "/y", false, 5, false,
			"Storebot-Google obeys only its own token"},
	}
	for _, tt := range tests {
		g, note := Group(tt.robots, tt.agent)
		d := g.Decide(tt.url)
		if d.Allowed != tt.allowed || d.Line != tt.line || (note != "") != tt.note {
			t.Errorf("Group(%s) for %s: allowed %v line %d note %q; want %v, %d, note %v (%s)",
				tt.agent, tt.url, d.Allowed, d.Line, note, tt.allowed, tt.line, tt.note, tt.why)
		}
		if c, _ := Lookup(tt.agent); note != "" && !strings.Contains(note, c.Obeys[len(c.Obeys)-1].Source) && !strings.Contains(note, googleSpecial) {
			t.Errorf("note %q does not name its source", note)
		}
	}
}

// TestGroupParser checks that, for every crawler of the table that obeys
// only its own token and does not ignore "*", Group is exactly the
// parser's answer.
func TestGroupParser(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n"))
	for _, c := range All() {
		g, note := Group(r, c.Token)
		for _, u := range []string{"/a", "/b", "/c"} {
			if !c.IgnoresGlobal && len(c.Obeys) == 1 && (g.Decide(u) != r.Decide(c.Token, u) || note != "") {
				t.Errorf("Group(%s) for %s = %+v %q, want the parser's %+v", c.Token, u, g.Decide(u), note, r.Decide(c.Token, u))
			}
		}
	}
}

func TestGroupFor(t *testing.T) {
	const global = "User-agent: *\nDisallow: /\n"
	const named = global + "\nUser-agent: AdsBot-Google-Mobile\nDisallow: /cart/\n"
	tests := []struct {
		robots  string
		agents  []string
		url     string
		allowed bool
		line    int
		note    bool
		why     string
	}{
		{global, []string{"AdsBot-Google", "AdsBot-Google-Mobile"}, "/x", true, 0, true,
			"both tokens ignore *, and no group names either (table.go: IgnoresGlobal)"},
		{named, []string{"AdsBot-Google", "AdsBot-Google-Mobile"}, "/cart/1", false, 5, false,
			"a group naming one of them decides, merged as Robots.GroupFor merges"},
		{named, []string{"AdsBot-Google", "AdsBot-Google-Mobile"}, "/x", true, 0, false,
			"and * still does not apply"},
		{global, []string{"AdsBot-Google", "Googlebot"}, "/x", false, 2, false,
			"Googlebot obeys *, so the pair falls back to it as the parser says"},
		{global, []string{"Googlebot"}, "/x", false, 2, false, "one token is Group"},
		{global, []string{"AdsBot-Google"}, "/x", true, 0, true, "one token is Group, with its note"},
	}
	for _, tt := range tests {
		g, note := GroupFor(robotstxt.Parse([]byte(tt.robots)), tt.agents)
		d := g.Decide(tt.url)
		if d.Allowed != tt.allowed || d.Line != tt.line || (note != "") != tt.note {
			t.Errorf("GroupFor(%q) for %s: allowed %v line %d note %q; want %v, %d, note %v (%s)",
				tt.agents, tt.url, d.Allowed, d.Line, note, tt.allowed, tt.line, tt.note, tt.why)
		}
	}
	if g, note := GroupFor(robotstxt.FromStatus(503, nil), []string{"AdsBot-Google", "AdsBot-Google-Mobile"}); g.Decide("/x").Allowed || note != "" {
		t.Error("an unreachable robots.txt binds AdsBot too (RFC 9309 §2.3.1.4)")
	}
}
