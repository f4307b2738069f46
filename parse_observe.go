package robotstxt

import (
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/observe"
)

// This file is the parser's side of the line seam (package observe): what
// parseLines reports of each line to an observer, and the functions the
// seam hands to package lint. Parse never observes.

func init() {
	observe.Parse = func(data []byte, o observe.Observer) any {
		return parseLines(data, indexMin, &observing{o: o})
	}
	observe.UsageLines = usageLines
	observe.DecideInGroup = decideInGroup
	observe.MatchPath = func(rawURL string) string { return pathOf(rawURL).String() }
}

// observing is the state of an observed parse: the observer and the
// builder's counts after the last line, from which each line's
// observe.Did is told.
type observing struct {
	o                              observe.Observer
	ln                             observe.Line
	groups, rules, others, sitemap int
}

// seen reports line num to the observer, once the builder has taken it.
func (b *builder) seen(num int, raw, key, value []byte, kind grammar.Key, flags lineFlags, typo bool) {
	obs := b.obs
	groups, rules := len(b.groups), len(b.rules)
	others, sitemaps := len(b.others)+len(b.preamble), len(b.sitemaps)
	did := observe.NoKey
	switch {
	case key == nil:
	case kind == grammar.KeyUserAgent && groups > obs.groups:
		did = observe.OpenedGroup
	case kind == grammar.KeyUserAgent:
		did = observe.JoinedGroup
	case rules > obs.rules, others > obs.others, sitemaps > obs.sitemap:
		did = observe.Kept
	default:
		did = observe.Dropped
	}
	obs.groups, obs.rules, obs.others, obs.sitemap = groups, rules, others, sitemaps
	// The lexer only reslices the data: a line's offset is the difference
	// of the capacities. The fields are set one by one: the record is
	// reused from line to line.
	ln := &obs.ln
	ln.Num, ln.Start, ln.Raw = num, cap(b.src)-cap(raw), raw
	ln.Key, ln.Value, ln.Kind, ln.Typo, ln.Flags = key, value, kind, typo, flags
	ln.Did, ln.Group = did, b.current()
	obs.o.Line(ln)
}

// usageLines is observe.UsageLines.
func usageLines(x any, f func(line, group int, pattern string, signal bool)) {
	r := x.(*Robots).compiled()
	if r == nil || !r.hasWords() {
		return
	}
	base, n := r.numUsage()
	for i := range n {
		u := r.usageAt(base, i)
		if u.group == preamble {
			continue
		}
		f(int(u.line), int(u.group), r.usagePattern(u), u.signal)
	}
}

// decideInGroup is observe.DecideInGroup.
func decideInGroup(x any, group int, url string) (bool, int) {
	r := x.(*Robots).compiled()
	g := Group{r: r, ids: []uint32{uint32(group)}, n: 1}
	d := g.Decide(url)
	return d.Allowed, d.Line
}
