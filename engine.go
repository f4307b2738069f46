package robotstxt

// This file is the engine's one dispatch point: which rule decides for a
// question, and which strategy finds it. Every strategy answers with the
// same rule (the table test in engine_test.go holds each to the slow
// reference); they differ in what they read and what they cost:
//
//	stream  the first question of a small file whose parse is deferred:
//	        one pass over its lines, testing the rules of the groups that
//	        can decide as they go by and keeping none (engine_stream.go)
//	walk    a compiled group laid out by key: the rules that can match any
//	        path and those keyed as the path, walked in precedence order
//	        (engine_walk.go)
//	scan    a group with an index that no query has built yet: each rule
//	        that could beat the best so far, tested once (engine_scan.go)
//	index   a group whose index is built: the chain of literal prefixes
//	        the path starts with (engine_index.go, built by index.go)
//
// Precedence (SPEC §5: the longest pattern wins, Allow on a tie, then the
// earliest line) is one number, a rule's order (see orderOf): each
// strategy keeps the rule of the greatest order among those that match.

// allowed is Robots.Allowed: r.Group(agent).Allowed(url), without building
// the Group. A file whose parse is deferred answers its first question by
// the stream strategy; every other question goes to its compiled file.
func (r *Robots) allowed(agent, url string) bool {
	if r == nil {
		return true
	}
	f := &r.file
	if r.srcN != 0 {
		// A file whose parse is deferred (see lazy.go): its compiled
		// file, made by this query unless it is the first.
		if f = r.full.load(&streamedOnce); f == nil {
			if f = r.compile(true); f == nil {
				if allowed, ok := r.allowedFirst(agent, url); ok {
					return allowed
				}
				f = r.compile(false)
			}
		}
	}
	at, n, merged := f.groupsOf(agent)
	_, o := f.decide(at, n, merged, nil, url)
	return f.answer(o)
}

// decide is Group.decide for the groups at, n, merged and ids of a Group:
// the rule that decides for url, as its index and its order. It is where
// a compiled file's strategy is chosen, group by group: a group laid out
// by key is walked; a group with an index is scanned by the first query
// that reaches it, and searched once a later one has built the index (see
// compiledFile.index). Each strategy takes the best rule so far and
// returns it or a better one of the group.
func (r *compiledFile) decide(at, n, merged uint32, ids []uint32, url string) (i uint32, o uint64) {
	if n == 0 {
		return 0, 0
	}
	q := query{p: urlPath{rest: "/"}}
	if s, begin := pathStart(url); begin >= 0 {
		q.p, q.url = rawPath(s, begin), s
	}
	id := merged - 1 // a group merging them all, which is asked alone
	if merged != 0 {
		n = 1
	}
	for k := uint32(0); k < n; k++ {
		if merged == 0 {
			id = r.groupID(at, ids, k)
		}
		start, wild, end := r.groupRules(id)
		indexed := wild & (idxBit | idxAlways)
		if indexed == 0 {
			i, o = r.walk(start, wild, end, &q, i, o)
			continue
		}
		x := r.index(id, start, end, indexed&idxAlways != 0)
		if x == nil {
			i, o = r.scan(start, end, &q, i, o)
			continue
		}
		// The index's rules are its own; the best rule is one of the
		// file's.
		if xi, xo := x.r.searchIndex(0, x.n, x.at, x.heads(), x.dirs(), &q, 0, o); xo > o {
			i, o = x.rule(xi), xo
		}
	}
	return i, o
}

// allowsUnmatched reports whether a URL that no rule matches is allowed:
// always, but for the file of an unreachable robots.txt.
func (r *compiledFile) allowsUnmatched() bool { return r == nil || r.kind != DisallowAll }

// answer reports whether a URL is allowed when the rule of order o decides
// for it (see patternOrder), or, for o 0, when no rule matches it.
func (r *compiledFile) answer(o uint64) bool {
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
	return orderOf(n<<1|w0>>ruleOffBits, recLine(w1))
}

// orderOf is the order of a rule of rank rank (see rule.rank: priority,
// then Allow) on line line: the one statement of precedence (SPEC §5)
// that every strategy compares by, whether it reads the builder's rules
// (rule.order) or the compiled records (patternOrder).
func orderOf(rank, line uint32) uint64 { return uint64(rank)<<32 | uint64(^line) }

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

// order returns the order of a rule (see patternOrder), from its rank and
// line.
func (ru *rule) order() uint64 { return orderOf(uint32(ru.rank()), ru.line) }
