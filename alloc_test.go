package robotstxt

import (
	"strings"
	"testing"
)

// TestAllowedNoAllocs checks that answering a question allocates nothing,
// whatever the shape of the agent and the URL: a crawler asks millions.
// The files are compiled first (NoGroup compiles a file whose parse Parse
// deferred, see lazy.go); TestFirstQuestionNoAllocs holds the first
// question of a file not yet compiled.
func TestAllowedNoAllocs(t *testing.T) {
	compiled := func(name string) *Robots {
		r := Parse(readTestdata(t, name))
		r.NoGroup()
		return r
	}
	files := []struct {
		name string
		r    *Robots
	}{
		{"small.txt", compiled("small.txt")},
		{"agents.txt", compiled("agents.txt")},
		{"allow-all", FromStatus(404, nil)},
		{"disallow-all", FromStatus(503, nil)},
		{"nil", nil},
	}
	long := "https://shop.example.com/products/" + strings.Repeat("abc/", 2000) + "?q=" + strings.Repeat("x", 1000)
	tests := []struct {
		agent, url string
		reason     string
	}{
		{"Googlebot", "https://shop.example.com/checkout/step-2", "absolute URL, named group"},
		{"Googlebot", "/checkout/step-2", "bare path"},
		{"UnknownBot", "https://shop.example.com?sessionid=1", "query and no path: the '/' in front is virtual"},
		{"UnknownBot", "https://shop.example.com;type=a", "params and no path: the '/' in front is virtual"},
		{"Googlebot", "https://shop.example.com", "no path at all"},
		{"Googlebot", "https://shop.example.com/search#frag?sort=1", "fragment"},
		{"Googlebot", "", "empty URL"},
		{"UnknownBot", "https://shop.example.com/data/feed.json", "unknown agent, answered by '*'"},
		{"gOOGLEBOT", "https://shop.example.com/cart", "agent in another case"},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", "https://shop.example.com/cart", "agent with odd characters"},
		{"", "https://shop.example.com/cart", "empty agent"},
		{"Bot\x00\xff日本", "https://shop.example.com/cart", "agent with NUL and non-UTF-8 bytes"},
		{"Googlebot", long, "long URL"},
		{"UnknownBot", "https://shop.example.com/p/x?color=red&sessionid=42", "decided by a wildcard"},
		{"UnknownBot", "https://shop.example.com/caf%C3%A9/%e3%82", "%-escapes in the URL"},
	}
	for _, f := range files {
		for _, tt := range tests {
			check := func(what string, fn func()) {
				t.Helper()
				if n := testing.AllocsPerRun(1000, fn); n != 0 {
					t.Errorf("%s: %s(%q, %q) allocs = %v; want 0 (%s)", f.name, what, tt.agent, tt.url, n, tt.reason)
				}
			}
			check("Allowed", func() { boolSink = f.r.Allowed(tt.agent, tt.url) })
			check("Decide", func() { decisionSink = f.r.Decide(tt.agent, tt.url) })
			check("Group.Allowed", func() { boolSink = f.r.Group(tt.agent).Allowed(tt.url) })
		}
	}
}
