package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// agentLinesRef is how AgentLines chose the lines from the report's
// user-agent lines alone, before it asked the parsed file (Group.Numbers):
// the lines that name agent or, when none does, those that name "*". It is
// kept as the reference the parser's choice is held to.
func agentLinesRef(r *Report, agent string) (lines []int, global bool) {
	var star []int
	for _, l := range r.Lines {
		if l.Kind != LineUserAgent {
			continue
		}
		v := []byte(l.Value)
		switch {
		case grammar.IsGlobalAgent(v):
			star = append(star, l.Num)
		case grammar.EqualFold(agent, grammar.AgentToken(v)):
			lines = append(lines, l.Num)
		}
	}
	if len(lines) > 0 {
		return lines, false
	}
	return star, len(star) > 0
}

// TestAgentLinesAskTheParser holds the groups the parser chooses for an
// agent (Group.Numbers, SPEC §4) to those of the lines the report's
// user-agent lines choose (agentLinesRef), on random files and agents: "*",
// case variants, tokens with digits, empty groups, rules before the first
// group and groups after, for the file Parse defers (at most 4 KiB), the
// same file after a first question answered from its lines, the file Parse
// compiles (past 4 KiB) and the report's own. AgentLines answers as the
// reference does.
func TestAgentLinesAskTheParser(t *testing.T) {
	values := []string{"*", "* extra", "*foo", "Googlebot", "googlebot/2.1", "GOOGLEBOT", "GoogleBot", "Googlebot-Image",
		"MJ12bot", "007bot", "bot2", "", "Bingbot, Googlebot", "bingbot"}
	agents := []string{"Googlebot", "googlebot", "GOOGLEbot", "Googlebot/2.1", "Googlebot-Image", "MJ12bot", "MJ", "bot", "bot2",
		"Bingbot", "*", "", "Other"}
	lines := []string{"User-agent: %", "User-agent: %", "User-agent: %", "Disallow: /p", "Allow: /p/q", "Disallow: p",
		"Crawl-delay: 2", "Sitemap: https://example.com/s.xml", "Content-Usage: train-ai=n", "Foo: bar", "# note", ""}
	rng := rand.New(rand.NewPCG(9309, 4))
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	named, global := 0, 0
	for i := range rounds {
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteString("Disallow: /before\nCrawl-delay: 1\n") // before any group
		}
		for range rng.IntN(16) {
			l := lines[rng.IntN(len(lines))]
			b.WriteString(strings.Replace(l, "%", values[rng.IntN(len(values))], 1) + "\n")
		}
		if rng.IntN(8) == 0 {
			// One token in enough groups to be merged into a copy.
			b.WriteString(strings.Repeat("User-agent: googlebot\nDisallow: /m\n", 9))
		}
		file := []byte(b.String())
		rep := Diagnose(file)
		streamed := robotstxt.Parse(file)
		compiled := robotstxt.Parse([]byte(string(file) + strings.Repeat("#\n", 2100)))
		for _, agent := range agents {
			want, wantGlobal := agentLinesRef(rep, agent)
			var groups []int
			for _, n := range want {
				if g := rep.Lines[n-1].Group; !slices.Contains(groups, g) {
					groups = append(groups, g)
				}
			}
			if wantGlobal {
				global++
			} else if len(want) > 0 {
				named++
			}
			streamed.Allowed(agent, "/p") // the first question reads the lines; later ones compile
			for name, r := range map[string]*robotstxt.Robots{"deferred": robotstxt.Parse(file), "streamed": streamed,
				"compiled": compiled, "report": rep.Robots} {
				if got := r.Group(agent).Numbers(); !slices.Equal(got, groups) {
					t.Fatalf("file %d %q, agent %q (%s): Numbers() = %v; the groups of lines %v are %v", i, file, agent, name, got, want, groups)
				}
				if r.NamesAgent(agent) != (len(want) > 0 && !wantGlobal) {
					t.Fatalf("file %d %q, agent %q (%s): NamesAgent = %v; lines %v, global %v", i, file, agent, name, r.NamesAgent(agent), want, wantGlobal)
				}
			}
			if got, gotGlobal := rep.AgentLines(agent); !slices.Equal(got, want) || gotGlobal != wantGlobal {
				t.Fatalf("file %d %q, agent %q: AgentLines = %v, %v; the reference says %v, %v", i, file, agent, got, gotGlobal, want, wantGlobal)
			}
		}
	}
	if named < rounds || global < rounds {
		t.Errorf("only %d named and %d global answers in %d files: the generator misses the point", named, global, rounds)
	}
}
