package robotstxt

import (
	"slices"
	"time"
)

// rule is one compiled Allow or Disallow line. Its pattern lives in
// Robots.text; rules of a group are kept in precedence order (see before).
type rule struct {
	off   uint32 // normalised pattern, without a final '$', at text[off:off+n]
	line  uint32
	n     uint16 // a line keeps at most maxLineLen bytes, 3× that once escaped
	rawN  uint16 // length of the value as written; see raw
	flags ruleFlags
}

type ruleFlags uint8

const (
	ruleAllow    ruleFlags = 1 << iota
	ruleAnchored           // the pattern ended in '$'
	ruleIndex              // the "/index.htm" fallback of an Allow rule: "<dir>/$"
	ruleRawApart           // the value as written differs from the pattern and sits just before it
)

// priority is the length of the normalised pattern, '*' and '$' included.
func (ru *rule) priority() int {
	p := int(ru.n)
	if ru.flags&ruleAnchored != 0 {
		p++
	}
	return p
}

// before reports whether a takes precedence over b: longer pattern first,
// then Allow, then the earlier line (SPEC §5).
func before(a, b *rule) bool {
	if pa, pb := a.priority(), b.priority(); pa != pb {
		return pa > pb
	}
	if aa, ba := a.flags&ruleAllow, b.flags&ruleAllow; aa != ba {
		return aa != 0
	}
	return a.line < b.line
}

func compareRules(a, b rule) int {
	switch {
	case before(&a, &b):
		return -1
	case before(&b, &a):
		return 1
	}
	return 0
}

// group is one group of the file: the rules and other lines between its
// User-agent lines and the next group's.
type group struct {
	start, end uint32 // rules
	others     span   // into Robots.others
	delay      time.Duration
	delayLine  uint32 // 0 when the group has no valid Crawl-delay
}

// other is a line of a group with a key other than user-agent, allow,
// disallow and sitemap.
type other struct {
	key, value span
	line       uint32
}

// Group is the merged set of groups that decides for one agent: every group
// that names the agent or, when none does, every group that names "*". Select
// it once with [Robots.Group] and ask it many URLs. The zero Group allows
// everything. A Group is a small value that refers into its Robots; it is
// safe for concurrent use.
type Group struct {
	r   *Robots
	ids []int32 // indexes into r.groups
}

// Group returns the merged group that decides for agent (see [Robots.Allowed]
// for how agent is compared). It allocates nothing.
func (r *Robots) Group(agent string) Group {
	if r == nil {
		return Group{}
	}
	if i := r.findAgent(agent); i >= 0 {
		return Group{r: r, ids: r.slice(r.agents[i].groups)}
	}
	return Group{r: r, ids: r.slice(r.global)}
}

func (r *Robots) slice(s span) []int32 { return r.lists[s.off : s.off+s.n] }

// Allowed reports whether url may be fetched; see [Robots.Allowed].
func (g Group) Allowed(url string) bool { return g.Decide(url).Allowed }

// Decide reports whether url may be fetched and which rule decided; see
// [Robots.Decide].
func (g Group) Decide(url string) Decision {
	if g.r == nil {
		return Decision{Allowed: true}
	}
	switch g.r.kind {
	case AllowAll:
		return Decision{Allowed: true}
	case DisallowAll:
		return Decision{Allowed: false}
	}
	p := pathOf(url)
	var best *rule
	for _, id := range g.ids {
		grp := &g.r.groups[id]
		rules := g.r.rules[grp.start:grp.end]
		for i := range rules {
			ru := &rules[i]
			// Rules are in precedence order: once one cannot beat the best
			// match so far, no later rule of this group can.
			if best != nil && !before(ru, best) {
				break
			}
			if matchPath(g.r.text[ru.off:ru.off+uint32(ru.n)], ru.flags&ruleAnchored != 0, p) {
				best = ru
				break
			}
		}
	}
	if best == nil {
		return Decision{Allowed: true}
	}
	allow := best.flags&ruleAllow != 0
	return Decision{
		// An empty pattern matches with priority 0 and never disallows.
		Allowed: allow || best.priority() == 0,
		Line:    int(best.line),
		Allow:   allow,
		Rule:    g.r.raw(best),
	}
}

// raw returns the value of ru as written in the file.
func (r *Robots) raw(ru *rule) string {
	if ru.flags&ruleRawApart != 0 {
		return r.text[ru.off-uint32(ru.rawN) : ru.off]
	}
	return r.text[ru.off : ru.off+uint32(ru.rawN)]
}

// CrawlDelay returns the group's Crawl-delay: the first valid one in file
// order among the merged groups.
func (g Group) CrawlDelay() (time.Duration, bool) {
	if g.r == nil {
		return 0, false
	}
	var best *group
	for _, id := range g.ids {
		grp := &g.r.groups[id]
		if grp.delayLine != 0 && (best == nil || grp.delayLine < best.delayLine) {
			best = grp
		}
	}
	if best == nil {
		return 0, false
	}
	return best.delay, true
}

// Rule is an Allow or Disallow line of a group, as [Group.Rules] lists it.
type Rule struct {
	Line    int
	Allow   bool
	Pattern string // normalised: non-ASCII bytes and %-escapes as upper-case %XX
	Text    string // the value as written
}

// Rules returns the rules of the group in file order. Rules that can never
// match (a pattern that starts with neither '/' nor '*') are included.
func (g Group) Rules() []Rule {
	if g.r == nil {
		return nil
	}
	var out []Rule
	for _, id := range g.ids {
		grp := &g.r.groups[id]
		for i := grp.start; i < grp.end; i++ {
			ru := &g.r.rules[i]
			if ru.flags&ruleIndex != 0 {
				continue
			}
			pat := g.r.text[ru.off : ru.off+uint32(ru.n)]
			if ru.flags&ruleAnchored != 0 {
				pat += "$"
			}
			out = append(out, Rule{
				Line:    int(ru.line),
				Allow:   ru.flags&ruleAllow != 0,
				Pattern: pat,
				Text:    g.r.raw(ru),
			})
		}
	}
	slices.SortFunc(out, func(a, b Rule) int { return a.Line - b.Line })
	return out
}

// Other is a line of a group whose key is none of user-agent, allow,
// disallow and sitemap: crawl-delay, host, clean-param, request-rate and
// anything else. Key and Value are as written, trimmed.
type Other struct {
	Line  int
	Key   string
	Value string
}

// Others returns the group's other lines in file order.
func (g Group) Others() []Other {
	if g.r == nil {
		return nil
	}
	var out []Other
	for _, id := range g.ids {
		s := g.r.groups[id].others
		for _, o := range g.r.others[s.off : s.off+s.n] {
			out = append(out, Other{Line: int(o.line), Key: g.r.str(o.key), Value: g.r.str(o.value)})
		}
	}
	slices.SortFunc(out, func(a, b Other) int { return a.Line - b.Line })
	return out
}
