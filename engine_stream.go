package robotstxt

import (
	"unsafe"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// The stream strategy (see engine.go): the first question of a file whose
// parse is deferred (see lazy.go), answered by the builder as it reads the
// lines. Each User-agent line is compared with the asked agent as it goes
// by, and each rule of a group that can decide is tested against the path
// on its line; nothing is kept of the rest, and nothing is built.

// asking is the query a builder's lines answer, in place of a parse (see
// firstOrder).
//
// Which groups decide (see decides) is known only at the end of the file:
// those that name the agent, if one does, else those that name "*". The
// builder keeps the best rule of each answer, best[1] if a group names the
// agent and best[0] if none does, and the file's end picks one. Once a
// group names the agent, the rules of the groups that name only "*" are
// passed over.
type asking struct {
	on    bool // whether the builder answers a query
	agent string
	p     urlPath

	own, global bool  // whether the current group's User-agent lines name the agent, "*"
	named       bool  // whether a group read so far names the agent
	decided     bool  // whether keeps holds the current group's answer
	keeps       uint8 // the answers the current group's rules count for: bit 0 best[0], bit 1 best[1]

	best [2]uint64 // the order (see patternOrder) of the best rule that matches, per answer
}

// restart forgets the lines read: the file is read again (see builder.read).
func (a *asking) restart() { *a = asking{on: true, agent: a.agent, p: a.p} }

// group starts a new group.
func (a *asking) group() { a.own, a.global, a.decided = false, false, false }

// agentLine takes a User-agent line of the current group, whose trimmed
// value is value.
func (a *asking) agentLine(value []byte, global bool) {
	switch {
	case global:
		a.global = true
	case grammar.TokenIs(value, a.agent):
		a.own, a.named = true, true
	}
}

// counts returns the answers the rules of the current group count for
// (see asking.keeps), none when the group cannot decide. It is decided at
// the group's first rule, when all its User-agent lines are read.
func (a *asking) counts() uint8 {
	if !a.decided {
		a.decided, a.keeps = true, b2u(decides(false, a.own, a.global))|b2u(decides(true, a.own, a.global))<<1
	}
	if a.named {
		return a.keeps &^ 1
	}
	return a.keeps
}

// keep counts the rule of order o, which matches the path, for the
// answers of keeps.
func (a *asking) keep(o uint64, keeps uint8) {
	for s := range a.best {
		if keeps>>s&1 != 0 && o > a.best[s] {
			a.best[s] = o
		}
	}
}

// answer returns the order of the rule that decides the query, once the
// lines are read, or 0 when none matches.
func (a *asking) answer() uint64 { return a.best[b2u(a.named)] }

// literal tests the pattern of an Allow or Disallow value against the
// query's path without compiling it, when the value tells, as it mostly
// does: it reports whether it told, and, if so, whether the pattern
// matches. The pattern's priority is then the value's length.
//
// Up to its first '%', byte ≥ 0x80, '*' or '$' (see notLiteral), the
// pattern is the value: normalising changes only the first two, and the
// last two are not literal. So a value that differs from the path before
// any of them cannot match, nor can one whose normalised '%' there meets
// another byte of the path or its end; and a value made of literal bytes
// alone matches when it is a prefix of the path. Past a '*' or '$', a
// value that normalising leaves alone (see scanValue) is its pattern,
// which match tests. An Allow rule's index fallback, a prefix of its
// value, is rejected only when the difference lies within it; a match of
// the rule outranks its fallback.
func (a *asking) literal(value []byte, allow bool) (match, told bool) {
	path := a.p.rest
	if a.p.slash {
		return false, false
	}
	i, n := 0, min(len(value), len(path))
	for i < n && value[i] == path[i] && !notLiteral[value[i]] {
		i++
	}
	if i == len(value) {
		return true, true // a prefix of the path: it matches
	}
	switch c := value[i]; {
	case c == '*' || c == '$':
		if escape, _ := scanValue(value); escape || allow && indexFallback(value) >= 0 {
			return false, false
		}
		lit, anchored := cutAnchor(value)
		return matchPath(unsafe.String(unsafe.SliceData(lit), len(lit)), anchored != 0, a.p), true
	case notLiteral[c] && i < len(path) && path[i] == '%':
		return false, false // '%' or a byte ≥ 0x80, normalised to a '%' the path has
	}
	if allow {
		if slash := indexFallback(value); slash >= 0 && slash < i {
			return false, false
		}
	}
	return false, true
}

// notLiteral holds the bytes of a value that its pattern may not match
// as they are: '*' and '$', and those normalising may change, '%' and
// bytes ≥ 0x80.
var notLiteral = func() (t [256]bool) {
	t['*'], t['$'], t['%'] = true, true, true
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// askRule is addRule for a builder that answers a query: it tests the
// rule against the path, if its group can decide, and keeps nothing of it.
// The value, with the whitespace around it, is line[from:] (see
// directiveValue): a rule of a group that cannot decide needs it neither
// cut from the line nor trimmed. A rule the value tells nothing of (see
// asking.literal) is compiled, as addRule compiles it, tested, and
// dropped.
func (b *builder) askRule(num uint32, allow bool, line []byte, from int) {
	if len(b.groups) == 0 {
		return // rules before the first User-agent line belong to no group
	}
	b.hasRules = true
	a := &b.ask
	keeps := a.counts()
	if keeps == 0 {
		return
	}
	value := directiveValue(line[from:])
	if neverMatches(value) {
		return
	}
	match, told := a.literal(value, allow)
	if told {
		if match {
			// Its priority is the value's length (see literal): as a rule
			// of that many bytes, unanchored, has it.
			ru := rule{line: num, n: uint16(len(value)), flags: ruleFlags(b2u(allow))}
			a.keep(ru.order(), keeps)
		}
		return
	}
	n := len(b.rules)
	b.addRule(num, allow, value)
	for k := n; k < len(b.rules); k++ {
		ru := &b.rules[k]
		if matchPath(b.patternOf(ru), ru.flags&ruleAnchored != 0, a.p) {
			a.keep(ru.order(), keeps)
		}
	}
	b.rules = b.rules[:n]
}

// firstOrder returns the order (see patternOrder) of the rule of the file
// src that decides whether agent may fetch url, or 0 when none matches.
// The lines are read as Parse reads them, by the same builder, which
// answers the query as they go by (see asking) and builds nothing.
func firstOrder(src, agent, url string) uint64 {
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	var b builder
	b.init(sc, unsafe.Slice(unsafe.StringData(src), len(src)), indexMin)
	b.ask = asking{on: true, agent: agent, p: pathOf(url)}
	b.read()
	return b.ask.answer()
}

// patternOf returns the pattern of a rule the builder holds, without its
// final '$': in the file, or escaped in pats.
func (b *builder) patternOf(ru *rule) string {
	s := b.src
	if ru.flags&ruleEscaped != 0 {
		s = b.pats
	}
	s = s[ru.off : ru.off+uint32(ru.n)]
	return unsafe.String(unsafe.SliceData(s), len(s))
}
