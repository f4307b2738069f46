package pagerules

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// rulePool are rules as a page writes them; each reads the same in any case
// and with any spacing around its colon.
var rulePool = []string{
	"noindex", "nofollow", "none", "all", "index", "follow", "nosnippet", "indexifembedded",
	"notranslate", "noimageindex", "noarchive", "max-snippet:0", "max-snippet:20", "max-snippet:-1",
	"max-image-preview:none", "max-image-preview:standard", "max-image-preview:large",
	"max-video-preview:0", "max-video-preview:15", "max-video-preview:-1",
	"unavailable_after: 2020-09-21", "unavailable_after: 25 Jun 2010 15:00:00 PST",
	"unavailable_after: Saturday, 25-Aug-07 15:00:00 EST", "unavailable_after:2030-01-02T03:04:05Z",
}

var agentPool = []string{"", "", "googlebot", "foobot", "otherbot"}

// item is a rule addressed to an agent ("" for every crawler).
type item struct{ agent, rule string }

func randomItems(rng *rand.Rand) []item {
	items := make([]item, 1+rng.IntN(8))
	for i := range items {
		items[i] = item{agentPool[rng.IntN(len(agentPool))], rulePool[rng.IntN(len(rulePool))]}
	}
	return items
}

// randomCase changes the case of the ASCII letters of s at random.
func randomCase(rng *rand.Rand, s string) string {
	b := []byte(s)
	for i, c := range b {
		if c|0x20 >= 'a' && c|0x20 <= 'z' && rng.IntN(2) == 0 {
			b[i] ^= 0x20
		}
	}
	return string(b)
}

// space returns a random run of SP and HTAB, often empty.
func space(rng *rand.Rand) string {
	return []string{"", "", " ", "  ", "\t", " \t "}[rng.IntN(6)]
}

// render writes items as X-Robots-Tag lines: a run of items for one agent
// shares an address, and each line is split off at random; a line that
// starts within an agent's run repeats its address. When messy, it
// changes case and spacing at random.
func render(rng *rand.Rand, items []item, messy bool) []string {
	var lines []string
	var cur strings.Builder
	scope := ""
	fresh := true
	for _, it := range items {
		split := !fresh && (messy && rng.IntN(3) == 0 || it.agent == "" && scope != "")
		if split {
			lines = append(lines, cur.String())
			cur.Reset()
			fresh, scope = true, ""
		}
		if !fresh {
			cur.WriteString(",")
		}
		rule := it.rule
		agent := it.agent
		if messy {
			rule = randomCase(rng, rule)
			rule = strings.Replace(rule, ":", space(rng)+":"+space(rng), 1)
			agent = randomCase(rng, agent)
		}
		cur.WriteString(space(rng))
		if it.agent != scope || (fresh && it.agent != "") {
			cur.WriteString(agent + space(rng) + ":" + space(rng))
			scope = it.agent
		}
		cur.WriteString(rule + space(rng))
		fresh = false
	}
	return append(lines, cur.String())
}

// The answer does not depend on case, spacing, or how the rules are split
// across header lines.
func TestHeaderSpacingCaseSplitting(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 31))
	for range 3000 {
		items := randomItems(rng)
		clean := render(rng, items, false)
		messy := render(rng, items, true)
		for _, agent := range []string{"Googlebot", "Foobot", "Bingbot"} {
			var a, b Rules
			a.AddHeader(http.Header{"X-Robots-Tag": clean}, agent)
			b.AddHeader(http.Header{"X-Robots-Tag": messy}, agent)
			if sa, sb := summary(&a), summary(&b); sa != sb || len(a.Unknown) > 0 {
				t.Fatalf("for %s:\n%q gives %q\n%q gives %q", agent, clean, sa, messy, sb)
			}
		}
	}
}

// A meta tag's content reads as an X-Robots-Tag line does: one list
// reader serves both.
func TestMetaEqualsHeader(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 31))
	for range 1000 {
		var rules []string
		for range 1 + rng.IntN(6) {
			rules = append(rules, rulePool[rng.IntN(len(rulePool))])
		}
		v := strings.Join(rules, ", ")
		var h, m Rules
		h.AddHeader(http.Header{"X-Robots-Tag": {v}}, "Foobot")
		if _, err := m.AddMeta(strings.NewReader(`<meta name="robots" content="`+v+`">`), "Foobot", 0); err != nil {
			t.Fatal(err)
		}
		if sh, sm := summary(&h), summary(&m); sh != sm {
			t.Fatalf("%q: header %q, meta %q", v, sh, sm)
		}
	}
}

// Merging is order-free: the more restrictive value wins whichever comes
// first.
func TestMergeOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 31))
	for range 2000 {
		var a, b Rules
		a.AddHeader(http.Header{"X-Robots-Tag": render(rng, randomItems(rng), false)}, "Googlebot")
		b.AddHeader(http.Header{"X-Robots-Tag": render(rng, randomItems(rng), false)}, "Googlebot")
		var ab, ba Rules
		ab.Merge(&a)
		ab.Merge(&b)
		ba.Merge(&b)
		ba.Merge(&a)
		if summary(&ab) != summary(&ba) {
			t.Fatalf("a+b %q, b+a %q", summary(&ab), summary(&ba))
		}
	}
}

// JoinUsage combines the header with robots.txt as the root package
// combines Content-Usage with Content-Signal lines (vocab-08 §5.1): the
// same rule, held equal here for every pair of statements.
func TestCombineIsRootCombine(t *testing.T) {
	usage := []string{"", "train-ai=y", "train-ai=n"}
	signal := []string{"", "ai-train=yes", "ai-train=no"}
	for i := range usage {
		for j := range signal {
			file := "User-agent: *\nAllow: /\n"
			if usage[i] != "" {
				file += "Content-Usage: " + usage[i] + "\n"
			}
			if signal[j] != "" {
				file += "Content-Signal: " + signal[j] + "\n"
			}
			u := robotstxt.Parse([]byte(file)).Usage("Foobot", "/x")
			want := u.Combined(robotstxt.TrainAI)
			got := grammar.CombinePrefs(u.ContentUsage[robotstxt.TrainAI].Pref, u.Signal(robotstxt.SignalAITrain))
			if got != want {
				t.Errorf("%q and %q: combine gives %v, Usage.Combined %v", usage[i], signal[j], got, want)
			}
		}
	}
}
