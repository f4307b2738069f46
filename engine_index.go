package robotstxt

import (
	"math/bits"
	"strings"
)

// The index strategy (see engine.go): the search of a group's index,
// built by index.go when a query first needs it; the top of index.go draws
// its layout.

// link returns the link of rule i of an indexed group whose rules start at
// rule start and whose links start at word at.
func (r *form) link(at, start, i uint32) uint32 { return r.word(at + (i-start)*linkWords + 1) }

// literalOf returns the literal prefix of rule i.
func (r *form) literalOf(i uint32) string {
	w0, w1, end := r.ruleWords3(i)
	return literal(strings.TrimSuffix(r.text[recOff(w0):end], "$"), recStar(w1))
}

// compareLiteral compares the path with the literal prefix of rule i, as
// strings.Compare does: it is p.compare(r.literalOf(i)), which reads the
// pattern once and looks for its '*' only as far as the path agrees with
// it.
func (r *form) compareLiteral(p urlPath, i uint32) int {
	if p.slash {
		return p.compare(r.literalOf(i))
	}
	s := r.words(headerWords+i*ruleWords, ruleWords+1) // ruleWords3, inlined
	w1 := le32(s[4:8])
	star, off, end := recStar(w1), recOff(le32(s[0:4])), recEnd(w1, le32(s[8:12]))
	pat, path := r.text[off:end], p.rest
	j := sharedPrefix(path, pat)
	// lit is where the literal prefix ends, or a place past j when it
	// ends past j.
	lit := len(pat)
	if lit > 0 && pat[lit-1] == '$' {
		lit--
	}
	if star {
		if k := strings.IndexByte(pat[:min(j+1, lit)], '*'); k >= 0 {
			lit = k
		}
	}
	switch {
	case lit <= j && len(path) == lit:
		return 0
	case lit <= j:
		return 1 // the literal prefix is a proper prefix of the path
	case j == len(path) || path[j] < pat[j]:
		return -1
	}
	return 1
}

// orderPattern returns the order of rule i (see patternOrder), its pattern,
// final '$' included, and whether it has a '*'.
func (r *form) orderPattern(i uint32) (o uint64, pat string, star bool) {
	s := r.words(headerWords+i*ruleWords, ruleWords+1) // ruleWords3, inlined
	w0, w1 := le32(s[0:4]), le32(s[4:8])
	pat = r.text[recOff(w0):recEnd(w1, le32(s[8:12]))]
	return patternOrder(uint32(len(pat)), w0, w1), pat, recStar(w1)
}

// searchIndex is the strategy for a group whose index is built, r the
// index's text (groupIndex.r): the rule that decides for the query among
// its rules [start:end), whose links start at word at, and the best so
// far, rule bi of order bo (see compiledFile.decide).
func (r *form) searchIndex(start, end, at, heads, dirs uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
	// The search and its tests of anchored rules read the path's length.
	q.exact()
	p := q.p
	// The last rule whose literal prefix sorts at or before p: the search
	// narrowed by the samples first, if any, when p has the prefix that
	// every literal prefix shares.
	lo, hi := start, end
	if n := end - start; n >= sampleMin {
		base := at + n*linkWords
		common := r.word(base)
		if p.commonPrefix(r.literalOf(start)) >= int(common) {
			lo, hi = r.sampled(base+1, (n+sampleStep-1)/sampleStep, p.head(int(common)), start, end)
		}
	}
	// Most steps are decided by the first eight bytes.
	ph := p.head(0)
	for lo < hi {
		m := uint32(uint(lo+hi) >> 1)
		h := le64(r.words(heads+2*(m-start), 2))
		if ph > h || ph == h && r.compareLiteral(p, m) >= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == start {
		return bi, bo
	}
	run := lo - 1
	if l := r.link(at, start, run); l&runBit != 0 {
		run = start + l&^runBit
	}
	// Up to the deepest run whose literal prefix is a prefix of p: the
	// first whose prefix is no longer than what it has in common with p.
	lit := r.literalOf(run)
	common := p.commonPrefix(lit)
	for len(lit) > common {
		l := r.link(at, start, run) &^ dirBit
		if l == 0 {
			return bi, bo
		}
		run = start + l - 1
		lit = r.literalOf(run)
	}
	pathLen := len(p.rest)
	if p.slash {
		pathLen++
	}
	for {
		l := r.link(at, start, run)
		if l&dirBit != 0 {
			bi, bo = r.searchDir(at+dirs, at, start, run, q, pathLen, bi, bo)
			l &^= dirBit
		} else {
			// The run's probes and links, 8 bytes a rule, read in one
			// piece.
			recs := r.words(at+(run-start)*linkWords, (end-run)*linkWords)
			for k := 0; ; k++ {
				k = q.admitted(recs, k)
				if k < 0 {
					break // the next run
				}
				i := run + uint32(k)
				o, pat, star := r.orderPattern(i)
				if o <= bo {
					break
				}
				if star && matchStarred(pat, p) || !star && literalMatch(pat, pathLen) {
					bi, bo = i, o
					break
				}
			}
		}
		if l == 0 {
			return bi, bo
		}
		run = start + l - 1
	}
}

// literalMatch reports whether a pattern without '*', final '$' included,
// whose literal prefix the path starts with matches a path of pathLen
// bytes: unless anchored to a longer path. It is inlined in the loops
// over a run's rules.
func literalMatch(pat string, pathLen int) bool {
	n := len(pat) - 1
	return n < 0 || pat[n] != '$' || n == pathLen
}

// matchStarred reports whether a pattern with a '*', final '$' included,
// matches the path.
func matchStarred(pat string, p urlPath) bool {
	anchored := len(pat) > 0 && pat[len(pat)-1] == '$'
	if anchored {
		pat = pat[:len(pat)-1]
	}
	return matchPath(pat, anchored, p)
}

// searchDir is searchIndex's search of the run of rule run, which has a
// directory, in the index whose links start at word at and whose
// directories' table at word tab.
func (r *form) searchDir(tab, at, start, run uint32, q *query, pathLen int, bi uint32, bo uint64) (uint32, uint64) {
	lo, hi := uint32(0), r.word(tab)
	for lo < hi {
		m := uint32(uint(lo+hi) >> 1)
		if start+r.word(tab+1+2*m) < run {
			lo = m + 1
		} else {
			hi = m
		}
	}
	d := at + r.word(tab+2+2*lo)
	f := q.pairs()
	bm := r.words(d, 8)
	var b [4]uint64
	total := 0
	for w := range b {
		b[w] = le64(bm[8*w : 8*w+8])
		total += bits.OnesCount64(b[w])
	}
	starts, entries := d+8, d+8+uint32(total)+1
	rank := uint32(0)
	for w := range b {
		// The pairs of the run's rules that the path has.
		for x := b[w] & f[w]; x != 0; x &= x - 1 {
			g := rank + uint32(bits.OnesCount64(b[w]&(x&-x-1)))
			s := r.words(starts+g, 2)
			for e := le32(s[0:4]); e < le32(s[4:8]); e++ {
				es := r.words(entries+2*e, 2)
				if !f.admits(le32(es[4:8])) {
					continue
				}
				i := start + le32(es[0:4])
				o, pat, star := r.orderPattern(i)
				if o <= bo {
					break // the pair's rules left cannot beat the best
				}
				if star && matchStarred(pat, q.p) || !star && literalMatch(pat, pathLen) {
					bi, bo = i, o
					break
				}
			}
		}
		rank += uint32(bits.OnesCount64(b[w]))
	}
	return bi, bo
}

// admitted returns the first rule of a run, from its k-th on, whose probes
// the path has, or -1 when the run ends first. recs holds the probes and
// links of the run's rules and of those after it, 8 bytes a rule (see the
// top of this file). A loop of its own keeps its few values in registers:
// a query may pass over hundreds of wildcard rules here.
func (q *query) admitted(recs string, k int) int {
	const size = 4 * linkWords
	if size*k+size > len(recs) {
		return -1
	}
	// A record is one word of eight bytes: probes, then link.
	v := le64(recs[size*k:])
	if k > 0 && uint32(v>>32)&runBit == 0 {
		return -1 // the next run
	}
	if uint32(v) == 0 {
		return k
	}
	f := q.pairs()
	if f.admits(uint32(v)) {
		return k
	}
	// The rules after it, in a loop without calls that keeps its values
	// in registers.
	for o := size*k + size; o+size <= len(recs); o += size {
		v := le64(recs[o : o+size])
		if uint32(v>>32)&runBit == 0 {
			return -1 // the next run
		}
		if p := uint32(v); p == 0 || f.admits(p) {
			return o / size
		}
	}
	return -1
}

// sampled returns the rules between which the last rule whose literal
// prefix sorts at or before a path with head h lies, from the ns samples at
// word at: after the last sample whose head is below h, up to the first
// whose head is above it.
func (r *form) sampled(at, ns uint32, h uint64, start, end uint32) (lo, hi uint32) {
	head := func(k uint32) uint64 {
		s := r.words(at+2*k, 2)
		return uint64(le32(s[0:4]))<<32 | uint64(le32(s[4:8]))
	}
	// below: the first sample whose head is not below h.
	below, top := uint32(0), ns
	for below < top {
		m := uint32(uint(below+top) >> 1)
		if head(m) < h {
			below = m + 1
		} else {
			top = m
		}
	}
	above, top := below, ns
	for above < top {
		m := uint32(uint(above+top) >> 1)
		if head(m) <= h {
			above = m + 1
		} else {
			top = m
		}
	}
	lo, hi = start, end
	if below > 0 {
		lo = start + (below-1)*sampleStep + 1
	}
	if above < ns {
		hi = start + above*sampleStep
	}
	return lo, hi
}

// head returns the 8 bytes of the path from depth on, as headAt does.
func (p urlPath) head(depth int) uint64 {
	if !p.slash {
		return headAt(p.rest, depth)
	}
	if depth == 0 {
		return '/'<<56 | headAt(p.rest, 0)>>8
	}
	return headAt(p.rest, depth-1)
}

// compare compares the path with s, as strings.Compare does.
func (p urlPath) compare(s string) int {
	if !p.slash {
		return strings.Compare(p.rest, s)
	}
	switch {
	case s == "":
		return 1
	case s[0] != '/':
		if '/' < s[0] {
			return -1
		}
		return 1
	}
	return strings.Compare(p.rest, s[1:])
}

// commonPrefix returns the length of the longest common prefix of the path
// and s.
func (p urlPath) commonPrefix(s string) int {
	n := 0
	if p.slash {
		if s == "" || s[0] != '/' {
			return 0
		}
		s, n = s[1:], 1
	}
	return n + sharedPrefix(p.rest, s)
}

// sharedPrefix returns the length of the longest common prefix of a and b.
// It compares eight bytes at a time, the last word of the shorter read
// whole.
func sharedPrefix(a, b string) int {
	n := min(len(a), len(b))
	if n < 8 {
		i := 0
		for i < n && a[i] == b[i] {
			i++
		}
		return i
	}
	a, b = a[:n], b[:n]
	for i := 0; i+8 <= n; i += 8 {
		if x := le64(a[i:i+8]) ^ le64(b[i:i+8]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	// The bytes of the last word before those tested agree.
	if x := le64(a[n-8:]) ^ le64(b[n-8:]); x != 0 {
		return n - 8 + bits.TrailingZeros64(x)/8
	}
	return n
}
