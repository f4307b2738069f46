package audit

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// TestGroupOfIsCrawlersGroup: groupOf asks Crawler.Follows once and picks
// the group from its token; over random files naming the table's tokens,
// that group answers every path as Crawler.Group's does (STYLE §10).
func TestGroupOfIsCrawlersGroup(t *testing.T) {
	var tokens []string
	for _, c := range crawlers.All() {
		tokens = append(tokens, c.Token)
	}
	tokens = append(tokens, "*", "Googlebot", "OtherBot")
	paths := []string{"/", "/a", "/b/c", "/x"}
	lines := []string{"Disallow: /a", "Allow: /b", "Disallow: /", "Disallow: /x$", "Content-Usage: train-ai=n", ""}
	rnd := rand.New(rand.NewPCG(47, 3))
	agents := BuiltinAgents()
	for range 300 {
		var b strings.Builder
		for range 1 + rnd.IntN(4) {
			for range 1 + rnd.IntN(2) {
				b.WriteString("User-agent: " + tokens[rnd.IntN(len(tokens))] + "\n")
			}
			for range rnd.IntN(3) {
				b.WriteString(lines[rnd.IntN(len(lines))] + "\n")
			}
		}
		r := robotstxt.Parse([]byte(b.String()))
		for i := range agents {
			a := &agents[i]
			g, _, _ := groupOf(r, a)
			want, _ := a.crawler.Group(r)
			if !slices.Equal(g.Rules(), want.Rules()) {
				t.Fatalf("%s in\n%s: rules %v, Crawler.Group has %v", a.Tokens[0], b.String(), g.Rules(), want.Rules())
			}
			for _, p := range paths {
				if got, w := verdict(g, p, p), verdict(want, p, p); !equalVerdict(got, w) {
					t.Fatalf("%s %s in\n%s: %+v, Crawler.Group gives %+v", a.Tokens[0], p, b.String(), got, w)
				}
			}
		}
	}
}

func equalVerdict(a, b Verdict) bool {
	return *a.Allowed == *b.Allowed && a.Line == b.Line && a.Rule == b.Rule &&
		a.ContentUsage == b.ContentUsage && a.ContentSignal == b.ContentSignal
}
