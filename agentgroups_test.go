package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// These tests hold the agent records and their group lists against the slow
// reference on files where tokens repeat many times, within one group and
// across groups, empty tokens among them: the shapes that sorting and
// de-duplicating the names of one token must keep in file order.

// agentValues are User-agent values: tokens that repeat, the empty token
// (from an empty value, a value that starts with a non-token byte, or a
// digit), '*' and values that reduce to a shorter token.
var agentValues = []string{"", "a", "A", "b", "ab", "*", "1", "/x", "a/1.0", "a b", "B", "*a"}

// agentKeys are spellings of the User-agent key.
var agentKeys = []string{"User-agent: ", "user-agent:", "Useragent:", "useragent: ", "User agent: "}

// groupRules are the rule lines a group may get.
var groupRules = []string{"Disallow: /", "Allow: /", "Disallow: /a", "Allow: /a$", "Disallow:", "Allow: .", "Disallow: *b", "Allow: /index.html"}

// askedAgents are the agents every file is asked about.
var askedAgents = []string{"", "a", "A", "b", "ab", "B", "c", "*"}

// askedURLs are the URLs every file is asked about.
var askedURLs = []string{"/", "/a", "/ab", "http://example.com/", "/b", "/index.html"}

// randAgentFile returns a file of up to 20 groups, each with 0–40
// User-agent lines and 0–3 rules; a group without rules merges with the
// next one's User-agent lines, as in Google's parser. With many groups
// naming one token, lists get merged copies (see mergeMin).
func randAgentFile(rng *rand.Rand) []byte {
	var b strings.Builder
	for range 1 + rng.IntN(20) {
		for range rng.IntN(41) {
			b.WriteString(agentKeys[rng.IntN(len(agentKeys))])
			b.WriteString(agentValues[rng.IntN(len(agentValues))])
			b.WriteByte('\n')
		}
		for range rng.IntN(4) {
			b.WriteString(groupRules[rng.IntN(len(groupRules))])
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// checkAgents asks every asked agent every asked URL of body, and compares
// with the slow reference.
func checkAgents(t *testing.T, body []byte) {
	t.Helper()
	r, slow := Parse(body), slowParse(body)
	checkFile(t, body, r, slow)
	for _, agent := range askedAgents {
		for _, url := range askedURLs {
			checkDecide(t, body, r, slow, agent, url)
		}
	}
}

// TestAgentGroupsAgreeWithSlow compares every agent's answers with the slow
// reference on pseudo-random files with many repeated agent lines.
func TestAgentGroupsAgreeWithSlow(t *testing.T) {
	n := 2000
	if !longTests() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(9309, 10))
	for range n {
		checkAgents(t, randAgentFile(rng))
	}
}

// FuzzAgentGroups builds a file from the fuzzer's bytes: each byte is a
// User-agent line (its value picked by the byte) or, for every fourth
// value, a rule line. It then compares every asked agent with the slow
// reference.
func FuzzAgentGroups(f *testing.F) {
	f.Add([]byte{0, 4, 8, 12, 3, 16, 20})
	f.Add([]byte("\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x04\x00"))
	rng := rand.New(rand.NewPCG(9309, 11))
	for range 8 {
		seed := make([]byte, rng.IntN(64))
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 512 {
			return
		}
		var b strings.Builder
		for _, c := range prog {
			if c&3 == 3 {
				b.WriteString(groupRules[int(c>>2)%len(groupRules)])
			} else {
				b.WriteString(agentKeys[int(c)%len(agentKeys)])
				b.WriteString(agentValues[int(c>>2)%len(agentValues)])
			}
			b.WriteByte('\n')
		}
		checkAgents(t, []byte(b.String()))
	})
}

// TestGroupFor checks questions asked for several agents at once, as
// Google's parser takes a list of them.
func TestGroupFor(t *testing.T) {
	const body = "User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\nAllow: /a\nUser-agent: *\nDisallow: /\nUser-agent: a\nUser-agent: b\nDisallow: /ab\n"
	r := Parse([]byte(body))
	tests := []struct {
		reason string
		agents []string
		url    string
		want   bool
		line   int
	}{
		{"§4 the groups of every named agent are merged", []string{"a", "b"}, "/b", false, 4},
		{"§4 ... longest match across them: Allow /a beats Disallow /a on a tie", []string{"a", "b"}, "/a", true, 5},
		{"§4 ... a group naming both counts once", []string{"A", "B"}, "/abc", false, 10},
		{"§4 an agent the file does not name adds nothing", []string{"a", "x"}, "/b", true, 0},
		{"§4 no agent named: the groups for '*'", []string{"x", "y"}, "/b", false, 7},
		{"§4 no agents at all: the groups for '*'", nil, "/b", false, 7},
		{"§4 agents compared as given", []string{"a/1.0", "b"}, "/a", true, 5},
	}
	for _, tt := range tests {
		d := r.GroupFor(tt.agents).Decide(tt.url)
		if d.Allowed != tt.want || d.Line != tt.line {
			t.Errorf("%s: GroupFor(%q).Decide(%q) = %v line %d, want %v line %d", tt.reason, tt.agents, tt.url, d.Allowed, d.Line, tt.want, tt.line)
		}
		if got := r.GroupFor(tt.agents).Allowed(tt.url); got != d.Allowed {
			t.Errorf("%s: GroupFor().Allowed = %v, Decide says %v", tt.reason, got, d.Allowed)
		}
	}
	for _, tt := range []struct {
		agent string
		want  bool
	}{{"a", true}, {"B", true}, {"c", false}, {"*", false}, {"", false}} {
		if got := r.NamesAgent(tt.agent); got != tt.want {
			t.Errorf("NamesAgent(%q) = %v, want %v", tt.agent, got, tt.want)
		}
	}
	if got := (*Robots)(nil).GroupFor([]string{"a"}).Allowed("/"); !got {
		t.Errorf("nil Robots: GroupFor().Allowed = false")
	}
	if n := testing.AllocsPerRun(100, func() { boolSink = r.GroupFor([]string{"x", "a"}).Allowed("/a") }); n != 0 {
		t.Errorf("GroupFor().Allowed with one named agent: %v allocations, want 0", n)
	}
}

// TestGroupForAgreesWithSlow compares GroupFor's Decide, Rules and Others of pairs
// and triples of agents with the slow reference on files with repeated
// agent lines.
func TestGroupForAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 14))
	for range 500 {
		body := randAgentFile(rng)
		r, slow := Parse(body), slowParse(body)
		for range 4 {
			agents := make([]string, 1+rng.IntN(3))
			for i := range agents {
				agents[i] = askedAgents[rng.IntN(len(askedAgents))]
			}
			groups := slow.selectedAny(agents)
			rules := slow.rulesOf(groups)
			for _, url := range askedURLs {
				if got, want := r.GroupFor(agents).Decide(url), slow.decideRules(rules, url); got != want {
					t.Fatalf("%q: GroupFor(%q).Decide(%q) = %+v, slow reference says %+v", body, agents, url, got, want)
				}
			}
			var want []Rule
			for _, sr := range rules {
				want = append(want, Rule{Line: sr.line, Allow: sr.allow, Pattern: sr.pattern, Text: sr.text})
			}
			if got := r.GroupFor(agents).Rules(); !slices.Equal(got, want) {
				t.Fatalf("%q: GroupFor(%q).Rules() = %+v, slow reference says %+v", body, agents, got, want)
			}
		}
	}
}

// TestMergedGroups checks that an agent named in many groups is answered
// from one merged copy of their rules, as if it were asked group by group.
func TestMergedGroups(t *testing.T) {
	var b strings.Builder
	for i := range 2 * mergeMin {
		star := ""
		if i%2 == 0 {
			star = "User-agent: *\n"
		}
		fmt.Fprintf(&b, "User-agent: a\n%sDisallow: /d%d/\nAllow: /d%d/x$\nCrawl-delay: %d\n", star, i, i, i+1)
	}
	body := []byte(b.String())
	r, slow := parse(body), slowParse(body)
	copies := 0
	for g := range r.compiled().numGroups() {
		if r.compiled().isCopy(g) {
			copies++
		}
	}
	if copies != 2 { // one for "a", one for "*"
		t.Errorf("%d merged copies, want 2", copies)
	}
	for _, agent := range []string{"a", "b"} {
		if g := r.Group(agent); g.merged == 0 {
			t.Errorf("Group(%q) has no merged copy", agent)
		}
		if d, ok := r.CrawlDelay(agent); !ok || d != time.Second {
			t.Errorf("CrawlDelay(%q) = %v %v, want the first group's 1s", agent, d, ok)
		}
		for _, u := range []string{"/d3/", "/d3/x", "/d15/x", "/e", "/d7/xy"} {
			checkDecide(t, body, r, slow, agent, u)
		}
	}
}

// TestMergedListsShareACopy checks that equal lists share one merged copy.
func TestMergedListsShareACopy(t *testing.T) {
	r := parse([]byte(strings.Repeat("User-agent: a\nUser-agent: b\nDisallow: /x\n", mergeMin)))
	copies := 0
	for g := range r.compiled().numGroups() {
		if r.compiled().isCopy(g) {
			copies++
		}
	}
	if ga, gb := r.Group("a"), r.Group("b"); copies != 1 || ga.merged == 0 || ga.merged != gb.merged {
		t.Errorf("%d copies, a's %d, b's %d: want one, shared", copies, ga.merged, gb.merged)
	}
}

// TestAgentKeyBoundsAgreeWithSlow compares with the slow reference files
// whose tokens lie about the bounds of a name's sort key (see nameKey):
// six bytes of head, lengths up to 63. The tokens share long beginnings
// and differ in case, so that keys tie and only the bytes past the head,
// or the length past 63, tell them apart; each is named by several groups.
// Each is asked as written and as agents that nearly name it: in upper
// case, with a byte no token has, a byte shorter or longer.
func TestAgentKeyBoundsAgreeWithSlow(t *testing.T) {
	n := 400
	if !longTests() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(29, 63))
	for range n {
		var pool []string
		for range 1 + rng.IntN(8) {
			size := []int{5, 6, 7, 8, 62, 63, 64, 70}[rng.IntN(8)]
			tok := []byte(strings.Repeat("a", size))
			for range rng.IntN(3) {
				tok[rng.IntN(size)] = "zZ-_A"[rng.IntN(5)]
			}
			pool = append(pool, string(tok))
		}
		var b strings.Builder
		for g := range 1 + rng.IntN(12) {
			for range 1 + rng.IntN(3) {
				fmt.Fprintf(&b, "User-agent: %s\n", pool[rng.IntN(len(pool))])
			}
			fmt.Fprintf(&b, "Disallow: /%d\n", g)
		}
		body := []byte(b.String())
		r, slow := Parse(body), slowParse(body)
		// The tokens, and agents that nearly name them.
		var asked []string
		for _, tok := range pool {
			last := tok[:len(tok)-1]
			asked = append(asked, tok, strings.ToUpper(tok), last+"1", last+"\xc1", last, tok+"a", tok+"/1.0")
		}
		for _, agent := range asked {
			for g := range 12 {
				checkDecide(t, body, r, slow, agent, fmt.Sprintf("/%d", g))
			}
		}
	}
}
