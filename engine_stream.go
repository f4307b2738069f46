package robotstxt

import "unsafe"

// The stream strategy (see engine.go): the first question of a file whose
// parse is deferred (see lazy.go), answered by the builder as it reads the
// lines, keeping the rules of the groups that can decide and building
// nothing from them.

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

// decideAsked returns the order of the rule that decides for path p among
// the rules the builder kept, as compiledFile.decide does, in the groups that
// decide for the query's agent (see askedGroups).
func (b *builder) decideAsked(p urlPath) uint64 {
	var best uint64
	b.askedGroups(func(g int) {
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
	})
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
