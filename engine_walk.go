package robotstxt

// The walk strategy (see engine.go): the groups without an index, laid out
// by key (see sortLayout), walked in precedence order.

// walk is the strategy for a group laid out by key (see sortLayout): its
// rules [wild, wildEnd) may match any path, and [wildEnd, end) are sorted
// by key, each part in precedence order. It returns the rule that decides
// among them and the best so far, rule bi of order bo (see decideGroup).
// Be careful when changing it: it is the inner loop of Allowed.
func (r *compiledFile) walk(wild, wildEnd, end uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
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

// matchesAt reports whether the pattern of rule i matches the query's
// path.
func (r *compiledFile) matchesAt(i uint32, q *query) bool {
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
