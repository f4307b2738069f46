package robotstxt

import (
	"slices"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// rule is one compiled Allow or Disallow line. Its pattern lives in
// compiledFile.text. The rules of a group are laid out for lookup, see
// group and layout.go.
type rule struct {
	off   uint32 // normalised pattern, without a final '$', at text[off:off+n] (see builder.src)
	line  uint32
	n     uint16 // a line keeps at most maxLineLen bytes, 3× that once escaped
	flags ruleFlags
	key   byte   // the byte after a leading '/', or 0 (see ruleKey); builder only
	i     uint32 // index among the rules of a Robots (decoded rules)
	raw   uint32 // where the value as written is in builder.raws (builder)

	probes uint32 // of a pattern with a '*' (see patternProbes), or 0 where they do not pay (see probesPay); builder only
}

type ruleFlags uint8

const (
	ruleAllow    ruleFlags = 1 << iota // must be 1: see rank
	ruleAnchored                       // the pattern ended in '$'; must be 2: see priority
	ruleIndex                          // the "/index.htm" fallback of an Allow rule: "<dir>/$"
	ruleRawApart                       // the value as written differs from the pattern, see raw
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
// It and rank take a pointer: a value receiver copies the rule to the
// stack, and reading it back across the copy's overlapping stores stalls.
func (ru *rule) priority() int {
	return int(ru.n) + int(ru.flags&ruleAnchored>>1)
}

// rank orders rules by priority, then Allow before Disallow.
func (ru *rule) rank() int {
	return ru.priority()<<1 | int(ru.flags&ruleAllow)
}

// precedence returns a rank (see rank) inverted, for the keys that sort
// rules in precedence order (SPEC §5): in increasing order, the rule of
// higher rank comes first. It fills 18 bits; the rest of a key goes above
// and below. It takes the rank, not the rule: as a method of the rule, it
// had sortFewFrom's loop copy each rule to the stack.
func precedence(rank int) uint64 { return uint64(1<<18 - 1 - rank) }

// A rank fits precedence's 18 bits: a pattern is a line escaped, three
// times as long at most, and its '$'. This fails to compile when it stops.
var _ = uint(1<<18 - 1 - (2*(3*maxLineLen+1) + 1))

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
// order (SPEC §5: by rank, then line). The rules come in file order. It
// returns the number of rules of key 0 and the bytes the rules' patterns
// take in the text (see textLen).
func sortLayout(rules []rule, s *sortScratch) (wild, size int) {
	// Sorting one integer per rule spares a comparison function call per
	// pair of rules. From the top bit down: key (8 bits), precedence (18),
	// index (38), which orders rules by precedence: they are in file order,
	// so the index stands for the line.
	const index = 1<<38 - 1
	if len(rules) < 2 {
		// A group of one rule or none is in order.
		for i := range rules {
			if rules[i].key == 0 {
				wild++
			}
			size += rules[i].textLen()
		}
		return wild, size
	}
	keys := slices.Grow(s.keys[:0], len(rules))[:len(rules)]
	s.keys = keys
	sorted, prev := true, uint64(0)
	for i := range rules {
		ru := &rules[i]
		k := uint64(ru.key)<<56 | precedence(ru.rank())<<38 | uint64(i)
		keys[i] = k
		// Keys are distinct: the first is above 0.
		sorted = sorted && prev < k
		prev = k
		if ru.key == 0 {
			wild++
		}
		size += ru.textLen()
	}
	if sorted {
		// Rules already in layout order (rules of distinct first bytes
		// listed in byte order, for one) need no sort.
		return wild, size
	}
	sortFew(keys)
	s.rules = append(s.rules[:0], rules...)
	for i, k := range keys {
		rules[i] = s.rules[k&index]
	}
	return wild, size
}

// Group is the merged set of groups that decides for one agent: every group
// that names the agent or, when none does, every group that names "*". Select
// it once with [Robots.Group] and ask it many URLs. The zero Group allows
// everything. A Group is a small value that refers into its Robots; it is
// safe for concurrent use.
type Group struct {
	r      *compiledFile
	at, n  uint32   // the indexes of the groups are n words from word at,
	ids    []uint32 // or these n, when several agents are merged (see GroupFor)
	merged uint32   // a group merging them all + 1, which queries ask, or 0
}

// id returns the index of the i-th group of g.
func (g Group) id(i uint32) uint32 { return g.r.groupID(g.at, g.ids, i) }

// groupID returns the index of the i-th group of a Group whose at and ids
// are at and ids (see Group.id).
func (r *compiledFile) groupID(at uint32, ids []uint32, i uint32) uint32 {
	if ids != nil {
		return ids[i]
	}
	return r.word(at + i)
}

// Group returns the merged group that decides for agent (see [Robots.Allowed]
// for how agent is compared). It allocates nothing but, for a file whose
// parse Parse deferred, the compiled file, once (see the package
// documentation).
func (r *Robots) Group(agent string) Group {
	f := r.compiled()
	if f == nil {
		return Group{}
	}
	at, n, merged := f.groupsOf(agent)
	return Group{r: f, at: at, n: n, merged: merged}
}

// NoGroup returns the group of a crawler that obeys no group of r, as one
// that ignores the "*" group obeys none when no group names it (see
// crawlers.Group). No rule applies to it, so it may fetch every URL but
// under a DisallowAll Robots; its Usage reports the Content-Signal lines
// before the first group, which apply to every crawler whose groups state
// none. It allocates nothing but the compiled file, as Group.
func (r *Robots) NoGroup() Group {
	f := r.compiled()
	if f == nil {
		return Group{}
	}
	return Group{r: f}
}

// GroupFor returns the merged group that decides for a crawler that
// answers to several agents, as Google's parser takes a list of them: every
// group that names any of the agents or, when none does, every group that
// names "*". Each agent is compared as in [Robots.Allowed]. It allocates
// only when more than one of the agents is named by the file, and the
// compiled file as Group.
//
// A crawler that obeys a group of its own if there is one and else the
// group of another crawler (Googlebot-Image falls back to Googlebot) asks
// [Robots.NamesAgent] first, then [Robots.Group].
func (r *Robots) GroupFor(agents []string) Group {
	f := r.compiled()
	if f == nil {
		return Group{}
	}
	var g Group
	named := 0
	for _, agent := range agents {
		i, ok := f.findAgent(agent)
		if !ok {
			continue
		}
		at, n, merged := f.agentGroups(i)
		if named++; named == 1 {
			g = Group{r: f, at: at, n: n, merged: merged}
			continue
		}
		g.merged = 0
		if g.ids == nil {
			g.ids = make([]uint32, 0, g.n+n)
			for k := range g.n {
				g.ids = append(g.ids, f.word(g.at+k))
			}
		}
		for k := range n {
			g.ids = append(g.ids, f.word(at+k))
		}
	}
	if named == 0 {
		// As for one agent (see decides): those that name "*".
		return f.globalGroup()
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
	f := r.compiled()
	if f == nil {
		return false
	}
	_, ok := f.findAgent(agent)
	return ok
}

// Numbers returns the numbers of the file's groups that g merges, in file
// order. Groups are numbered from 1 as the file opens them: a User-agent
// line opens a group when it is the file's first or follows an Allow or
// Disallow line of the group before (a rule that can never match too);
// other lines, such as Crawl-delay, do not close a run of User-agent
// lines. These are the numbers of lint.Line.Group. The zero Group, that
// of [Robots.NoGroup] and that of an agent with no group to obey have
// none. It allocates the slice.
func (g Group) Numbers() []int {
	if g.r == nil || g.n == 0 {
		return nil
	}
	out := make([]int, g.n)
	for i := range g.n {
		out[i] = int(g.id(i)) + 1
	}
	return out
}

// Allowed reports whether url may be fetched; see [Robots.Allowed].
func (g Group) Allowed(url string) bool {
	_, o := g.decide(url)
	return g.r.answer(o)
}

// Decide reports whether url may be fetched and which rule decided; see
// [Robots.Decide].
func (g Group) Decide(url string) Decision {
	i, o := g.decide(url)
	if o == 0 {
		return Decision{Allowed: g.r.allowsUnmatched()}
	}
	ru := g.r.rule(i)
	return Decision{
		Allowed: ru.allows(),
		Line:    int(ru.line),
		Allow:   ru.flags&ruleAllow != 0,
		Rule:    g.r.raw(ru),
	}
}

// decide returns the rule that decides for url, as its index and its order
// (see patternOrder), or order 0 when no rule matches. A DisallowAll Robots
// has no rules: Allowed and Decide tell it apart.
func (g Group) decide(url string) (i uint32, o uint64) {
	if g.r == nil {
		return 0, 0
	}
	return g.r.decide(g.at, g.n, g.merged, g.ids, url)
}

// raw returns the value of ru as written in the file.
func (r *compiledFile) raw(ru rule) string {
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
