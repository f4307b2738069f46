package crawlers

import (
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

func TestGroup(t *testing.T) {
	const global = "User-agent: *\nDisallow: /\n"
	const named = global + "\nUser-agent: AdsBot-Google\nDisallow: /cart/\n"
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
	}
	for _, tt := range tests {
		g, note := Group(tt.robots, tt.agent)
		d := g.Decide(tt.url)
		if d.Allowed != tt.allowed || d.Line != tt.line || (note != "") != tt.note {
			t.Errorf("Group(%s) for %s: allowed %v line %d note %q; want %v, %d, note %v (%s)",
				tt.agent, tt.url, d.Allowed, d.Line, note, tt.allowed, tt.line, tt.note, tt.why)
		}
		if note != "" && !strings.Contains(note, googleSpecial) {
			t.Errorf("note %q does not name its source", note)
		}
	}
}

// TestGroupParser checks that, for every crawler of the table that does not
// ignore "*", Group is exactly the parser's answer.
func TestGroupParser(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n"))
	for _, c := range All() {
		g, note := Group(r, c.Token)
		for _, u := range []string{"/a", "/b", "/c"} {
			if !c.IgnoresGlobal && (g.Decide(u) != r.Decide(c.Token, u) || note != "") {
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
