package robotstxt

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestGroupNumbers pins how Group.Numbers numbers the groups of a file: as
// the parser opens them (a run of User-agent lines opens one, SPEC §4,
// RFC 9309 §2.1), the numbers lint.Line.Group gives their lines.
func TestGroupNumbers(t *testing.T) {
	nine := strings.Repeat("User-agent: a\nDisallow: /x\n", 4) + "User-agent: *\nDisallow: /y\n" +
		strings.Repeat("User-agent: A\nAllow: /z\n", 5)
	tests := []struct {
		file   string
		agents []string // one agent asks Group, several GroupFor
		want   []int
		why    string
	}{
		{"User-agent: a\nDisallow: /\nUser-agent: *\nDisallow: /x\nUser-agent: A\nAllow: /\n", []string{"a"}, []int{1, 3},
			"both groups that name the agent, compared without case (SPEC §4)"},
		{"User-agent: a\nDisallow: /\nUser-agent: *\nDisallow: /x\nUser-agent: A\nAllow: /\n", []string{"b"}, []int{2},
			"no group names b: the group for \"*\" (RFC 9309 §2.2.1)"},
		{"User-agent: a\nDisallow: /\n", []string{"b"}, nil, "no group names b and none names \"*\""},
		{"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\nUser-agent: c\n", []string{"b"}, []int{1},
			"a Crawl-delay line does not end a run of User-agent lines"},
		{"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\nUser-agent: c\n", []string{"c"}, []int{2},
			"a group without rules, after the last rule, is numbered too"},
		{"User-agent: a\nDisallow: x\nUser-agent: b\nAllow: /\n", []string{"b"}, []int{2},
			"a rule that can never match still ends the group (Parse drops it, lint reports it)"},
		{"Disallow: /a\nSitemap: /s\nUser-agent: b\nAllow: /\n", []string{"b"}, []int{1},
			"lines before the first User-agent line open no group"},
		{"User-agent: a1\nUser-agent: a\nDisallow: /\nUser-agent: *\nAllow: /\n", []string{"a"}, []int{1},
			"\"a1\" names the token a: the digits end it"},
		{"User-agent: MJ12bot\nDisallow: /\nUser-agent: *\nAllow: /\n", []string{"MJ12bot"}, []int{2},
			"an agent with digits is compared as given and names no token"},
		{"User-agent: *\nUser-agent: a\nDisallow: /\nUser-agent: * x\nAllow: /\n", []string{"*"}, []int{1, 2},
			"\"*\" as an agent asks the groups for \"*\""},
		{nine, []string{"a"}, []int{1, 2, 3, 4, 6, 7, 8, 9, 10},
			"nine groups merged into one copy (mergeMin) keep their own numbers"},
		{"User-agent: a\nDisallow: /\nUser-agent: b\nDisallow: /\nUser-agent: a\nUser-agent: c\nAllow: /\n", []string{"c", "a"}, []int{1, 3},
			"GroupFor merges the groups of each agent once, in file order"},
		{"User-agent: a\nDisallow: /\nUser-agent: *\nAllow: /\n", []string{"x", "y"}, []int{2},
			"GroupFor falls back to \"*\" as Group does"},
	}
	for _, tt := range tests {
		for _, compiled := range []bool{false, true} {
			r := Parse([]byte(tt.file)) // at most lazyMax bytes: the parse is deferred
			if compiled {
				r = Parse([]byte(tt.file + strings.Repeat("#\n", lazyMax/2)))
			}
			g := r.Group(tt.agents[0])
			if len(tt.agents) > 1 {
				g = r.GroupFor(tt.agents)
			}
			if got := g.Numbers(); !slices.Equal(got, tt.want) {
				t.Errorf("%q, agents %q (compiled %v): Numbers() = %v, want %v (%s)", tt.file, tt.agents, compiled, got, tt.want, tt.why)
			}
		}
	}
	r := Parse([]byte("User-agent: *\nDisallow: /\n"))
	for name, g := range map[string]Group{"zero Group": {}, "NoGroup": r.NoGroup(), "nil Robots": (*Robots)(nil).Group("a"),
		"503": FromStatus(503, nil).Group("a"), "404": FromStatus(404, nil).Group("a")} {
		if got := g.Numbers(); got != nil {
			t.Errorf("%s: Numbers() = %v, want none", name, got)
		}
	}
}

// TestGroupNumbersAgree holds Group.Numbers, read from the compiled lists,
// to the groups the slow reference selects, on random files and agents,
// for Parse's deferred and compiled files and one decoded by
// UnmarshalBinary.
func TestGroupNumbersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	agents := []string{"a", "A", "b", "c", "", "*", "a/1.0", "ab", "b-_", "a1"}
	for k := range 2000 {
		body := randRobots(rng)
		if k%10 == 0 {
			// Some agent in mergeMin groups or more: merged copies.
			body = append(body, strings.Repeat("\nUser-agent: a\nDisallow: /m\n", mergeMin+rng.IntN(3))...)
		}
		slow, deferred, compiled := slowParse(body), Parse(body), parse(body)
		var decoded Robots
		if data, err := compiled.MarshalBinary(); err != nil || decoded.UnmarshalBinary(data) != nil {
			t.Fatalf("%q: the binary form does not round-trip: %v", clipBody(body), err)
		}
		for _, agent := range agents {
			var want []int
			for _, g := range slow.selected(agent) {
				want = append(want, slices.Index(slow.groups, g)+1)
			}
			for name, r := range map[string]*Robots{"deferred": deferred, "compiled": compiled, "decoded": &decoded} {
				if got := r.Group(agent).Numbers(); !slices.Equal(got, want) {
					t.Fatalf("%q, agent %q (%s): Numbers() = %v, the slow reference selects %v", clipBody(body), agent, name, got, want)
				}
			}
		}
	}
}
