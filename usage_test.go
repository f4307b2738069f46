package robotstxt

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// want is shorthand for a Content-Usage answer in the tables below: one
// Stated per category, in the order train-ai, ai-use, search.
type wantPrefs [NumCategories]Stated

var (
	y   = func(line int) Stated { return Stated{PrefYes, line} }
	n   = func(line int) Stated { return Stated{PrefNo, line} }
	unk = Stated{}
	nc  = Stated{Pref: PrefNotCrawlable}
)

// TestContentUsage pins the Content-Usage answers, row by row, on the
// sections of draft-ietf-aipref-attach-05 ("attach") and
// draft-ietf-aipref-vocab-08 ("vocab") that say them.
func TestContentUsage(t *testing.T) {
	const example = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n"
	tests := []struct {
		reason     string
		body       string
		agent, url string
		want       wantPrefs
		line       int // UsageLine
	}{
		// attach §3.4, its example and table 1.
		{"attach §3.4: /test gets the site-wide train-ai=n", example, "Other", "/test", wantPrefs{n(4), unk, unk}, 4},
		{"attach §3.4: /never/test may not be crawled: no preference", example, "Other", "/never/test", wantPrefs{nc, nc, nc}, 0},
		{"attach §3.4: /ai-ok/test gets the longer path's train-ai=y", example, "Other", "/ai-ok/test", wantPrefs{y(5), unk, unk}, 5},
		{"attach §3.4: ExampleBot uses its own group", example, "ExampleBot", "/never/test", wantPrefs{y(9), unk, unk}, 9},

		// Grammar: attach §3 (ABNF) and §3.2.
		{"attach §3.2: a value without a leading '/' has no path and applies everywhere",
			"User-agent: *\nContent-Usage: train-ai=n, search=y\n", "x", "/a/b", wantPrefs{n(2), unk, y(2)}, 2},
		{"attach §3.2: the path ends at the first SP", "User-agent: *\nContent-Usage: /a train-ai=n\n", "x", "/ab", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3.2: the path ends at the first HTAB", "User-agent: *\nContent-Usage: /a\ttrain-ai=n\n", "x", "/a", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3 ABNF: 1*WS between path and preference, more than one", "User-agent: *\nContent-Usage: /a \t  ai-use=y\n", "x", "/a", wantPrefs{unk, y(2), unk}, 2},
		{"attach §3.2: whitespace around the label and the colon is ignored", "User-agent: *\n  Content-Usage  :  /a  train-ai=n\n", "x", "/a", wantPrefs{n(2), unk, unk}, 2},
		{"RFC 9309 §2.2: the key is case-insensitive", "User-agent: *\nCONTENT-USAGE: train-ai=n\n", "x", "/", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3.2: a '#' ends the value (comment)", "User-agent: *\nContent-Usage: train-ai=n # search=n\n", "x", "/", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3.2: a comment may make the path the whole value", "User-agent: *\nContent-Usage: /a#x train-ai=n\n", "x", "/a", wantPrefs{unk, unk, unk}, 2},
		{"vocab §6.5: a path alone states nothing but still matches", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a\n", "x", "/a", wantPrefs{unk, unk, unk}, 3},

		// Path scoping: attach §3.1.
		{"attach §3.1: longest match wins, as for Allow and Disallow", "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/b train-ai=n\n", "x", "/a/bc", wantPrefs{n(3), unk, unk}, 3},
		{"attach §3.1: the longest match is the whole statement (shorter lines do not fill in)",
			"User-agent: *\nContent-Usage: /a/ train-ai=n, search=y\nContent-Usage: /a/b ai-use=n\n", "x", "/a/b", wantPrefs{unk, n(3), unk}, 3},
		{"attach §3.1: wildcards match as in Allow and Disallow", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "x", "/x/y.pdf", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3.1: '$' anchors", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "x", "/x/y.pdf?z", wantPrefs{}, 0},
		{"attach §3.1: the same percent-encoding rules as Allow and Disallow", "User-agent: *\nContent-Usage: /caf\xc3\xa9 train-ai=n\n", "x", "/caf%C3%A9", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3.1: lower-case escapes are normalised", "User-agent: *\nContent-Usage: /a%2f train-ai=n\n", "x", "/a%2F", wantPrefs{n(2), unk, unk}, 2},
		{"attach §3.1: no line matches: nothing stated", "User-agent: *\nContent-Usage: /a train-ai=n\n", "x", "/b", wantPrefs{}, 0},
		{"attach §3.1: a path given as '/' ties with no path", "User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: train-ai=n\n", "x", "/b", wantPrefs{n(3), unk, unk}, 2},
		{"attach §3.1: the URL's query takes part in matching", "User-agent: *\nContent-Usage: /a?q train-ai=n\n", "x", "http://h/a?q=1", wantPrefs{n(2), unk, unk}, 2},

		// Disallowed paths: attach §3.1.
		{"attach §3.1: a disallowed URL has no preference", "User-agent: *\nDisallow: /\nContent-Usage: train-ai=y\n", "x", "/a", wantPrefs{nc, nc, nc}, 0},
		{"attach §3.1: an Allow that wins over a Disallow lets preferences apply", "User-agent: *\nDisallow: /\nAllow: /ok\nContent-Usage: train-ai=y\n", "x", "/ok", wantPrefs{y(4), unk, unk}, 4},
		{"attach §3.1: rule order carries no meaning", "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n", "x", "/", wantPrefs{n(2), unk, unk}, 2},

		// Conflicts: attach §3.1, vocab §5.1.
		{"vocab §5.1: identical paths: n wins over y", "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n", "x", "/a", wantPrefs{n(3), unk, unk}, 2},
		{"vocab §5.1: identical paths combine category by category", "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a search=n\n", "x", "/a", wantPrefs{y(2), unk, n(3)}, 2},
		{"vocab §5.1: two y: the first line states it", "User-agent: *\nContent-Usage: /a ai-use=y\nContent-Usage: /a ai-use=y\n", "x", "/a", wantPrefs{unk, y(2), unk}, 2},
		{"vocab §5.1: an unknown does not override a stated y", "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=maybe\n", "x", "/a", wantPrefs{y(2), unk, unk}, 2},

		// Unknown keys and values: vocab §6.4, §6.5.
		{"vocab §6.4: unknown keys are ignored", "User-agent: *\nContent-Usage: foo=n, train-ai=n, bar\n", "x", "/", wantPrefs{n(2), unk, unk}, 2},
		{"vocab §6.4: parameters are ignored", "User-agent: *\nContent-Usage: train-ai=n;x=1;y, search=y;q\n", "x", "/", wantPrefs{n(2), unk, y(2)}, 2},
		{"vocab §6.5: a value other than the Tokens y and n states nothing", "User-agent: *\nContent-Usage: train-ai=yes, ai-use=\"n\", search=?1\n", "x", "/", wantPrefs{}, 2},
		{"vocab §6.5: a key without a value is Boolean true and states nothing", "User-agent: *\nContent-Usage: train-ai\n", "x", "/", wantPrefs{}, 2},
		{"vocab §6.5: an Inner List states nothing", "User-agent: *\nContent-Usage: train-ai=(n), search=n\n", "x", "/", wantPrefs{unk, unk, n(2)}, 2},
		{"vocab §6.5.1: the last value of a repeated key counts", "User-agent: *\nContent-Usage: train-ai=n, train-ai=y\n", "x", "/", wantPrefs{y(2), unk, unk}, 2},
		{"vocab §6.5.1: a repeated key's last value may state nothing", "User-agent: *\nContent-Usage: train-ai=y, train-ai, search=n, search=\"n\"\n", "x", "/", wantPrefs{}, 2},
		{"vocab §6.5.2: parameters of an earlier member do not count", "User-agent: *\nContent-Usage: train-ai;allow=n, train-ai=y\n", "x", "/", wantPrefs{y(2), unk, unk}, 2},

		// Parse failures: vocab §6.5.1, RFC 9651 §4.2.
		{"vocab §6.5.1: a value that does not parse states nothing", "User-agent: *\nContent-Usage: train-ai=n,, search=y\n", "x", "/", wantPrefs{}, 2},
		{"RFC 9651 §4.2.2: a trailing comma fails the parse", "User-agent: *\nContent-Usage: train-ai=n,\n", "x", "/", wantPrefs{}, 2},
		{"RFC 9651 §4.2.5: an unterminated String fails the parse", "User-agent: *\nContent-Usage: train-ai=n, x=\"a\n", "x", "/", wantPrefs{}, 2},
		{"RFC 9651 §4.2.10: a Display String of bad UTF-8 fails the parse", "User-agent: *\nContent-Usage: train-ai=n, x=%\"%ff\"\n", "x", "/", wantPrefs{}, 2},
		{"RFC 9651 §4.2.10: a good Display String parses", "User-agent: *\nContent-Usage: train-ai=n, x=%\"caf%c3%a9\"\n", "x", "/", wantPrefs{n(2), unk, unk}, 2},
		{"RFC 9651 §4.2.4: numbers, bytes, dates and booleans parse", "User-agent: *\nContent-Usage: a=-1.5, b=:AQ==:, c=@1, d=?0, train-ai=n\n", "x", "/", wantPrefs{n(2), unk, unk}, 2},
		{"RFC 9651 §4.2.4: a Decimal with four fraction digits fails", "User-agent: *\nContent-Usage: a=1.2345, train-ai=n\n", "x", "/", wantPrefs{}, 2},
		{"a failed parse still shadows shorter lines (it is the longest match)", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a train-ai=n;\n", "x", "/a", wantPrefs{}, 3},

		// Case: vocab §6.1, §6.5.1.
		{"vocab §6.5.1: upper-case keys fail the parse", "User-agent: *\nContent-Usage: Train-AI=n\n", "x", "/", wantPrefs{}, 2},
		{"vocab §6.2: the values are case-sensitive Tokens", "User-agent: *\nContent-Usage: train-ai=N, search=Y\n", "x", "/", wantPrefs{}, 2},

		// Groups: RFC 9309 §2.2.1, Google's merging, and the '*' fallback.
		{"RFC 9309 §2.2.1: an agent without a group of its own uses '*'", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nUser-agent: b\nAllow: /\n", "a", "/", wantPrefs{n(3), unk, unk}, 3},
		{"RFC 9309 §2.2.1: an agent with a group of its own does not inherit '*'", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nUser-agent: b\nAllow: /\n", "b", "/", wantPrefs{}, 0},
		{"Google: several groups for one agent are merged, their lines too", "User-agent: b\nContent-Usage: /a train-ai=y\nAllow: /\nUser-agent: c\nAllow: /\nUser-agent: b\nContent-Usage: /a search=n\n", "b", "/a", wantPrefs{y(2), unk, n(7)}, 2},
		{"Google: merged groups' identical paths combine (vocab §5.1)", "User-agent: b\nContent-Usage: train-ai=y\nDisallow: /x\nUser-agent: b\nContent-Usage: train-ai=n\n", "B", "/", wantPrefs{n(5), unk, unk}, 2},
		{"an unknown line does not end a run of User-agent lines (Google, RFC 9309 §2.2.4)",
			"User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n", "b", "/", wantPrefs{n(2), unk, unk}, 2},
		{"several groups, each its own lines", "User-agent: a\nContent-Usage: train-ai=n\nAllow: /\nUser-agent: b\nContent-Usage: train-ai=y\nAllow: /\n", "a", "/", wantPrefs{n(2), unk, unk}, 2},
		{"a Content-Usage line before the first group belongs to no group", "Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n", "a", "/", wantPrefs{}, 0},
		{"lines with many groups: those of the selected ones only", "User-agent: a\nContent-Usage: /p train-ai=n\nUser-agent: c\nDisallow: /q\nUser-agent: *\nContent-Usage: /p train-ai=y\nDisallow: /q\n", "a", "/p", wantPrefs{n(2), unk, unk}, 2},
	}
	for _, tt := range tests {
		r := Parse([]byte(tt.body))
		u := r.Usage(tt.agent, tt.url)
		if diff := cmp.Diff(tt.want, wantPrefs(u.ContentUsage)); diff != "" || u.UsageLine != tt.line {
			t.Errorf("%s\nUsage(%q, %q) on\n%s\nContentUsage (-want +got):\n%s\nUsageLine = %d, want %d", tt.reason, tt.agent, tt.url, tt.body, diff, u.UsageLine, tt.line)
		}
		// The slow reference agrees on every row.
		if got := slowParse([]byte(tt.body)).usage([]string{tt.agent}, tt.url); !cmp.Equal(u, got) {
			t.Errorf("%s: the slow reference says %+v, Usage %+v", tt.reason, got, u)
		}
	}
}

// TestContentSignal pins the Content-Signal answers on Cloudflare's
// Content Signals Policy ("policy") and the choices of usage.go.
func TestContentSignal(t *testing.T) {
	const cf = "# As a condition of accessing this website...\nUser-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"
	type sig = [NumSignals]Stated
	tests := []struct {
		reason     string
		body       string
		agent, url string
		want       sig
		line       int
	}{
		{"policy: the managed default; ai-input left out states nothing", cf, "x", "/a", sig{y(3), unk, n(3)}, 3},
		{"policy: all three", "User-Agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\n", "x", "/", sig{y(2), y(2), n(2)}, 2},
		{"policy writes lower case; keys and values are compared ignoring case", "User-Agent: *\nContent-signal: Search=YES,AI-Train=No\n", "x", "/", sig{y(2), unk, n(2)}, 2},
		{"an entry that is not key=value states nothing; the others count", "User-Agent: *\nContent-Signal: search, ai-train=no,,\n", "x", "/", sig{unk, unk, n(2)}, 2},
		{"a value other than yes or no states nothing", "User-Agent: *\nContent-Signal: search=y, ai-train=maybe\n", "x", "/", sig{}, 2},
		{"the last entry for a signal counts", "User-Agent: *\nContent-Signal: search=no, search=yes\n", "x", "/", sig{y(2), unk, unk}, 2},
		{"unknown signals are ignored", "User-Agent: *\nContent-Signal: foo=no, ai-input=no\n", "x", "/", sig{unk, n(2), unk}, 2},
		{"a disallowed URL has no preference (attach §3.1 applied alike)", "User-Agent: *\nDisallow: /p\nContent-Signal: search=yes\n", "x", "/p", sig{nc, nc, nc}, 0},
		{"a leading path scopes a signal as Content-Usage", "User-Agent: *\nContent-Signal: ai-train=no\nContent-Signal: /open/ ai-train=yes\n", "x", "/open/x", sig{unk, unk, y(3)}, 3},
		{"before the first group: applies to every crawler", "Content-Signal: ai-train=no\nUser-Agent: a\nDisallow: /x\n", "b", "/", sig{unk, unk, n(1)}, 1},
		{"before the first group: a group's own lines win", "Content-Signal: ai-train=no\nUser-Agent: a\nContent-Signal: ai-train=yes\n", "a", "/", sig{unk, unk, y(3)}, 3},
		{"before the first group: a group whose lines do not match the URL falls back", "Content-Signal: ai-train=no\nUser-Agent: a\nContent-Signal: /x ai-train=yes\n", "a", "/y", sig{unk, unk, n(1)}, 1},
		{"identical paths combine: no wins", "User-Agent: *\nContent-Signal: search=yes\nContent-Signal: search=no\n", "x", "/", sig{n(3), unk, unk}, 2},
		{"a comment ends the value", "User-Agent: *\nContent-Signal: search=yes # ai-train=no\n", "x", "/", sig{y(2), unk, unk}, 2},
	}
	for _, tt := range tests {
		r := Parse([]byte(tt.body))
		u := r.Usage(tt.agent, tt.url)
		if diff := cmp.Diff(tt.want, sig(u.ContentSignal)); diff != "" || u.SignalLine != tt.line {
			t.Errorf("%s\nUsage(%q, %q) on\n%s\nContentSignal (-want +got):\n%s\nSignalLine = %d, want %d", tt.reason, tt.agent, tt.url, tt.body, diff, u.SignalLine, tt.line)
		}
		if got := slowParse([]byte(tt.body)).usage([]string{tt.agent}, tt.url); !cmp.Equal(u, got) {
			t.Errorf("%s: the slow reference says %+v, Usage %+v", tt.reason, got, u)
		}
	}
}

// TestUsageCombined pins the helper that merges the two vocabularies
// (vocab-08 §5.1 applied across them).
func TestUsageCombined(t *testing.T) {
	tests := []struct {
		reason string
		body   string
		url    string
		c      Category
		want   Pref
	}{
		{"ai-train=no and no Content-Usage: n", "User-agent: *\nContent-Signal: ai-train=no\n", "/", TrainAI, PrefNo},
		{"train-ai=y and ai-train=no: n wins", "User-agent: *\nContent-Usage: train-ai=y\nContent-Signal: ai-train=no\n", "/", TrainAI, PrefNo},
		{"train-ai=y and ai-train=yes: y", "User-agent: *\nContent-Usage: train-ai=y\nContent-Signal: ai-train=yes\n", "/", TrainAI, PrefYes},
		{"ai-input maps onto ai-use", "User-agent: *\nContent-Signal: ai-input=no\n", "/", AIUse, PrefNo},
		{"search onto search", "User-agent: *\nContent-Usage: search=y\n", "/", Search, PrefYes},
		{"neither: unknown", "User-agent: *\nAllow: /\n", "/", TrainAI, PrefUnknown},
		{"disallowed: not crawlable", "User-agent: *\nDisallow: /\nContent-Usage: train-ai=y\n", "/", TrainAI, PrefNotCrawlable},
		{"a category out of range: unknown", "User-agent: *\nContent-Usage: train-ai=n\n", "/", NumCategories, PrefUnknown},
	}
	for _, tt := range tests {
		if got := Parse([]byte(tt.body)).Usage("x", tt.url).Combined(tt.c); got != tt.want {
			t.Errorf("%s: Combined(%v) = %v, want %v", tt.reason, tt.c, got, tt.want)
		}
	}
}

// TestUsageKinds: files that are not parsed answer too: an unreachable
// file disallows everything, so no preference applies; a missing one
// states nothing; a nil Robots is a missing one.
func TestUsageKinds(t *testing.T) {
	all := func(p Pref) wantPrefs { return wantPrefs{{Pref: p}, {Pref: p}, {Pref: p}} }
	for _, tt := range []struct {
		reason string
		r      *Robots
		want   wantPrefs
	}{
		{"5xx: disallow all (RFC 9309 §2.3.1.4)", FromStatus(503, nil), all(PrefNotCrawlable)},
		{"4xx: allow all, nothing stated (RFC 9309 §2.3.1.3)", FromStatus(404, nil), all(PrefUnknown)},
		{"nil Robots", nil, all(PrefUnknown)},
		{"empty file", Parse(nil), all(PrefUnknown)},
	} {
		if got := wantPrefs(tt.r.Usage("a", "/x").ContentUsage); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// TestUsageGroupFor: the several-agents form merges the groups of every named
// agent, as GroupFor does.
func TestUsageGroupFor(t *testing.T) {
	body := []byte("User-agent: a\nContent-Usage: train-ai=y\nAllow: /\nUser-agent: b\nContent-Usage: search=n\nAllow: /\nUser-agent: *\nContent-Usage: ai-use=n\n")
	r := Parse(body)
	for _, tt := range []struct {
		agents []string
		want   wantPrefs
	}{
		{[]string{"a", "b"}, wantPrefs{y(2), unk, n(5)}},
		{[]string{"a", "zzz"}, wantPrefs{y(2), unk, unk}},
		{[]string{"zzz"}, wantPrefs{unk, n(8), unk}},
		{nil, wantPrefs{unk, n(8), unk}},
	} {
		u := r.GroupFor(tt.agents).Usage("/p")
		if got := wantPrefs(u.ContentUsage); got != tt.want {
			t.Errorf("GroupFor(%q).Usage = %v, want %v", tt.agents, got, tt.want)
		}
		if slow := slowParse(body).usage(tt.agents, "/p"); !cmp.Equal(u, slow) {
			t.Errorf("GroupFor(%q).Usage = %+v, slow reference %+v", tt.agents, u, slow)
		}
	}
}

// TestUsageAllocs: the answers allocate nothing (a crawler asks for every
// URL), on a file with both lines in several groups.
func TestUsageAllocs(t *testing.T) {
	r := Parse(usageBenchBody(readTestdata(t, "small.txt")))
	g := r.Group("Googlebot")
	agents := []string{"Googlebot", "Unknown"}
	for _, url := range []string{"https://shop.example.com/products/x", "https://shop.example.com/checkout/", "/"} {
		if n := testing.AllocsPerRun(100, func() { usageSink = r.Usage("Googlebot", url) }); n != 0 {
			t.Errorf("Usage(%q) allocates %v times", url, n)
		}
		if n := testing.AllocsPerRun(100, func() { usageSink = g.Usage(url) }); n != 0 {
			t.Errorf("Group.Usage(%q) allocates %v times", url, n)
		}
		if n := testing.AllocsPerRun(100, func() { usageSink = r.GroupFor(agents).Usage(url) }); n != 0 {
			t.Errorf("GroupFor(%q).Usage allocates %v times", url, n)
		}
	}
}

// TestUsageLeavesAllowAlone: adding Content-Usage and Content-Signal lines
// anywhere in a file moves no Allow or Disallow answer, nor the line that
// decides it, while the slow reference answers usage as Usage does.
func TestUsageLeavesAllowAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2026))
	agents := []string{"a", "A", "b", "c", "", "*", "a/1.0", "ab"}
	files := 300
	if longTests() {
		files = 5000
	}
	for range files {
		plain := randRobots(rng)
		body := withUsageLines(rng, plain)
		r, without, slow := Parse(body), Parse(withoutUsage(body)), slowParse(body)
		for range 6 {
			agent := agents[rng.IntN(len(agents))]
			url := randURL(rng)
			if rng.IntN(2) == 0 {
				url = "/" + randString(rng, "ab/?$*", 6)
			}
			if got, want := r.Decide(agent, url), without.Decide(agent, url); got != want {
				t.Fatalf("Decide(%q, %q) = %+v with the usage lines, %+v without, on\n%q", agent, url, got, want, body)
			}
			checkDecide(t, body, r, slow, agent, url)
			if slow.cost(agent, url) > slowBudget {
				continue
			}
			got, want := r.Usage(agent, url), slow.usage([]string{agent}, url)
			if !cmp.Equal(got, want) {
				t.Fatalf("Usage(%q, %q) on\n%q\n= %+v\nslow reference: %+v", agent, url, body, got, want)
			}
			both := []string{agent, agents[rng.IntN(len(agents))]}
			if got, want := r.GroupFor(both).Usage(url), slow.usage(both, url); !cmp.Equal(got, want) {
				t.Fatalf("UsageFor(%q, %q) on\n%q\n= %+v\nslow reference: %+v", both, url, body, got, want)
			}
		}
	}
}

// usageValues are values for random Content-Usage and Content-Signal lines:
// good, bad and in between.
var usageValues = []string{
	"train-ai=n", "train-ai=y, search=n", "ai-use=y", "search=y;p=1", "train-ai=n,", "Train-AI=n", "train-ai", "x=(a b), ai-use=n",
	"train-ai=y, train-ai=n", "train-ai=\"n\"", "search=yes, ai-train=no", "ai-input=no", "AI-Train=Yes", "search", "a=1.5, ai-use=n",
	"", "train-ai=n search=y", "%\"%c3\"", "x=%\"ok\", search=n", "=n", "train-ai=n ,  search=y",
	"search=yes,ai-train=no,use=reference", "use=full", "USE=Immediate", "use=reference, use=bogus", "use=all", "use=full, use=immediate",
}

// TestContentUse pins the content-use level of Content-Signal's use key
// (Cloudflare, 2026-07-01; contentsignals.org) and the choices of
// usage.go: read like the signals, least reuse wins on one path.
func TestContentUse(t *testing.T) {
	tests := []struct {
		reason string
		body   string
		agent  string
		url    string
		want   Use
		line   int
	}{
		{"Cloudflare's managed robots.txt since 2026-07-01", "User-Agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", "x", "/a", UseReference, 2},
		{"no use key: unstated", "User-Agent: *\nContent-Signal: search=yes\n", "x", "/", UseUnstated, 0},
		{"keys and values compared ignoring case, as the signals", "User-Agent: *\nContent-Signal: USE=Immediate\n", "x", "/", UseImmediate, 2},
		{"a value other than the three states nothing", "User-Agent: *\nContent-Signal: use=all\n", "x", "/", UseUnstated, 0},
		{"the last use entry counts, as for a signal", "User-Agent: *\nContent-Signal: use=full, use=bogus\n", "x", "/", UseUnstated, 0},
		{"one path, two lines: the least reuse wins", "User-Agent: *\nContent-Signal: use=full\nContent-Signal: use=reference\n", "x", "/", UseReference, 3},
		{"a longer path decides, as for the signals", "User-Agent: *\nContent-Signal: use=immediate\nContent-Signal: /docs/ use=full\n", "x", "/docs/a", UseFull, 3},
		{"before the first group: for crawlers without their own line", "Content-Signal: use=immediate\nUser-Agent: a\nDisallow: /x\n", "b", "/", UseImmediate, 1},
		{"a disallowed URL: nothing applies (attach-05 §3.1, as the signals)", "User-Agent: *\nDisallow: /p\nContent-Signal: use=full\n", "x", "/p", UseUnstated, 0},
	}
	for _, tt := range tests {
		r := Parse([]byte(tt.body))
		u := r.Usage(tt.agent, tt.url)
		if u.ContentUse != tt.want || u.UseLine != tt.line {
			t.Errorf("%s\nUsage(%q, %q).ContentUse = %v line %d, want %v line %d", tt.reason, tt.agent, tt.url, u.ContentUse, u.UseLine, tt.want, tt.line)
		}
		if got := slowParse([]byte(tt.body)).usage([]string{tt.agent}, tt.url); !cmp.Equal(u, got) {
			t.Errorf("%s: the slow reference says %+v, Usage %+v", tt.reason, got, u)
		}
		data, _ := r.MarshalBinary()
		var back Robots
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if got := back.Usage(tt.agent, tt.url); !cmp.Equal(got, u) {
			t.Errorf("%s: after a binary round trip %+v, want %+v", tt.reason, got, u)
		}
	}
}

// withUsageLines inserts Content-Usage and Content-Signal lines at random
// places of body, with or without a path.
func withUsageLines(rng *rand.Rand, body []byte) []byte {
	lines := bytes.SplitAfter(body, []byte("\n"))
	for range 1 + rng.IntN(5) {
		key := []string{"Content-Usage: ", "content-usage:", "CONTENT-USAGE ", "Content-Signal: ", "content-signal:"}[rng.IntN(5)]
		value := usageValues[rng.IntN(len(usageValues))]
		if rng.IntN(2) == 0 {
			value = randPattern(rng) + []string{" ", "\t", "  "}[rng.IntN(3)] + value
		}
		line := []byte(key + value + "\n")
		at := rng.IntN(len(lines) + 1)
		lines = append(lines[:at], append([][]byte{line}, lines[at:]...)...)
	}
	return bytes.Join(lines, nil)
}

// withoutUsage replaces every Content-Usage and Content-Signal line by an
// empty one, keeping the line numbers.
func withoutUsage(body []byte) []byte {
	lines := bytes.SplitAfter(body, []byte("\n"))
	for i, l := range lines {
		if k := strings.ToLower(strings.TrimSpace(string(l))); strings.HasPrefix(k, "content-usage") || strings.HasPrefix(k, "content-signal") {
			lines[i] = []byte("\n")
		}
	}
	return bytes.Join(lines, nil)
}

// FuzzUsage holds Usage against the slow reference and the Allow and
// Disallow answers against the same file without the usage lines, on
// files whose bodies and usage values the fuzzer chooses.
func FuzzUsage(f *testing.F) {
	for _, v := range usageValues {
		f.Add([]byte("User-agent: *\nAllow: /\n"), v, "/a", "a")
	}
	f.Add([]byte("User-Agent: *\nAllow: /\nDisallow: /never/\n"), "/ai-ok/ train-ai=y", "/ai-ok/test", "ExampleBot")
	f.Fuzz(func(t *testing.T, body []byte, value, url, agent string) {
		if len(body) > 4<<10 || len(value) > 1<<10 || len(url) > 256 {
			return
		}
		value = strings.NewReplacer("\n", " ", "\r", " ").Replace(value)
		for _, key := range []string{"Content-Usage: ", "Content-Signal: "} {
			full := append(append([]byte(key+value+"\n"), body...), "\n"+key+value+"\n"...)
			r, slow := Parse(full), slowParse(full)
			without := Parse(withoutUsage(full))
			for _, a := range []string{agent, "*", "a"} {
				if got, want := r.Decide(a, url), without.Decide(a, url); got != want {
					t.Fatalf("Decide(%q, %q) = %+v with the usage lines, %+v without", a, url, got, want)
				}
				if slow.cost(a, url) > slowBudget {
					continue
				}
				if got, want := r.Usage(a, url), slow.usage([]string{a}, url); !cmp.Equal(got, want) {
					t.Fatalf("Usage(%q, %q) on %q\n= %+v\nslow reference: %+v", a, url, full, got, want)
				}
			}
			// The binary form keeps the answers.
			data, _ := r.MarshalBinary()
			var back Robots
			if err := back.UnmarshalBinary(data); err != nil {
				t.Fatalf("UnmarshalBinary: %v", err)
			}
			if got, want := back.Usage(agent, url), r.Usage(agent, url); !cmp.Equal(got, want) {
				t.Fatalf("after a round trip Usage = %+v, want %+v", got, want)
			}
		}
	})
}

// TestUsageBinary: the usage records survive MarshalBinary and
// UnmarshalBinary, and damaged ones are refused.
func TestUsageBinary(t *testing.T) {
	body := []byte("Content-Signal: search=yes\nUser-agent: a\nContent-Usage: /p train-ai=n\nAllow: /\nUser-agent: *\nContent-Usage: ai-use=y\n")
	r := parse(body)
	data, _ := r.MarshalBinary()
	var back Robots
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"a", "b"} {
		if got, want := back.Usage(agent, "/p"), r.Usage(agent, "/p"); !cmp.Equal(got, want) {
			t.Errorf("Usage(%q) after a round trip = %+v, want %+v", agent, got, want)
		}
	}
	base, n := r.compiled().numUsage()
	if n != 3 {
		t.Fatalf("%d usage records, want 3", n)
	}
	at := binaryHeader + int(r.compiled().wordsAt) + 4*int(base)
	for _, tt := range []struct {
		reason string
		word   int // of the first record
		value  uint32
	}{
		{"pattern out of range", 0, ruleOffMask},
		{"a group that does not exist", 2, 77},
		{"an invalid preference", 3, 3 << usageLenBits},
		{"a preference beyond the categories", 3, 1 << (usageLenBits + 2*NumCategories)},
	} {
		bad := bytes.Clone(data)
		putLE32(bad[at+4*tt.word:], tt.value)
		reseal(bad)
		if err := new(Robots).UnmarshalBinary(bad); err == nil {
			t.Errorf("%s: loaded", tt.reason)
		}
	}
}

func putLE32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

var usageSink Usage

// usageBenchBody returns body with Content-Usage and Content-Signal lines
// added to every group, as a site that states preferences for every
// crawler would: one site-wide line of each and two with paths.
func usageBenchBody(body []byte) []byte {
	var b bytes.Buffer
	b.WriteString("Content-Signal: search=yes, ai-train=no\n")
	for _, line := range bytes.SplitAfter(body, []byte("\n")) {
		b.Write(line)
		if bytes.HasPrefix(bytes.ToLower(line), []byte("user-agent")) {
			b.WriteString("Content-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\nContent-Usage: /*.pdf$ ai-use=n\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n")
		}
	}
	return b.Bytes()
}

// TestConformanceWithUsage runs the conformance sweep (conformance_test.go)
// on every body with a Content-Usage or Content-Signal line before each of
// its lines: the answers must be the reference's, on the line that is now
// twice as far down, in both layouts. An unknown line does not end a run of
// User-agent lines (Google's parser; RFC 9309 §2.2.4), so no group changes.
//
// A plain go test asks every question of edge.tsv and those of every tenth
// file of corpus.tsv, as Parse lays files out; ROBOTSTXT_LONG=1 asks them all, in
// both layouts.
func TestConformanceWithUsage(t *testing.T) {
	step, layouts := 10, []int{indexMin}
	if longTests() {
		step, layouts = 1, []int{indexMin, 1}
	}
	extra := []string{"Content-Usage: train-ai=n", "Content-Signal: search=yes, ai-train=no", "Content-Usage: /a/ train-ai=y, search=n", "content-usage: bad=(", "CONTENT-SIGNAL: ai-input=no"}
	for _, name := range []string{"edge.tsv", "corpus.tsv"} {
		path := needShared(t, "conformance/"+name)
		cases := readConformance(t, path)
		every := step
		if name == "edge.tsv" {
			every = 1
		}
		for _, indexMin := range layouts {
			parsed := map[string]*Robots{}
			bad, asked := 0, 0
			chosen := map[string]bool{}
			for _, c := range cases {
				take, seen := chosen[c.parseKey()]
				if !seen {
					take = len(chosen)%every == 0
					chosen[c.parseKey()] = take
				}
				if !take {
					continue
				}
				asked++
				r, found := parsed[c.parseKey()]
				if !found {
					var b bytes.Buffer
					for i, line := range slowSplitLines(c.robots) {
						b.WriteString(extra[i%len(extra)] + "\n" + line + "\n")
					}
					r = parseWith(b.Bytes(), indexMin)
					parsed[c.parseKey()] = r
				}
				d := r.Decide(c.agent, c.url)
				if d.Allowed != c.allowed || d.Line != 2*c.line {
					if bad++; bad < 10 {
						t.Errorf("%s:%d %s agent=%q url=%q: got allowed=%v line=%d, want allowed=%v line=%d", name, c.lineNo, c.file, c.agent, c.url, d.Allowed, d.Line, c.allowed, 2*c.line)
					}
				}
			}
			t.Logf("%s (indexMin %d): %d/%d answers moved", name, indexMin, bad, asked)
		}
	}
}
