package robotstxt

// The scan strategy (see engine.go): a group with an index that no query
// has built yet keeps its rules in file order, and the first query that
// reaches it tests each that could beat the best so far (see
// compiledFile.index).

// scan is walk for the rules [start, end) of a group with an index that no
// query has built yet, which are in file order: each rule that would take
// precedence over the best so far is tested.
func (r *compiledFile) scan(start, end uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
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
