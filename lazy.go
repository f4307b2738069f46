package robotstxt

import (
	"unsafe"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file defers the parse of a small file to its queries. Most
// robots.txt files are small, and a crawler visiting many hosts asks each
// one question or a few. Building a Robots (its groups sorted, its agents
// searchable, one string encoded) is then about a third of the work, and
// the first question does not need it (parsing a small file and asking it
// one question: 27,047 instructions compiled, 17,667 this way, cd bench &&
// go run . -profile w1, as bench/README.md, "Small files: the first
// question answered from the lines", counts them): it is answered by one
// pass over the lines,
// which tests the rules of the groups that can decide as the lines go by,
// and keeps nothing. The second query compiles the file, once, and every
// later one asks the compiled Robots.
//
// Parse keeps a copy of a file of at most lazyMax bytes, about what the
// compiled Robots of such a file holds; once compiled, the copy is
// dropped. Larger files are compiled by Parse: they are asked more
// questions, and their compiled form is a fraction of their size. (The
// heap rows of cd bench && go run . give both: about 1.1× the source for
// the median file, most of them small, and about 0.21× over the corpus.)

// lazyMax is the size of the largest file whose parse is deferred. It fits
// Robots.srcN.
const lazyMax = 4 << 10

var _ = uint16(lazyMax) // compiles only while it fits

// streamedOnce is what Robots.full points to once a query has read the
// file's lines without compiling it.
var streamedOnce Robots

// deferParse returns the Robots of data, 1 to lazyMax bytes, whose parse
// is deferred: a copy of data, compiled when a query needs it.
func deferParse(data []byte) *Robots {
	src := string(data)
	r := &Robots{kind: Parsed, srcN: uint16(len(src))}
	r.src.Store(unsafe.StringData(src))
	return r
}

// compiled returns the Robots that answers for r: r itself, or the
// compiled file of a Robots whose parse is deferred, compiled now if no
// query has compiled it yet.
func (r *Robots) compiled() *Robots {
	if r == nil || r.srcN == 0 {
		return r
	}
	if c := r.full.Load(); built(c) {
		return c
	}
	return r.compile()
}

// built reports whether c, loaded from Robots.full, is the compiled file:
// neither nil nor streamedOnce.
func built(c *Robots) bool { return c != nil && c != &streamedOnce }

// allowedDeferred is Allowed for a Robots whose parse is deferred and that
// no query has compiled yet: the first query reads the file's lines, the
// others compile it.
func (r *Robots) allowedDeferred(agent, url string) bool {
	if r.full.CompareAndSwap(nil, &streamedOnce) {
		if p := r.src.Load(); p != nil {
			return r.answer(firstOrder(unsafe.String(p, int(r.srcN)), agent, url))
		}
	}
	return r.compile().Allowed(agent, url)
}

// compile parses r's bytes into the compiled file and stores it. Queries
// that race each compile and keep the one stored first; then the bytes are
// dropped.
func (r *Robots) compile() *Robots {
	for {
		c := r.full.Load()
		if built(c) {
			return c
		}
		p := r.src.Load()
		if p == nil {
			// Dropped by a compile that stored its Robots first: load it.
			continue
		}
		y := parse(unsafe.Slice(p, int(r.srcN)))
		if r.full.CompareAndSwap(c, y) {
			r.src.Store(nil)
			return y
		}
	}
}

// asking is the query a builder's lines answer, in place of a parse (see
// firstOrder).
type asking struct {
	on    bool // whether the builder answers a query
	agent string
	p     urlPath
	group int  // the group keep was decided for, or -1
	keep  bool // whether its rules can decide
}

// rejects reports whether the pattern of an Allow or Disallow value surely
// does not match the query's path, without compiling it: the value and the
// path differ at a byte before any byte that the pattern's normalisation
// could change ('%' and bytes ≥ 0x80) or that is not literal ('*', '$').
// The normalised pattern starts with the same bytes as the value up to
// there, so it cannot match either. An Allow rule's index fallback, a
// prefix of its value, is rejected only when the difference lies within
// it.
func (a *asking) rejects(value []byte, allow bool) bool {
	path := a.p.rest
	if a.p.slash {
		return false
	}
	i := 0
	for i < len(value) {
		c := value[i]
		if c == '%' || c == '*' || c == '$' || c >= 0x80 {
			return false
		}
		if i == len(path) || path[i] != c {
			break
		}
		i++
	}
	if i == len(value) {
		return false // a prefix of the path: it matches
	}
	slash := -1
	if allow {
		slash = indexFallback(value)
	}
	return slash < 0 || slash >= i
}

// firstOrder returns the order (see patternOrder) of the rule of the file
// src that decides whether agent may fetch url, or 0 when none matches.
// The lines are read as Parse reads them, by the same builder; it keeps
// the rules of the groups that name agent or "*" and none of the rest, and
// builds nothing from them.
func firstOrder(src, agent, url string) uint64 {
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	var b builder
	b.init(sc, unsafe.Slice(unsafe.StringData(src), len(src)), indexMin)
	b.ask = asking{on: true, agent: agent, p: pathOf(url), group: -1}
	b.read()
	return b.decideAsked(b.ask.p)
}

// asks reports whether the rules of the current group may decide the
// query: whether the group names its agent or "*". It is decided at the
// group's first rule, when all the group's User-agent lines are read.
func (b *builder) asks() bool {
	a := &b.ask
	if g := len(b.groups) - 1; a.group != g {
		n := len(b.global)
		a.group, a.keep = g, n > 0 && b.global[n-1] == uint32(g) || b.namesAgent(g)
	}
	return a.keep
}

// namesAgent reports whether a User-agent line of group g names the
// query's agent. Names of group g are the last ones read.
func (b *builder) namesAgent(g int) bool {
	for i := len(b.names) - 1; i >= 0 && b.names[i].group == uint32(g); i-- {
		if b.ask.isAgent(b.token(b.names[i])) {
			return true
		}
	}
	return false
}

// isAgent reports whether a name's token is the query's agent, compared
// as Robots.findAgent compares them. It takes the token, not the name, to
// stay small enough to be inlined.
func (a *asking) isAgent(tok []byte) bool {
	return grammar.CompareFold(a.agent, tok) == 0
}

// decideAsked returns the order of the rule that decides for path p among
// the rules the builder kept, as Robots.decide does: those of the groups
// that name the query's agent or, when none does, those of the groups
// that name "*".
func (b *builder) decideAsked(p urlPath) uint64 {
	named := false
	for _, nm := range b.names {
		if b.ask.isAgent(b.token(nm)) {
			named = true
			break
		}
	}
	var best uint64
	ni, gi := 0, 0 // b.names and b.global from group g on
	for g := range b.groups {
		var decides bool
		if named {
			for ; ni < len(b.names) && b.names[ni].group <= uint32(g); ni++ {
				decides = decides || b.names[ni].group == uint32(g) && b.ask.isAgent(b.token(b.names[ni]))
			}
		} else {
			for gi < len(b.global) && b.global[gi] < uint32(g) {
				gi++
			}
			decides = gi < len(b.global) && b.global[gi] == uint32(g)
		}
		if !decides {
			continue
		}
		end := uint32(len(b.rules))
		if g+1 < len(b.groups) {
			end = b.groups[g+1].start
		}
		for k := b.groups[g].start; k < end; k++ {
			ru := &b.rules[k]
			if o := ru.order(); o > best && matchPath(b.patternOf(ru), ru.flags&ruleAnchored != 0, p) {
				best = o
			}
		}
	}
	return best
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

// order returns the order of a rule (see patternOrder), from its rank and
// line.
func (ru *rule) order() uint64 {
	return uint64(ru.rank())<<32 | uint64(^ru.line)
}
