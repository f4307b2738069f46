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

	probes uint32 // of a pattern with a '*' (see patternProbes), or 0 where they do not pay (see probesPay); builder only
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
	r      *Robots
	at, n  uint32   // the indexes of the groups are n words from word at,
	ids    []uint32 // or these n, when several agents are merged (see GroupFor)
	merged uint32   // a group merging them all + 1, which queries ask, or 0
}

// id returns the index of the i-th group of g.
func (g Group) id(i uint32) uint32 { return g.r.groupID(g.at, g.ids, i) }

// groupID returns the index of the i-th group of a Group whose at and ids
// are at and ids (see Group.id).
func (r *Robots) groupID(at uint32, ids []uint32, i uint32) uint32 {
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
	if r = r.compiled(); r == nil {
		return Group{}
	}
	at, n, merged := r.groupsOf(agent)
	return Group{r: r, at: at, n: n, merged: merged}
}

// groupsOf returns the groups that decide for agent as agentGroups does:
// the agent's, or else those that name "*"; none when r has no records.
func (r *Robots) groupsOf(agent string) (at, n, merged uint32) {
	if !r.hasWords() {
		return 0, 0, 0
	}
	// As findAgent and agentGroups do, reading the header once.
	h := r.words(hAgents, 2)
	base, lists := le32(h[0:4]), le32(h[4:8])
	if i, ok := r.searchAgent(agent, base, agentCount(base, lists)); ok {
		return r.agentGroupsFrom(base, lists, i)
	}
	return r.globalList(lists)
}

// NoGroup returns the group of a crawler that obeys no group of r, as one
// that ignores the "*" group obeys none when no group names it (see
// crawlers.Group). No rule applies to it, so it may fetch every URL but
// under a DisallowAll Robots; its Usage reports the Content-Signal lines
// before the first group, which apply to every crawler whose groups state
// none. It allocates nothing but the compiled file, as Group.
func (r *Robots) NoGroup() Group {
	if r = r.compiled(); r == nil {
		return Group{}
	}
	return Group{r: r}
}

// globalGroup returns the merged groups that name "*".
func (r *Robots) globalGroup() Group {
	if !r.hasWords() {
		return Group{r: r}
	}
	at, n, merged := r.globalList(r.word(hLists))
	return Group{r: r, at: at, n: n, merged: merged}
}

// globalList returns the groups that name "*", from the group lists that
// start at word lists: theirs is the first list (see layout.go).
func (r *Robots) globalList(lists uint32) (at, n, merged uint32) { return r.list(lists) }

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
	if r = r.compiled(); r == nil {
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
	if r = r.compiled(); r == nil {
		return false
	}
	_, ok := r.findAgent(agent)
	return ok
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

// allowsUnmatched reports whether a URL that no rule matches is allowed:
// always, but for the Robots of an unreachable robots.txt.
func (r *Robots) allowsUnmatched() bool { return r == nil || r.kind != DisallowAll }

// answer reports whether a URL is allowed when the rule of order o decides
// for it (see patternOrder), or, for o 0, when no rule matches it.
func (r *Robots) answer(o uint64) bool {
	if o == 0 {
		return r.allowsUnmatched()
	}
	return orderAllows(o)
}

// allows reports whether the deciding rule ru allows the URL. An empty
// pattern matches with priority 0 and never disallows.
func (ru rule) allows() bool { return ru.flags&ruleAllow != 0 || ru.priority() == 0 }

// orderAllows is rule.allows for the rule of order o (see patternOrder).
func orderAllows(o uint64) bool {
	rank := o >> 32
	return rank&uint64(ruleAllow) != 0 || rank == 0
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

// decide is Group.decide for the groups at, n, merged and ids of a Group.
func (r *Robots) decide(at, n, merged uint32, ids []uint32, url string) (i uint32, o uint64) {
	if n == 0 {
		return 0, 0
	}
	q := query{p: urlPath{rest: "/"}}
	if s, begin := pathStart(url); begin >= 0 {
		q.p, q.url = rawPath(s, begin), s
	}
	if merged != 0 {
		return r.first(merged-1, &q, 0, 0)
	}
	for k := uint32(0); k < n; k++ {
		i, o = r.first(r.groupID(at, ids, k), &q, i, o)
	}
	return i, o
}

// first returns the rule that decides for the query among those of group id
// and the best so far, rule bi of order bo (bo 0 for none), as its index and
// order (see decide). Be careful when changing it: it is the inner loop of
// Allowed.
func (r *Robots) first(id uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
	wild, wildEnd, end := r.groupRules(id)
	if indexed := wildEnd & (idxBit | idxAlways); indexed != 0 {
		if x := r.index(id, wild, end, indexed&idxAlways != 0); x != nil {
			// The index's rules are its own; the best rule is one of
			// the Robots's.
			if i, o := x.r.firstIndexed(0, x.n, x.at, x.heads(), x.dirs(), q, 0, bo); o > bo {
				return x.rule(i), o
			}
			return bi, bo
		}
		return r.scan(wild, end, q, bi, bo)
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
	// first match or once no rule left can beat the best so far. A rule is
	// read as its order until it is tested; a part's next order is read
	// when the part has none (0) and rules left. Once both parts are spent
	// the order taken is 0, never above the best so far: the walk ends.
	var w, k uint64
	for {
		if w == 0 && wild < wildEnd {
			s := r.words(headerWords+wild*ruleWords, ruleWords+1)
			w = recOrder(le32(s[0:4]), le32(s[4:8]), le32(s[8:12]))
		}
		if k == 0 && keyed < keyedEnd {
			s := r.words(headerWords+keyed*ruleWords, ruleWords+1)
			k = recOrder(le32(s[0:4]), le32(s[4:8]), le32(s[8:12]))
		}
		var i uint32
		var o uint64
		if w > k {
			i, o, w = wild, w, 0
			wild++
		} else {
			i, o, k = keyed, k, 0
			keyed++
		}
		if o <= bo {
			return bi, bo
		}
		if r.matchesAt(i, q) {
			return i, o
		}
	}
}

// scan is first for the rules [start, end) of a group with an index that no
// query has built yet, which are in file order: each rule that would take
// precedence over the best so far is tested.
func (r *Robots) scan(start, end uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
	// A rule keyed other than the path (see ruleKey) cannot match it: its
	// key is one byte of the text, against a test of the whole rule. pk is
	// the path's key, or none of a byte's values when the path has none.
	pk := uint(256)
	if c, ok := q.p.key(); ok {
		pk = uint(c)
	}
	for i := start; i < end; i++ {
		s := r.words(headerWords+i*ruleWords, ruleWords+1)
		w0, w1, next := le32(s[0:4]), le32(s[4:8]), le32(s[8:12])
		o := recOrder(w0, w1, next)
		if o <= bo {
			continue
		}
		if k := textKey(r.text[recOff(w0):recEnd(w1, next)]); k != 0 && uint(k) != pk {
			continue
		}
		if r.matchesAt(i, q) {
			bi, bo = i, o
		}
	}
	return bi, bo
}

// textKey is ruleKey of a pattern as the text holds it, final '$'
// included: "/$" is the anchored "/", whose key is 0.
// It is not ruleKey of the pattern cut: that costs the parse and first
// question of the small files 0.4% more instructions (TestTextKey pins the
// two together).
func textKey(pat string) byte {
	if len(pat) >= 2 && pat[0] == '/' && pat[1] != '*' && (pat[1] != '$' || len(pat) > 2) {
		return pat[1]
	}
	return 0
}

// recOrder returns the order (see patternOrder) of the rule whose record is
// w0, w1 and the first word of the next.
func recOrder(w0, w1, next uint32) uint64 {
	return patternOrder(recEnd(w1, next)-recOff(w0), w0, w1)
}

// patternOrder returns the order of the rule whose record is w0 and w1 and
// whose pattern, '$' included, has n bytes: n is its priority. The order
// of a rule is a number that ranks rules by precedence (SPEC §5): a takes
// precedence over b when a's order is the greater. From the top: rank
// (see rule.rank), then the line, inverted. It is never 0, which stands
// for no rule. TestRuleOrder pins it to the rules it is read from.
func patternOrder(n, w0, w1 uint32) uint64 {
	return uint64(n<<1|w0>>ruleOffBits)<<32 | uint64(^recLine(w1))
}

// query is the path a query asks about, and the set of its byte pairs once
// a rule with a '*' has needed it (see patternProbes).
//
// The path is found where it starts, but its end, the first '#' or NUL,
// only when a test needs it (see exact): until then p runs to the end of
// the URL. Most rules need no end. A pattern holds no '#' and no NUL, since
// a line ends at both, so it is a prefix of the longer path exactly when it
// is one of the path: comparing them, the pattern's byte where the path
// ends meets the '#' or NUL, or the pattern ends first. The end is needed
// where the path must end with the pattern ('$'), where a '*' may reach
// past it, and in an indexed group, whose search reads the path's length.
// Finding it on every query was about a twentieth of the crawler-like pass
// (bench/README.md, "Questions: the path's end when a test needs it").
type query struct {
	p        urlPath
	url      string // the URL whose end p runs to, or "" once p is exact
	filtered bool
	f        pathFilter
}

// exact cuts the path at its end, once. Until then p.rest is the end of
// the URL, from where the path starts.
func (q *query) exact() {
	if q.url != "" {
		q.p, q.url = pathFrom(q.url, len(q.url)-len(q.p.rest)), ""
	}
}

// pairs returns the set of the path's pairs, made once. Made before the
// path is exact, it holds the pairs past its end too: the probes of more
// rules pass, and each is then tested against the exact path.
func (q *query) pairs() *pathFilter {
	if !q.filtered {
		q.f, q.filtered = q.p.filter(), true
	}
	return &q.f
}

// admits reports whether the path has every probe of a wildcard rule.
func (q *query) admits(probes uint32) bool {
	return probes == 0 || q.pairs().admits(probes)
}

// matchesAt reports whether the pattern of rule i matches the query's
// path.
func (r *Robots) matchesAt(i uint32, q *query) bool {
	s := r.words(headerWords+i*ruleWords, ruleWords+1) // ruleWords3, inlined
	w1 := le32(s[4:8])
	star := recStar(w1)
	end := recEnd(w1, le32(s[8:12]))
	lit := r.text[recOff(le32(s[0:4])):end]
	anchored := len(lit) > 0 && lit[len(lit)-1] == '$'
	if anchored {
		lit = lit[:len(lit)-1]
	}
	if !star {
		if !q.p.slash {
			// The common case: a literal prefix, which needs no end (see
			// query), or a whole path when anchored.
			if anchored {
				q.exact()
				return q.p.rest == lit
			}
			return len(q.p.rest) >= len(lit) && q.p.rest[:len(lit)] == lit
		}
	} else if !q.admits(le32(r.text[end : end+filterLen])) {
		return false
	}
	q.exact()
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
