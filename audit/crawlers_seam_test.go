package audit

import (
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// TestCrawlersGroupSeam checks that the audit answers a crawler as package
// crawlers does (crawlers.GroupFor), the answer that robotstxt check and
// the tester page give: AdsBot with no group naming it is allowed
// everything and keeps the Content-Signal lines before the first group,
// alone or with AdsBot-Google-Mobile on one agent line.
func TestCrawlersGroupSeam(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/a.warc.gz"
	body := "Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /g/\n"
	writeWARC(t, p, []capture{{url: "https://a.example/robots.txt", status: 200, body: body}})
	agents, err := ReadAgents(strings.NewReader("AdsBot-Google\nAdsBot-Google AdsBot-Google-Mobile\nAdsBot-Google Googlebot\nGooglebot\n"))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/", "/private/x", "/g/x"}
	out, _ := run(t, Config{Inputs: []string{p}, Paths: paths, Format: FormatJSONL, Agents: agents})
	r := robotstxt.Parse([]byte(body))
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var row Row
		if err := jsonUnmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		tokens := strings.Split(row.Agent, "+")
		g, _ := crawlers.GroupFor(r, tokens)
		for i, path := range paths {
			u := g.Usage(robotstxt.NormalizeURL(path))
			v := row.Verdicts[i]
			if v.Allowed == nil || *v.Allowed != u.Decision.Allowed || int(v.Line) != u.Decision.Line ||
				v.ContentSignal != signalString(&u) {
				t.Errorf("%s %s: allowed %v line %d signal %q; crawlers.GroupFor says %v, %d, %q",
					row.Agent, path, v.Allowed, v.Line, v.ContentSignal, u.Decision.Allowed, u.Decision.Line, signalString(&u))
			}
		}
		n++
	}
	if n != 4 {
		t.Fatalf("%d rows, want 4", n)
	}
	if g, _ := crawlers.GroupFor(r, []string{"AdsBot-Google", "AdsBot-Google-Mobile"}); !g.Decide("/private/x").Allowed ||
		g.Usage("/").Signal(robotstxt.SignalAITrain) != robotstxt.PrefNo {
		t.Fatal("the case the test is for is not reached: AdsBot should be allowed /private/x, with ai-train=no")
	}
}
