package robotstxt

import "testing"

// TestNoGroup: the group of a crawler that obeys no group allows what no
// rule disallows (all, but under an unreachable robots.txt), has no rules
// or Crawl-delay, and carries the Content-Signal lines before the first
// group (README "Usage preferences").
func TestNoGroup(t *testing.T) {
	r := Parse([]byte("Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /\nCrawl-delay: 3\nContent-Usage: train-ai=n\n"))
	g := r.NoGroup()
	u := g.Usage("/x")
	if !u.Decision.Allowed || u.Decision.Line != 0 || len(g.Rules()) != 0 || u.UsageLine != 0 ||
		u.Signal(SignalAITrain) != PrefNo || u.ContentSignal[SignalAITrain].Line != 1 {
		t.Errorf("NoGroup of a parsed file: %+v, rules %v", u, g.Rules())
	}
	if _, ok := g.CrawlDelay(); ok {
		t.Error("NoGroup has a Crawl-delay")
	}
	if FromStatus(503, nil).NoGroup().Allowed("/x") {
		t.Error("NoGroup of an unreachable robots.txt allows /x")
	}
	if !FromStatus(404, nil).NoGroup().Allowed("/x") || !(*Robots)(nil).NoGroup().Allowed("/x") {
		t.Error("NoGroup of a missing robots.txt, or of nil, disallows /x")
	}
	if n := testing.AllocsPerRun(100, func() { r.NoGroup().Usage("/x") }); n != 0 {
		t.Errorf("NoGroup().Usage allocates %v times", n)
	}
}
