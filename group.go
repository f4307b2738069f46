package robotstxt

import (
	"slices"
	"time"
)

// rule is one compiled Allow or Disallow line. Its pattern lives in
// Robots.text. The rules of a group are laid out for lookup, see group.
type rule struct {
	off   uint32 // normalised pattern, without a final '$', at text[off:off+n]
	line  uint32
	n     uint16 // a line keeps at most maxLineLen bytes, 3× that once escaped
	flags ruleFlags
	key   byte // the byte after a leading '/', or 0 (see ruleKey)
}

type ruleFlags uint8

const (
	ruleAllow    ruleFlags = 1 << iota // must be 1: see rank
	ruleAnchored                       // the pattern ended in '$'; must be 2: see priority
	ruleIndex                          // the "/index.htm" fallback of an Allow rule: "<dir>/$"
	ruleRawApart                       // the value as written is stored before the pattern, see Robots.raw
	ruleStar                           // the pattern has a '*'
	ruleDead                           // the pattern can never match: it starts with neither '/' nor '*'
)

// ruleKey returns the byte a path must have after its leading '/' for lit to
// match: the second byte of a pattern that starts with '/' and a literal
// byte. Patterns that start otherwise ("", "/", "*", "/*") get 0.
func ruleKey(lit []byte) byte {
	if len(lit) >= 2 && lit[0] == '/' && lit[1] != '*' {
		return lit[1]
	}
	return 0
}

// priority is the length of the normalised pattern, '*' and '$' included.
func (ru *rule) priority() int {
	return int(ru.n) + int(ru.flags&ruleAnchored>>1)
}

// rank orders rules by priority, then Allow before Disallow.
func (ru *rule) rank() int {
	return ru.priority()<<1 | int(ru.flags&ruleAllow)
}

// before reports whether a takes precedence over b: longer pattern first,
// then Allow, then the earlier line (SPEC §5).
func before(a, b *rule) bool {
	ra, rb := a.rank(), b.rank()
	return ra > rb || ra == rb && a.line < b.line
}

// compareLayout orders the rules of a group: rules that can match any path
// (key 0) first, then the others by key, then rules that never match; within
// each part, in precedence order.
func compareLayout(a, b rule) int {
	if da, db := a.flags&ruleDead, b.flags&ruleDead; da != db {
		if da != 0 {
			return 1
		}
		return -1
	}
	if a.key != b.key {
		return int(a.key) - int(b.key)
	}
	switch {
	case before(&a, &b):
		return -1
	case before(&b, &a):
		return 1
	}
	return 0
}

// group is one group of the file: the rules and other lines between its
// User-agent lines and the next group's. Its rules run from start to the next
// group's start, and its other lines likewise from others.
//
// The rules are in three parts (see compareLayout): [start:wild] have key 0
// and may match any path; [wild:live] are sorted by key, so a path "/c..."
// needs to look only at the rules with key c, found by binary search; the
// rest can never match and are kept for Rules.
type group struct {
	start, wild, live uint32 // into Robots.rules
	others            uint32 // into Robots.others
}

// other is a line of a group with a key other than user-agent, allow,
// disallow and sitemap. Its key is at text[off:off+keyN], and its value
// follows.
type other struct {
	off        uint32
	line       uint32
	keyN, valN uint16
}

// groupRules returns the rules of group id.
func (r *Robots) groupRules(id int32) []rule {
	end := uint32(len(r.rules))
	if int(id)+1 < len(r.groups) {
		end = r.groups[id+1].start
	}
	return r.rules[r.groups[id].start:end]
}

// groupOthers returns the other lines of group id.
func (r *Robots) groupOthers(id int32) []other {
	end := uint32(len(r.others))
	if int(id)+1 < len(r.groups) {
		end = r.groups[id+1].others
	}
	return r.others[r.groups[id].others:end]
}

func (r *Robots) otherKey(o *other) string { return r.text[o.off : o.off+uint32(o.keyN)] }
func (r *Robots) otherValue(o *other) string {
	v := o.off + uint32(o.keyN)
	return r.text[v : v+uint32(o.valN)]
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
		if ru := g.r.first(id, p, best); ru != nil {
			best = ru
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

// first returns the rule of group id that decides for p, if it takes precedence
// over best (which may be nil), or else nil. Be careful when changing it: it
// is the inner loop of Allowed.
func (r *Robots) first(id int32, p urlPath, best *rule) *rule {
	grp := &r.groups[id]
	wild := r.rules[grp.start:grp.wild]
	var keyed []rule
	if c, ok := p.key(); ok {
		keyed = r.rules[grp.wild:grp.live]
		lo, hi := 0, len(keyed)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if keyed[m].key < c {
				lo = m + 1
			} else {
				hi = m
			}
		}
		keyed = keyed[lo:]
		for hi = 0; hi < len(keyed) && keyed[hi].key == c; hi++ {
		}
		keyed = keyed[:hi]
	}
	// Both parts are in precedence order; walk them as one, and stop at the
	// first match or once no rule left can beat best.
	for len(wild) > 0 || len(keyed) > 0 {
		var ru *rule
		if len(keyed) == 0 || len(wild) > 0 && before(&wild[0], &keyed[0]) {
			ru, wild = &wild[0], wild[1:]
		} else {
			ru, keyed = &keyed[0], keyed[1:]
		}
		if best != nil && !before(ru, best) {
			return nil
		}
		if r.matches(ru, p) {
			return ru
		}
	}
	return nil
}

// matches reports whether the rule's pattern matches p.
func (r *Robots) matches(ru *rule, p urlPath) bool {
	lit := r.text[ru.off : ru.off+uint32(ru.n)]
	anchored := ru.flags&ruleAnchored != 0
	if ru.flags&ruleStar == 0 && !p.slash {
		// The common case: a literal prefix, or a whole path when anchored.
		if anchored {
			return p.rest == lit
		}
		return len(p.rest) >= len(lit) && p.rest[:len(lit)] == lit
	}
	return matchPath(lit, anchored, p)
}

// raw returns the value of ru as written in the file. When it differs from
// the normalised pattern, or the rule has an index fallback, it is stored
// before the pattern, followed by its length in two bytes.
func (r *Robots) raw(ru *rule) string {
	if ru.flags&ruleRawApart != 0 {
		n := uint32(r.text[ru.off-2]) | uint32(r.text[ru.off-1])<<8
		return r.text[ru.off-2-n : ru.off-2]
	}
	return r.text[ru.off : ru.off+uint32(ru.priority())]
}

// CrawlDelay returns the group's Crawl-delay: the first valid one in file
// order among the merged groups.
func (g Group) CrawlDelay() (time.Duration, bool) {
	if g.r == nil {
		return 0, false
	}
	var (
		delay time.Duration
		line  uint32
	)
	for _, id := range g.ids {
		for i := range g.r.groupOthers(id) {
			o := &g.r.groupOthers(id)[i]
			if line != 0 && o.line > line || !isCrawlDelay(g.r.otherKey(o)) {
				continue
			}
			if d, ok := parseDelay(g.r.otherValue(o)); ok {
				delay, line = d, o.line
				break
			}
		}
	}
	return delay, line != 0
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
		rules := g.r.groupRules(id)
		for i := range rules {
			ru := &rules[i]
			if ru.flags&ruleIndex != 0 {
				continue
			}
			out = append(out, Rule{
				Line:    int(ru.line),
				Allow:   ru.flags&ruleAllow != 0,
				Pattern: g.r.text[ru.off : ru.off+uint32(ru.priority())],
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
		others := g.r.groupOthers(id)
		for i := range others {
			o := &others[i]
			out = append(out, Other{Line: int(o.line), Key: g.r.otherKey(o), Value: g.r.otherValue(o)})
		}
	}
	slices.SortFunc(out, func(a, b Other) int { return a.Line - b.Line })
	return out
}
