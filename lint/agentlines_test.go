package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestAgentLines pins the report's answer to which user-agent lines decide
// for an agent to the parser's (SPEC §4): for random files and agents, the
// agent is named by its lines exactly when Robots.NamesAgent says so, and
// every rule of Robots.Group lies in one of the groups of those lines.
func TestAgentLines(t *testing.T) {
	values := []string{"*", "* extra", "*foo", "Googlebot", "googlebot/2.1", "Googlebot-Image", "Bingbot, Googlebot",
		"", "007bot", "AdsBot-Google", "MJ12bot", "GOOGLEBOT"}
	agents := []string{"Googlebot", "googlebot", "Googlebot/2.1", "Googlebot-Image", "Bingbot", "*", "", "AdsBot-Google", "MJ", "Other"}
	keys := []string{"User-agent", "Disallow", "Allow", "Crawl-delay", "Sitemap"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var b strings.Builder
		for range rng.IntN(12) {
			k := keys[rng.IntN(len(keys))]
			v := "/p" + strings.Repeat("x", rng.IntN(3))
			if k == "User-agent" {
				v = values[rng.IntN(len(values))]
			}
			b.WriteString(k + ": " + v + "\n")
		}
		file := []byte(b.String())
		rep, rob := Diagnose(file), robotstxt.Parse(file)
		for _, agent := range agents {
			lines, global := rep.AgentLines(agent)
			if named := len(lines) > 0 && !global; named != rob.NamesAgent(agent) {
				t.Fatalf("file %d %q, agent %q: AgentLines = %v, global %v; NamesAgent = %v", i, file, agent, lines, global, rob.NamesAgent(agent))
			}
			var groups []int
			for _, n := range lines {
				if l := rep.Lines[n-1]; l.Kind != LineUserAgent {
					t.Fatalf("file %q, agent %q: line %d is %s, not user-agent", file, agent, n, l.Kind)
				}
				groups = append(groups, rep.Lines[n-1].Group)
			}
			for _, ru := range rob.Group(agent).Rules() {
				if !slices.Contains(groups, rep.Lines[ru.Line-1].Group) {
					t.Fatalf("file %q, agent %q: rule on line %d is in group %d, outside the groups %v of lines %v",
						file, agent, ru.Line, rep.Lines[ru.Line-1].Group, groups, lines)
				}
			}
		}
	}
}

// TestAgentLinesTable shows the answers on one file.
func TestAgentLinesTable(t *testing.T) {
	rep := Diagnose([]byte("User-agent: Googlebot\nUser-agent: bingbot/2\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nAllow: /\n"))
	tests := []struct {
		agent  string
		lines  []int
		global bool
		why    string
	}{
		{"Googlebot", []int{1, 8}, false, "both groups naming it, compared without case (SPEC §4)"},
		{"Bingbot", []int{2}, false, "bingbot/2 is reduced to its token"},
		{"Googlebot/2.1", []int{5}, true, "the agent is compared as given: it falls back to *"},
		{"Other", []int{5}, true, "no group names it"},
		{"", []int{5}, true, "the empty agent names no token here"},
	}
	for _, tt := range tests {
		lines, global := rep.AgentLines(tt.agent)
		if !slices.Equal(lines, tt.lines) || global != tt.global {
			t.Errorf("AgentLines(%q) = %v, %v; want %v, %v (%s)", tt.agent, lines, global, tt.lines, tt.global, tt.why)
		}
	}
	if lines, global := Diagnose([]byte("User-agent: Googlebot\nDisallow: /\n")).AgentLines("Bingbot"); lines != nil || global {
		t.Errorf("no group for Bingbot: AgentLines = %v, %v; want none", lines, global)
	}
}
