package robotstxt

import (
	"slices"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file holds everything about user-agent names: how a User-agent value
// becomes a token at parse time, and how a caller's agent finds its token at
// query time (SPEC §4).

// ValidAgent reports whether agent is a valid product token: non-empty and
// made only of ASCII letters, '-' and '_'. Only such agents can name a
// specific group; Allowed compares the agent as given, so "Googlebot/2.1"
// matches no group and is answered by the global group.
func ValidAgent(agent string) bool { return grammar.IsToken(agent) }

// The names of a file are sorted as one integer each, which spares a
// comparison function call per pair: from the top, the token's length, its
// first six bytes (five bits each, in byte order: '-', '_', then the
// letters; zero past the end) and the index of the name. A token of
// nameLongLen bytes or more has that length and no bytes in its key: keys
// order by length first, and its own is longer than the key holds. The
// index is that of the name in builder.names. A name line holds at least
// ten bytes ("useragent:"), so the indexes of a file of maxFileLen bytes
// fit in nameIdxBits.
const (
	nameIdxBits = 26
	nameIdxMask = 1<<nameIdxBits - 1
	nameHead    = 6  // bytes of the token in a key
	nameLongLen = 63 // the largest length a key holds
)

var _ = uint(nameIdxMask - maxFileLen/10) // compiles only while the indexes fit

// nameCode holds the five bits of each byte of a token in a key: '-', '_',
// then the letters (tokens are lower case).
var nameCode = func() (t [256]uint8) {
	t['-'], t['_'] = 1, 2
	for c := 'a'; c <= 'z'; c++ {
		t[c] = uint8(c-'a') + 3
	}
	return t
}()

// nameKey returns the key of name i, whose token tok is lower case.
func nameKey(tok []byte, i int) uint64 {
	k := uint64(min(len(tok), nameLongLen))
	if len(tok) >= nameHead {
		if len(tok) >= nameLongLen {
			// No head: a longer token's bytes must not order it before
			// a shorter one (see grammar.CompareFold). The keys of such
			// tokens tie, and sortNames orders them by their bytes.
			return k<<(5*nameHead+nameIdxBits) | uint64(i)
		}
		// Most tokens: their first bytes, without a test each.
		t := tok[:nameHead]
		k = k<<30 | uint64(nameCode[t[0]])<<25 | uint64(nameCode[t[1]])<<20 | uint64(nameCode[t[2]])<<15 |
			uint64(nameCode[t[3]])<<10 | uint64(nameCode[t[4]])<<5 | uint64(nameCode[t[5]])
	} else {
		for j := range nameHead {
			k <<= 5
			if j < len(tok) {
				k |= uint64(nameCode[tok[j]])
			}
		}
	}
	return k<<nameIdxBits | uint64(i)
}

// keyHolds reports whether the key of a token of n bytes holds the whole
// token, so that two keys tie on such a token only when their tokens are
// equal; longer tokens need their bytes compared.
func keyHolds(n int) bool { return n <= nameHead }

// sortNames returns the names of the builder, as keys (see nameKey), in the
// order findAgent searches their tokens (see grammar.CompareFold), and names of one
// token in file order, which is group order.
func (b *builder) sortNames() []uint64 {
	// Room for all at once: growing by appends allocates five times as
	// much for many names.
	keys := slices.Grow(b.sort.keys[:0], len(b.names))[:len(b.names)]
	for i, nm := range b.names {
		keys[i] = nameKey(b.token(nm), i)
	}
	b.sort.keys = keys
	sortFew(keys)
	// Keys tie on tokens that differ past their first bytes only.
	tok := func(k uint64) []byte { return b.token(b.names[k&nameIdxMask]) }
	for a := 0; a < len(keys); {
		z := a + 1
		for z < len(keys) && keys[z]>>nameIdxBits == keys[a]>>nameIdxBits {
			z++
		}
		if z-a > 1 && !keyHolds(len(tok(keys[a]))) {
			slices.SortFunc(keys[a:z], func(x, y uint64) int {
				if c := grammar.CompareFold(tok(x), tok(y)); c != 0 {
					return c
				}
				return int(x&nameIdxMask) - int(y&nameIdxMask)
			})
		}
		a = z
	}
	return keys
}

// lenBit is the bit of compiledFile.lens for an agent or token of n bytes.
func lenBit(n int) uint64 { return 1 << min(uint(n), 63) }

// agentLens returns compiledFile.lens as r's agent records give it; finish and
// UnmarshalBinary both set it so.
func (r *compiledFile) agentLens() uint64 {
	base, n := r.agents()
	var lens uint64
	for i := range n {
		from, to := r.word(base+i*agentWords), r.word(base+(i+1)*agentWords)
		lens |= lenBit(int(to - from))
	}
	return lens
}

// Which groups decide for an agent (SPEC §4, RFC 9309 §2.2.1) is written
// here once: the groups that name it, merged, or, when no group names it,
// the groups that name "*" (decides states it for one group). It is
// applied to the two forms the groups come in: the compiled file's
// sorted agent records and group lists (groupsOf, and GroupFor for
// several agents), and the User-agent lines as the builder reads them,
// for the first question of a deferred parse (asking.counts). Agents are
// compared as grammar.CompareFold compares them in both (grammar.TokenIs
// for the lines).

// decides reports whether a group decides for an agent: whether it names
// the agent (own), or names "*" (global) when no group of the file names
// the agent (named is false).
func decides(named, own, global bool) bool { return own || !named && global }

// groupsOf returns the groups that decide for agent (see decides), from
// the compiled lists, which hold both sets: the agent's list when a group
// names it, else the list of those that name "*"; none when r has no
// records.
func (r *compiledFile) groupsOf(agent string) (at, n, merged uint32) {
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

// globalGroup returns the merged groups that name "*".
func (r *compiledFile) globalGroup() Group {
	if !r.hasWords() {
		return Group{r: r}
	}
	at, n, merged := r.globalList(r.word(hLists))
	return Group{r: r, at: at, n: n, merged: merged}
}

// globalList returns the groups that name "*", from the group lists that
// start at word lists: theirs is the first list (see layout.go).
func (r *compiledFile) globalList(lists uint32) (at, n, merged uint32) { return r.list(lists) }

// findAgent returns the agent of r that agent names, by ASCII
// case-insensitive equality. An agent with a byte outside [A-Za-z_-] equals
// no token, and the search finds none for it.
func (r *compiledFile) findAgent(agent string) (uint32, bool) {
	if !r.hasWords() {
		return 0, false
	}
	base, n := r.agents()
	return r.searchAgent(agent, base, n)
}

// searchAgent is findAgent over the n agent records from word base.
func (r *compiledFile) searchAgent(agent string, base, n uint32) (uint32, bool) {
	if r.lens&lenBit(len(agent)) == 0 {
		// No token has the agent's length: it names none (tokens are
		// ordered, and equal, by length first).
		return 0, false
	}
	// The agent records, and the word after them, which holds where the
	// last token ends, read in one piece: a token ends where the next
	// begins (see layout.go).
	recs := r.words(base, n*agentWords+1)
	lo, hi := 0, int(n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		rec := recs[m*4*agentWords : m*4*agentWords+4*agentWords+4]
		from, to := le32(rec[0:4]), le32(rec[4*agentWords:])
		// Tokens are ordered by length first (see grammar.CompareFold):
		// most comparisons end there.
		c := len(agent) - int(to-from)
		if c == 0 {
			c = grammar.CompareFold(agent, r.text[from:to])
		}
		switch {
		case c == 0:
			return uint32(m), true
		case c > 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}
