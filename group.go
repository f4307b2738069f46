package robotstxt

import (
	"slices"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// rule is one compiled Allow or Disallow line. Its pattern lives in
// Robots.text. The rules of a group are laid out for lookup, see group and
// layout.go.
type rule struct {
	off   uint32 // normalised pattern, without a final '$', at text[off:off+n] (see builder.src)
	line  uint32
	n     uint16 // a line keeps at most maxLineLen bytes, 3× that once escaped
	flags ruleFlags
	key   byte   // the byte after a leading '/', or 0 (see ruleKey); builder only
	i     uint32 // index among the rules of a Robots (decoded rules)
	raw   uint32 // where the value as written is in builder.raws (builder)

	probes uint32 // of a pattern with a '*' (see patternProbes), or 0; builder only
}

type ruleFlags uint8

const (
	ruleAllow    ruleFlags = 1 << iota // must be 1: see rank
	ruleAnchored                       // the pattern ended in '$'; must be 2: see priority
	ruleIndex                          // the "/index.htm" fallback of an Allow rule: "<dir>/$"
	ruleRawApart                       // the value as written differs from the pattern, see Robots.raw
	ruleStar                           // the pattern has a '*'
	ruleEscaped                        // builder only: the pattern is in builder.pats, not in the file
)

// ruleKey returns the byte a path must have after its leading '/' for lit to
// match: the second byte of a pattern that starts with '/' and a literal
// byte. Patterns that start otherwise ("", "/", "*", "/*") get 0.
func ruleKey[T string | []byte](lit T) byte {
	if len(lit) >= 2 && lit[0] == '/' && lit[1] != '*' {
		return lit[1]
	}
	return 0
}

// priority is the length of the normalised pattern, '*' and '$' included.
func (ru rule) priority() int {
	return int(ru.n) + int(ru.flags&ruleAnchored>>1)
}

// rank orders rules by priority, then Allow before Disallow.
func (ru rule) rank() int {
	return ru.priority()<<1 | int(ru.flags&ruleAllow)
}

// before reports whether a takes precedence over b: longer pattern first,
// then Allow, then the earlier line (SPEC §5).
func before(a, b rule) bool {
	ra, rb := a.rank(), b.rank()
	return ra > rb || ra == rb && a.line < b.line
}

// sortScratch holds the buffers sortLayout reuses between groups.
type sortScratch struct {
	keys  []uint64
	rules []rule
	lits  [][]byte // sortIndexed's literal prefixes, cleared after use
	tmp   []uint64 // sortKeys's second buffer
	stack []uint32 // sortIndexed's chain of runs
}

// sortLayout orders the rules of a group: rules that can match any path
// (key 0) first, then the others by key; within each part, in precedence
// order (see before). The rules come in file order.
func sortLayout(rules []rule, s *sortScratch) {
	if len(rules) < 2 {
		return
	}
	// Sorting one integer per rule spares a comparison function call per
	// pair of rules. From the top bit down: key (8 bits), inverted rank (18, see rank),
	// index (38), which orders as before does: the rules are in file order,
	// so the index stands for the line.
	const index = 1<<38 - 1
	s.keys = s.keys[:0]
	for i, ru := range rules {
		s.keys = append(s.keys, uint64(ru.key)<<56|uint64(1<<18-1-ru.rank())<<38|uint64(i))
	}
	sortFew(s.keys)
	s.rules = append(s.rules[:0], rules...)
	for i, k := range s.keys {
		rules[i] = s.rules[k&index]
	}
}

// Group is the merged set of groups that decides for one agent: every group
// that names the agent or, when none does, every group that names "*". Select
// it once with [Robots.Group] and ask it many URLs. The zero Group allows
// everything. A Group is a small value that refers into its Robots; it is
// safe for concurrent use.
type Group struct {
	r      *Robots
	at, n  uint32   // the indexes of the groups are n words from word at,
	ids    []uint32 // or these n, when several agents are merged (see GroupFor)
	merged uint32   // a group merging them all + 1, which queries ask, or 0
}

// id returns the index of the i-th group of g.
func (g Group) id(i uint32) uint32 {
	if g.ids != nil {
		return g.ids[i]
	}
	return g.r.word(g.at + i)
}

// Group returns the merged group that decides for agent (see [Robots.Allowed]
// for how agent is compared). It allocates nothing.
func (r *Robots) Group(agent string) Group {
	if r == nil {
		return Group{}
	}
	if i, ok := r.findAgent(agent); ok {
		at, n, merged := r.agentGroups(i)
		return Group{r: r, at: at, n: n, merged: merged}
	}
	return r.globalGroup()
}

// NoGroup returns the group of a crawler that obeys no group of r, as one
// that ignores the "*" group obeys none when no group names it (see
// crawlers.Group). No rule applies to it, so it may fetch every URL but
// under a DisallowAll Robots; its Usage reports the Content-Signal lines
// before the first group, which apply to every crawler whose groups state
// none. It allocates nothing.
func (r *Robots) NoGroup() Group {
	if r == nil {
		return Group{}
	}
	return Group{r: r}
}

// globalGroup returns the merged groups that name "*".
func (r *Robots) globalGroup() Group {
	if !r.hasWords() {
		return Group{r: r}
	}
	at, n, merged := r.list(r.word(hLists))
	return Group{r: r, at: at, n: n, merged: merged}
}

// GroupFor returns the merged group that decides for a crawler that
// answers to several agents, as Google's parser takes a list of them: every
// group that names any of the agents or, when none does, every group that
// names "*". Each agent is compared as in [Robots.Allowed]. It allocates
// only when more than one of the agents is named by the file.
//
// A crawler that obeys a group of its own if there is one and else the
// group of another crawler (Googlebot-Image falls back to Googlebot) asks
// [Robots.NamesAgent] first, then [Robots.Group].
func (r *Robots) GroupFor(agents []string) Group {
	if r == nil {
		return Group{}
	}
	var g Group
	named := 0
	for _, agent := range agents {
		i, ok := r.findAgent(agent)
		if !ok {
			continue
		}
		at, n, merged := r.agentGroups(i)
		if named++; named == 1 {
			g = Group{r: r, at: at, n: n, merged: merged}
			continue
		}
		g.merged = 0
		if g.ids == nil {
			g.ids = make([]uint32, 0, g.n+n)
			for k := range g.n {
				g.ids = append(g.ids, r.word(g.at+k))
			}
		}
		for k := range n {
			g.ids = append(g.ids, r.word(at+k))
		}
	}
	if named == 0 {
		return r.globalGroup()
	}
	if g.ids != nil {
		slices.Sort(g.ids)
		g.ids = slices.Compact(g.ids)
		g.n = uint32(len(g.ids))
	}
	return g
}

// NamesAgent reports whether some User-agent line of the file names agent,
// compared as in [Robots.Allowed]: whether agent has groups of its own
// rather than those for "*".
func (r *Robots) NamesAgent(agent string) bool {
	if r == nil {
		return false
	}
	_, ok := r.findAgent(agent)
	return ok
}

// Allowed reports whether url may be fetched; see [Robots.Allowed].
func (g Group) Allowed(url string) bool {
	ru, found := g.decide(url)
	if !found {
		return g.allowsUnmatched()
	}
	return ru.allows()
}

// Decide reports whether url may be fetched and which rule decided; see
// [Robots.Decide].
func (g Group) Decide(url string) Decision {
	ru, found := g.decide(url)
	if !found {
		return Decision{Allowed: g.allowsUnmatched()}
	}
	return Decision{
		Allowed: ru.allows(),
		Line:    int(ru.line),
		Allow:   ru.flags&ruleAllow != 0,
		Rule:    g.r.raw(ru),
	}
}

// allowsUnmatched reports whether a URL that no rule matches is allowed:
// always, but for the Robots of an unreachable robots.txt.
func (g Group) allowsUnmatched() bool { return g.r == nil || g.r.kind != DisallowAll }

// allows reports whether the deciding rule ru allows the URL. An empty
// pattern matches with priority 0 and never disallows.
func (ru rule) allows() bool { return ru.flags&ruleAllow != 0 || ru.priority() == 0 }

// decide returns the rule that decides for url, if any rule matches. A
// DisallowAll Robots has no rules: Allowed and Decide tell it apart.
func (g Group) decide(url string) (best rule, found bool) {
	if g.r == nil || g.n == 0 {
		return rule{}, false
	}
	q := query{p: pathOf(url)}
	if g.merged != 0 {
		return g.r.first(g.merged-1, &q, best, found)
	}
	for i := uint32(0); i < g.n; i++ {
		if ru, ok := g.r.first(g.id(i), &q, best, found); ok {
			best, found = ru, true
		}
	}
	return best, found
}

// first returns the rule of group id that decides for p, if it takes
// precedence over best (when found), or else false. Be careful when changing
// it: it is the inner loop of Allowed.
func (r *Robots) first(id uint32, q *query, best rule, found bool) (rule, bool) {
	wild, wildEnd, end := r.groupRules(id)
	if wildEnd&idxBit != 0 {
		return r.firstIndexed(wild, end, wildEnd&^idxBit, q, best, found)
	}
	keyed, keyedEnd := end, end
	if c, ok := q.p.key(); ok {
		// The rules keyed c: binary search for the first, then walk.
		lo, hi := wildEnd, end
		for lo < hi {
			m := uint32(uint(lo+hi) >> 1)
			if r.keyedKey(m) < c {
				lo = m + 1
			} else {
				hi = m
			}
		}
		keyed, keyedEnd = lo, lo
		for keyedEnd < end && r.keyedKey(keyedEnd) == c {
			keyedEnd++
		}
	}
	// Both parts are in precedence order; walk them as one, and stop at the
	// first match or once no rule left can beat best.
	var w, k rule
	if wild < wildEnd {
		w = r.rule(wild)
	}
	if keyed < keyedEnd {
		k = r.rule(keyed)
	}
	for wild < wildEnd || keyed < keyedEnd {
		var ru rule
		if wild < wildEnd && (keyed == keyedEnd || before(w, k)) {
			ru = w
			if wild++; wild < wildEnd {
				w = r.rule(wild)
			}
		} else {
			ru = k
			if keyed++; keyed < keyedEnd {
				k = r.rule(keyed)
			}
		}
		if found && !before(ru, best) {
			break
		}
		if r.matches(ru, q) {
			return ru, true
		}
	}
	return rule{}, false
}

// query is the path a query asks about, and the set of its byte pairs once
// a rule with a '*' has needed it (see patternProbes).
type query struct {
	p        urlPath
	filtered bool
	f        pathFilter
}

// admits reports whether the path has every probe of a wildcard rule.
func (q *query) admits(probes uint32) bool {
	if probes == 0 {
		return true
	}
	if !q.filtered {
		q.f, q.filtered = q.p.filter(), true
	}
	return q.f.admits(probes)
}

// matches reports whether the rule's pattern matches the query's path.
func (r *Robots) matches(ru rule, q *query) bool {
	lit := r.text[ru.off : ru.off+uint32(ru.n)]
	anchored := ru.flags&ruleAnchored != 0
	if ru.flags&ruleStar == 0 {
		if !q.p.slash {
			// The common case: a literal prefix, or a whole path when
			// anchored.
			if anchored {
				return q.p.rest == lit
			}
			return len(q.p.rest) >= len(lit) && q.p.rest[:len(lit)] == lit
		}
	} else if !q.admits(r.probes(ru)) {
		return false
	}
	return matchPath(lit, anchored, q.p)
}

// raw returns the value of ru as written in the file.
func (r *Robots) raw(ru rule) string {
	if ru.flags&ruleRawApart != 0 {
		return r.rawValue(ru.i)
	}
	return r.pattern(ru.i)
}

// CrawlDelay returns the group's Crawl-delay: the first valid one in file
// order among the merged groups.
func (g Group) CrawlDelay() (time.Duration, bool) {
	d, line := g.CrawlDelayLine()
	return d, line != 0
}

// CrawlDelayLine is [Group.CrawlDelay] with the line the delay is on, 0
// when the group has no valid Crawl-delay: a line such as
// "Crawl-delay: 1e3", which is no delay, is passed over for the next.
func (g Group) CrawlDelayLine() (time.Duration, int) {
	if g.r == nil {
		return 0, 0
	}
	var (
		delay time.Duration
		line  uint32
	)
	for i := uint32(0); i < g.n; i++ {
		id := g.id(i)
		g.r.others(id, func(o other) {
			if line != 0 && o.line > line || !grammar.IsCrawlDelay(g.r.otherKey(o)) {
				return
			}
			if d, ok := grammar.ParseDelay(g.r.otherValue(o)); ok {
				delay, line = d, o.line
			}
		})
	}
	return delay, int(line)
}

// Rule is an Allow or Disallow line of a group, as [Group.Rules] lists it.
type Rule struct {
	Line    int
	Allow   bool
	Pattern string // normalised: non-ASCII bytes and %-escapes as upper-case %XX
	Text    string // the value as written
}

// Rules returns the rules of the group in file order. Rules that can never
// match, whose pattern starts with neither '/' nor '*', are not kept by
// Parse; package lint reports them.
func (g Group) Rules() []Rule {
	if g.r == nil {
		return nil
	}
	n := 0
	for i := uint32(0); i < g.n; i++ {
		start, _, end := g.r.groupRules(g.id(i))
		n += int(end - start)
	}
	out := make([]Rule, 0, n)
	for i := uint32(0); i < g.n; i++ {
		id := g.id(i)
		start, _, end := g.r.groupRules(id)
		for i := start; i < end; i++ {
			ru := g.r.rule(i)
			if ru.flags&ruleIndex != 0 {
				continue
			}
			out = append(out, Rule{
				Line:    int(ru.line),
				Allow:   ru.flags&ruleAllow != 0,
				Pattern: g.r.pattern(i),
				Text:    g.r.raw(ru),
			})
		}
	}
	byLine := func(a, b Rule) int { return a.Line - b.Line }
	if !slices.IsSortedFunc(out, byLine) { // merged groups, or an index's order
		slices.SortFunc(out, byLine)
	}
	if len(out) == 0 {
		return nil
	}
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
	for i := uint32(0); i < g.n; i++ {
		id := g.id(i)
		g.r.others(id, func(o other) {
			out = append(out, Other{Line: int(o.line), Key: g.r.otherKey(o), Value: g.r.otherValue(o)})
		})
	}
	slices.SortFunc(out, func(a, b Other) int { return a.Line - b.Line })
	return out
}
