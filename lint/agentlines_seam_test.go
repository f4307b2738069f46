package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestAgentLinesAgreeWithGroup holds the groups a report shows for an agent
// (Report.AgentLines, what the tester page highlights) to the groups that
// answer for it (Robots.Group), both ways, on files where lines the parser
// does not end a run on (Content-Usage, Content-Signal, unknown keys) stand
// between user-agent lines: every rule of the group lies in a shown group,
// every Allow or Disallow line of a shown group is a rule of the group, and
// the line that states a usage preference lies in a shown group (or before
// the first group, for Content-Signal).
func TestAgentLinesAgreeWithGroup(t *testing.T) {
	values := []string{"*", "* extra", "Googlebot", "googlebot/2.1", "Googlebot-Image", "AdsBot-Google", "bingbot", "Google bot"}
	agents := []string{"Googlebot", "googlebot", "Googlebot-Image", "AdsBot-Google", "bingbot", "*", "Other"}
	lines := []string{"User-agent: %", "User-agent: %", "User-agent: %", "Disallow: /p", "Allow: /p/q", "Disallow: /",
		"Content-Usage: train-ai=n", "Content-Usage: /p train-ai=y", "Content-Signal: search=yes", "Foo: bar", "Crawl-delay: 3", "Sitemap: https://example.com/s.xml", ""}
	rng := rand.New(rand.NewPCG(22, 10))
	checked, usages := 0, 0
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	for i := range rounds {
		var b strings.Builder
		for range rng.IntN(14) {
			l := lines[rng.IntN(len(lines))]
			l = strings.Replace(l, "%", values[rng.IntN(len(values))], 1)
			b.WriteString(l + "\n")
		}
		file := []byte(b.String())
		rep, rob := Diagnose(file), robotstxt.Parse(file)
		for _, agent := range agents {
			uaLines, _ := rep.AgentLines(agent)
			var shown []int
			for _, n := range uaLines {
				shown = append(shown, rep.Lines[n-1].Group)
			}
			g := rob.Group(agent)
			var ruleLines []int
			for _, ru := range g.Rules() {
				ruleLines = append(ruleLines, ru.Line)
			}
			for _, l := range rep.Lines {
				if (l.Kind == LineAllow || l.Kind == LineDisallow) && slices.Contains(shown, l.Group) && !slices.Contains(ruleLines, l.Num) {
					t.Fatalf("file %d %q, agent %q: line %d is in shown group %d but no rule of Robots.Group (rules on %v)", i, file, agent, l.Num, l.Group, ruleLines)
				}
			}
			checked += len(ruleLines)
			for _, n := range ruleLines {
				if !slices.Contains(shown, rep.Lines[n-1].Group) {
					t.Fatalf("file %d %q, agent %q: rule on line %d outside the shown groups %v", i, file, agent, n, shown)
				}
			}
			for _, p := range []string{"/", "/p", "/p/q"} {
				u := g.Usage(p)
				if u.UsageLine > 0 {
					usages++
				}
				if u.UsageLine > 0 && !slices.Contains(shown, rep.Lines[u.UsageLine-1].Group) {
					t.Fatalf("file %d %q, agent %q, path %s: Content-Usage from line %d, outside the shown groups %v", i, file, agent, p, u.UsageLine, shown)
				}
				if s := u.SignalLine; s > 0 && rep.Lines[s-1].Group != 0 && !slices.Contains(shown, rep.Lines[s-1].Group) {
					t.Fatalf("file %d %q, agent %q, path %s: Content-Signal from line %d, outside the shown groups %v", i, file, agent, p, s, shown)
				}
			}
		}
	}
	if checked < rounds || usages < rounds/4 {
		t.Errorf("only %d rules and %d Content-Usage answers checked in %d files: the generator misses the point", checked, usages, rounds)
	}
}
