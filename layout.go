package robotstxt

import (
	"encoding/binary"
	"sort"
	"unsafe"
)

// This file says how a parsed file is stored. A crawler keeps millions of
// them, so a Robots is one string, whatever the file: it holds every byte
// the file keeps (patterns, agent tokens, other keys and values, sitemaps),
// followed by fixed-size records that refer into it by offset, as 32-bit
// little-endian words from wordsAt on. The builder in parse.go works with
// the typed records below and encodes them once, in finish.
//
// A file with no groups and no sitemaps keeps nothing: it has no words.
//
// The first words say where their sections start; each section ends where
// the next starts:
//
//	header                        6 words: where groups, agents, lists, raws,
//	                              others and usage start
//	rules                         2 words a rule (see packRule); then one
//	                              word: where the patterns end
//	groups                        2 words a group: start, wild, where wild is
//	                              idxBit | start for a group with an index
//	                              (see index.go), and has copyBit for a
//	                              merged copy; a closing record holds the
//	                              totals; the merged copies come last
//	agents                        2 words an agent: token offset, groups;
//	                              a closing record holds where tokens end
//	lists                         group lists: a count, then group indexes,
//	                              then, when the count has mergedBit, the
//	                              index of the merged copy of its groups;
//	                              the global ("*") list comes first
//	raws                          2 words a rule whose value as written is
//	                              not its pattern: rule index, offset
//	usage                         4 words a Content-Usage or Content-Signal
//	                              line (see packUsage), in the order of the
//	                              others
//	others                        4 words a line: off, line, keyN | valN<<16,
//	                              group; the groups' lines in group order,
//	                              then the lines before the first group
//	                              (group preamble), then the sitemaps (group
//	                              noGroup)
//
// The text before the words starts with the rules' patterns, final '$'
// included, in rule order, each pattern with a '*' followed by its 4 bytes
// of probes (see patternProbes), so a pattern ends where the next begins,
// or 4 bytes before. The probes are 0, which every path admits, for a rule
// whose pattern starts with '/' and a literal byte: only the paths of its
// key meet it in a walk by key (see probesPay); an index keeps the probes
// of all its rules itself. Then
// come the values as written that differ from their patterns (two bytes of
// length, then the bytes), the other lines' keys and values and the
// sitemaps, and last the agent tokens in the order of the agents, so a
// token too ends where the next begins. An agent's groups word is the index of its
// only group, or listBit | the offset of its list.
//
// Rule records are 8 bytes because most robots.txt lines are short: with a
// 2-byte length, a key byte and flags of their own they would outweigh the
// lines they stand for (go test -run XXX -bench Corpus/retained . reports
// the heap kept per byte of source).

// listBit marks an agent's groups word as the offset of a list.
const listBit = 1 << 31

// Indexes of the header words.
const (
	hGroups = iota
	hAgents
	hLists
	hRaws
	hOthers
	hUsage
	headerWords
)

// sections lists the sections that follow the rules, in the order encode
// writes them, each with its header word and the size of its records in
// words, or 0 when they vary. A section ends where the next one starts, the
// last where the words end.
var sections = [...]struct {
	h    uint32
	size uint32
}{
	{hGroups, groupWords},
	{hAgents, agentWords},
	{hLists, 0},
	{hRaws, rawWords},
	{hUsage, usageWords},
	{hOthers, otherWords},
}

// sectionEnd returns the word where section h ends: where the next one of
// sections starts, or where the words end.
func (r *form) sectionEnd(h uint32) uint32 {
	for k := 0; k+1 < len(sections); k++ {
		if sections[k].h == h {
			return r.word(sections[k+1].h)
		}
	}
	return uint32(len(r.text)-int(r.wordsAt)) / 4
}

// idxBit marks the wild word of a group with an index (see index.go),
// which a query searches when the walk by key would meet more than walkMax
// of its rules, or always when the word has idxAlways too (the groups of a
// test's builder, see builder.indexMin). copyBit marks the wild word of a
// merged copy.
const (
	idxBit    = 1 << 31
	copyBit   = 1 << 30
	idxAlways = 1 << 29
)

// mergedBit marks the count of a group list that is followed by the index
// of its merged copy.
const mergedBit = 1 << 31

// mergeMin is the number of groups from which the groups of a list are
// also merged into one copy that queries ask instead, so that a query
// costs one group's search, not one per group: some files name one
// crawler in hundreds of one-rule groups. The copies of a file hold at most
// twice as many rules as the file (see builder.addList).
const mergeMin = 8

// noGroup is the group of a sitemap among the others, and preamble that of
// an other line before the first group.
const (
	noGroup  = 1<<32 - 1
	preamble = noGroup - 1
)

// Sizes of the records, in words.
const (
	ruleWords  = 2
	groupWords = 2
	agentWords = 2
	rawWords   = 2
	otherWords = 4
	usageWords = 4
)

// The bit fields of a rule record. Its first word holds the offset of the
// pattern in the text and the Allow flag:
//
//	bits 0-30   offset (ruleOffBits)
//	bit  31     allow
//
// its second the line and three flags:
//
//	bits 0-28   line (ruleLineBits)
//	bit  29     star: the pattern has a '*' and is followed by its probes
//	bit  30     rawApart: the value as written is a record of the raws
//	bit  31     index: the "/index.htm" fallback of an Allow rule
//
// The word after the last rule holds where the patterns end, in the same
// field as an offset, so that a pattern ends where the next one's offset
// says. Only the functions below read or write these bits.
const (
	ruleOffBits  = 31
	ruleLineBits = 29

	ruleOffMask   = 1<<ruleOffBits - 1
	ruleAllowBit  = 1 << ruleOffBits
	ruleLineMask  = 1<<ruleLineBits - 1
	ruleStarBit   = 1 << ruleLineBits
	ruleRawBit    = ruleStarBit << 1
	ruleIndexBit  = ruleRawBit << 1
	maxRuleOffset = ruleOffMask
	maxRuleLine   = ruleLineMask
)

// A file Parse reads whole keeps every offset and line within its field:
// escaping triples a pattern at most, and a line takes a byte at least.
// These fail to compile when a bound stops holding.
const (
	_ = uint32(maxRuleOffset - 3*maxFileLen)
	_ = uint32(maxRuleLine - maxFileLen)
)

// The bit fields of a usage record (a Content-Usage or Content-Signal line,
// see usage.go), four words:
//
//	word 0   bits 0-30 offset of the normalised pattern (ruleOffBits),
//	         bit 31 signal: a Content-Signal line, else Content-Usage
//	word 1   bits 0-28 line (ruleLineBits), bit 29 anchored: the pattern
//	         ended in '$', which the text leaves out
//	word 2   group, or preamble
//	word 3   bits 0-15 pattern length, bits 16-31 the preferences: two
//	         bits a category or signal (usagePrefBits), in the order of
//	         usage_vocab.go, each a Pref
const (
	usageSignalBit   = 1 << ruleOffBits
	usageAnchoredBit = 1 << ruleLineBits
	usageLenBits     = 16
	usageLenMask     = 1<<usageLenBits - 1
	usagePrefBits    = 2
	usagePrefMask    = 1<<usagePrefBits - 1
	maxUsagePrefs    = (32 - usageLenBits) / usagePrefBits
)

// usageRec is a usage record, decoded.
type usageRec struct {
	off      uint32 // pattern, without a final '$', at text[off:off+n]
	n        uint16
	line     uint32
	group    uint32
	signal   bool
	anchored bool
	prefs    uint16 // usagePrefBits a category or signal
}

// packUsage returns the words of a usage record.
func packUsage(u usageRec) [usageWords]uint32 {
	w := [usageWords]uint32{u.off & ruleOffMask, u.line & ruleLineMask, u.group, uint32(u.n) | uint32(u.prefs)<<usageLenBits}
	if u.signal {
		w[0] |= usageSignalBit
	}
	if u.anchored {
		w[1] |= usageAnchoredBit
	}
	return w
}

// unpackUsage decodes the words of a usage record.
func unpackUsage(w0, w1, w2, w3 uint32) usageRec {
	return usageRec{
		off:      w0 & ruleOffMask,
		signal:   w0&usageSignalBit != 0,
		line:     w1 & ruleLineMask,
		anchored: w1&usageAnchoredBit != 0,
		group:    w2,
		n:        uint16(w3 & usageLenMask),
		prefs:    uint16(w3 >> usageLenBits),
	}
}

// prefAt returns the preference for category or signal i of prefs.
func prefAt(prefs uint16, i int) Pref {
	return Pref(prefs >> (usagePrefBits * i) & usagePrefMask)
}

// withPref returns prefs with the preference for category or signal i set
// to p.
func withPref(prefs uint16, i int, p Pref) uint16 {
	sh := usagePrefBits * i
	return prefs&^(usagePrefMask<<sh) | uint16(p)<<sh
}

// The preferences of every category and every signal fit a usage record.
const (
	_ = uint(maxUsagePrefs - NumCategories)
	_ = uint(maxUsagePrefs - NumSignals)
)

// numUsage returns where the usage records start, and their number.
func (r *form) numUsage() (base, n uint32) {
	if !r.hasWords() {
		return 0, 0
	}
	base = r.word(hUsage)
	return base, (r.sectionEnd(hUsage) - base) / usageWords
}

// usageAt returns usage record i of those from word base (see numUsage).
func (r *form) usageAt(base, i uint32) usageRec {
	s := r.words(base+i*usageWords, usageWords)
	return unpackUsage(le32(s[0:4]), le32(s[4:8]), le32(s[8:12]), le32(s[12:16]))
}

// usageGroup returns the group of usage record i of those from word base.
func (r *form) usageGroup(base, i uint32) uint32 {
	return r.word(base + i*usageWords + 2)
}

// usagePattern returns the pattern of a usage record, without its '$'.
func (r *form) usagePattern(u usageRec) string { return r.text[u.off : u.off+uint32(u.n)] }

// textLen returns the bytes the pattern of ru takes in the text: the
// pattern, its '$', and the probes that follow a pattern with a '*'.
func (ru *rule) textLen() int {
	return ru.priority() + int(ru.flags&ruleStar/ruleStar)*filterLen
}

// packRule returns the two words of a rule record.
func packRule(off, line uint32, flags ruleFlags) (w0, w1 uint32) {
	w0 = off & ruleOffMask
	if flags&ruleAllow != 0 {
		w0 |= ruleAllowBit
	}
	w1 = line & ruleLineMask
	if flags&ruleStar != 0 {
		w1 |= ruleStarBit
	}
	if flags&ruleRawApart != 0 {
		w1 |= ruleRawBit
	}
	if flags&ruleIndex != 0 {
		w1 |= ruleIndexBit
	}
	return w0, w1
}

// ruleFlagWords holds, for each ruleFlags, the bits packRule sets for them
// in the two words of a rule record, so that encode sets them with an OR.
var ruleFlagWords = func() (t [1 << 8][2]uint32) {
	for f := range t {
		t[f][0], t[f][1] = packRule(0, 0, ruleFlags(f))
	}
	return t
}()

// recOff returns the pattern offset of a rule record's first word, or where
// the patterns end from the word after the last rule.
func recOff(w0 uint32) uint32 { return w0 & ruleOffMask }

// recLine returns the line of a rule record's second word.
func recLine(w1 uint32) uint32 { return w1 & ruleLineMask }

// recStar reports whether a rule record's second word has the star flag.
func recStar(w1 uint32) bool { return w1&ruleStarBit != 0 }

// recRawApart reports whether a rule record's second word has the rawApart
// flag.
func recRawApart(w1 uint32) bool { return w1&ruleRawBit != 0 }

// recFlags returns the flags of a rule record, all but ruleAnchored, which
// the pattern's final '$' says.
func recFlags(w0, w1 uint32) ruleFlags {
	flags := ruleFlags(w0>>ruleOffBits) * ruleAllow
	if w1&ruleStarBit != 0 {
		flags |= ruleStar
	}
	if w1&ruleRawBit != 0 {
		flags |= ruleRawApart
	}
	if w1&ruleIndexBit != 0 {
		flags |= ruleIndex
	}
	return flags
}

// group is one group of the file: the rules and other lines between its
// User-agent lines and the next group's. Its rules run from start to the next
// group's start.
//
// The rules are in two parts (see sortLayout): [start:wild] have key 0 and
// may match any path; the rest are sorted by key, so a path "/c..." needs to
// look only at the rules with key c, found by binary search. A group with
// an index (see builder.indexes) keeps its rules in file order instead, and
// wild is idxBit | start: queries search its index once one is built (see
// compiledFile.index).
type group struct {
	start, wild uint32 // rule indexes
}

// other is a line of a group with a key other than user-agent, allow,
// disallow and sitemap, or a sitemap (keyN 0, group noGroup). Its key is at
// text[off:off+keyN], and its value follows.
type other struct {
	off        uint32
	line       uint32
	keyN, valN uint16
	group      uint32
}

// words returns n words of the records from word k, as bytes. Slicing at an
// int offset to a constant length costs one bounds check, and none for the
// reads that follow (see le32).
func (r *form) words(k, n uint32) string {
	i := int(r.wordsAt) + 4*int(k)
	return r.text[i : i+4*int(n)]
}

// le32 decodes the little-endian word that s starts with; the four loads
// become one.
func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// word returns word k of the records.
func (r *form) word(k uint32) uint32 { return le32(r.words(k, 1)) }

// hasWords reports whether r keeps any records.
func (r *form) hasWords() bool { return int(r.wordsAt) < len(r.text) }

// ruleWords3 returns the two words of rule i and where its pattern ends,
// read from the first word of the next with one bounds check: a pattern
// with a '*' is followed by its probes (see patternProbes). It is too large
// to inline: the query's functions (matchesAt, orderPattern,
// compareLiteral, scan) read the three words themselves, and share recEnd.
func (r *form) ruleWords3(i uint32) (w0, w1, end uint32) {
	s := r.words(headerWords+i*ruleWords, ruleWords+1)
	w0, w1 = le32(s[0:4]), le32(s[4:8])
	return w0, w1, recEnd(w1, le32(s[8:12]))
}

// recEnd returns where the pattern of a rule ends, from the second word of
// its record and the first word of the next record: where the next pattern
// begins, less the probes that follow a pattern with a '*' (see
// patternProbes).
func recEnd(w1, next uint32) uint32 {
	return recOff(next) - filterLen*(w1>>ruleLineBits&1)
}

// pattern returns the normalised pattern of rule i, final '$' included.
func (r *form) pattern(i uint32) string {
	w0, _, end := r.ruleWords3(i)
	return r.text[recOff(w0):end]
}

// rule decodes rule i, all but its key (see ruleKey).
func (r *form) rule(i uint32) rule {
	w0, w1, end := r.ruleWords3(i)
	off := recOff(w0)
	lit := r.text[off:end]
	flags := recFlags(w0, w1)
	if n := len(lit); n > 0 && lit[n-1] == '$' {
		lit = lit[:n-1]
		flags |= ruleAnchored
	}
	return rule{off: off, line: recLine(w1), n: uint16(len(lit)), flags: flags, i: i}
}

// keyedKey returns the key of rule i, which is among the keyed rules of its
// group: its pattern is '/', the key, and more.
func (r *form) keyedKey(i uint32) byte {
	return r.text[recOff(r.word(headerWords+i*ruleWords))+1]
}

// rawValue returns the value as written of rule i, which has one apart from
// its pattern.
func (r *form) rawValue(i uint32) string {
	// The records are in rule order.
	base := r.word(hRaws)
	count := (r.sectionEnd(hRaws) - base) / rawWords
	k := base + uint32(sort.Search(int(count), func(j int) bool { return r.word(base+uint32(j)*rawWords) >= i }))*rawWords
	off := r.word(k + 1)
	n := uint32(r.text[off]) | uint32(r.text[off+1])<<8
	return r.text[off+2 : off+2+n]
}

func (r *form) numGroups() uint32 {
	if !r.hasWords() {
		return 0
	}
	return (r.word(hAgents)-r.word(hGroups))/groupWords - 1
}

// group returns group i; group numGroups() is the closing record, whose
// start is the number of rules.
func (r *form) group(i uint32) group {
	k := r.word(hGroups) + i*groupWords
	return group{start: r.word(k), wild: r.word(k + 1)}
}

// groupRules returns where the rules of group i start, where its keyed
// rules start, and where they end.
func (r *form) groupRules(i uint32) (start, wild, end uint32) {
	s := r.words(r.word(hGroups)+i*groupWords, groupWords+1)
	return le32(s[0:4]), le32(s[4:8]) &^ copyBit, le32(s[4*groupWords:])
}

// isCopy reports whether group i is the merged copy of the groups of a
// list (see mergeMin), rather than a group of the file.
func (r *form) isCopy(i uint32) bool {
	return r.word(r.word(hGroups)+i*groupWords+1)&copyBit != 0
}

// agents returns the word where the agent records start, and their number.
func (r *form) agents() (base, n uint32) {
	if !r.hasWords() {
		return 0, 0
	}
	base = r.word(hAgents)
	return base, agentCount(base, r.word(hLists))
}

// agentCount returns the number of agent records from word base when the
// lists start at word lists: the records end with a closing one.
func agentCount(base, lists uint32) uint32 { return (lists-base)/agentWords - 1 }

// agentGroups returns where the indexes of the groups that name agent i
// are, n words from word at, and their merged copy + 1, or 0.
func (r *form) agentGroups(i uint32) (at, n, merged uint32) {
	return r.agentGroupsFrom(r.word(hAgents), r.word(hLists), i)
}

// agentGroupsFrom is agentGroups when the agent records start at word base
// and the lists at word lists.
func (r *form) agentGroupsFrom(base, lists, i uint32) (at, n, merged uint32) {
	a := base + i*agentWords + 1
	if g := r.word(a); g&listBit != 0 {
		return r.list(lists + g&^listBit)
	}
	return a, 1, 0
}

// list returns where the group list at word k is, n words from word at,
// and the list's merged copy + 1, or 0 when it has none.
func (r *form) list(k uint32) (at, n, merged uint32) {
	n = r.word(k)
	if n&mergedBit != 0 {
		n &^= mergedBit
		return k + 1, n, r.word(k+1+n) + 1
	}
	return k + 1, n, 0
}

func (r *form) numOthers() uint32 {
	if !r.hasWords() {
		return 0
	}
	return ((uint32(len(r.text))-r.wordsAt)/4 - r.word(hOthers)) / otherWords
}

func (r *form) other(i uint32) other {
	k := r.word(hOthers) + i*otherWords
	return other{off: r.word(k), line: r.word(k + 1), keyN: uint16(r.word(k + 2)), valN: uint16(r.word(k+2) >> 16), group: r.word(k + 3)}
}

// others calls f for each other line of group id, or for each sitemap when
// id is noGroup. They are found by binary search: most groups have none.
func (r *form) others(id uint32, f func(other)) {
	n := r.numOthers()
	first := sort.Search(int(n), func(j int) bool { return r.other(uint32(j)).group >= id })
	for i := uint32(first); i < n; i++ {
		o := r.other(i)
		if o.group != id {
			break
		}
		f(o)
	}
}

func (r *form) otherKey(o other) string { return r.text[o.off : o.off+uint32(o.keyN)] }

func (r *form) otherValue(o other) string {
	v := o.off + uint32(o.keyN)
	return r.text[v : v+uint32(o.valN)]
}

// encode lays out what the builder collected as the text of a Robots and
// where its words start, with pats the bytes of the patterns and toks those
// of the agents' tokens: the builder's rules in
// their final order, its groups ending with a closing record, and its others
// ending with the sitemaps.
//
// The size of every section is known before a byte is written, so the text
// and the words are written once, each at its place, into one slice of the
// exact size, which becomes the string without a copy (see unsafe.String
// below).
func (b *builder) encode(agents []agentEntry, lists []uint32, pats, toks int) (wordsAt uint32, text string) {
	var l sectionStarts
	l.pats = pats
	if len(b.raws) > 0 {
		for i := range b.rules {
			l.nRaws += int(b.rules[i].flags & ruleRawApart / ruleRawApart)
		}
	}
	// Where the text's parts start, in bytes, and the sections, in words.
	l.base = pats + len(b.raws)
	l.wordsAt = l.base + len(b.text) + toks
	l.groups = headerWords + len(b.rules)*ruleWords + 1
	l.agents = l.groups + len(b.groups)*groupWords
	l.lists = l.agents + (len(agents)+1)*agentWords
	l.raws = l.lists + len(lists)
	l.usage = l.raws + l.nRaws*rawWords
	l.others = l.usage + len(b.usage)*usageWords
	buf := make([]byte, l.wordsAt+4*(l.others+len(b.others)*otherWords))
	b.writeRules(buf, buf[l.wordsAt+4*headerWords:l.wordsAt+4*(l.groups-1)])
	b.encodeRest(buf, &l, agents, lists)
	// buf is not written after this, and no one else holds it: the string
	// is immutable as strings are. Converting it with string(buf) would
	// allocate and copy the whole file a second time.
	return uint32(l.wordsAt), unsafe.String(unsafe.SliceData(buf), len(buf))
}

// sectionStarts says where the parts of the text start, in bytes, and the
// sections of the words, in words (see layout.go's table).
type sectionStarts struct {
	pats, base, wordsAt                        int // bytes
	groups, agents, lists, raws, usage, others int // words
	nRaws                                      int
}

// writeRules writes the rules' records to recs and their patterns to buf
// from its start. A function of its own, its loop has fewer values to keep.
func (b *builder) writeRules(buf, recs []byte) {
	at, rules := 0, b.rules
	for i := range rules {
		// The fields in locals, read once: the stores below might alias
		// the rules.
		ru := &rules[i]
		off, n, line, flags, probes := int(ru.off), int(ru.n), ru.line, ru.flags, ru.probes
		fw := ruleFlagWords[flags]
		binary.LittleEndian.PutUint64(recs[8*i:8*i+8], uint64(uint32(at)|fw[0])|uint64(line&ruleLineMask|fw[1])<<32)
		from := b.src
		if flags&ruleEscaped != 0 {
			from = b.pats
		}
		// The pattern (see copyAt), then its '$' and probes, written
		// whether it has them or not. What is written past a rule's text
		// is written over later: the rules in order, then the rest of
		// the text, the header of the words last (see headerCovers).
		at = copyAt(buf, at, from, off, n)
		buf[at] = '$'
		at += int(flags & ruleAnchored / ruleAnchored)
		binary.LittleEndian.PutUint32(buf[at:at+filterLen], probes)
		at += int(flags&ruleStar/ruleStar) * filterLen
	}
}

// encodeRest writes what follows the rules' patterns and records.
func (b *builder) encodeRest(buf []byte, l *sectionStarts, agents []agentEntry, lists []uint32) {
	text, w := buf[:l.wordsAt], buf[l.wordsAt:]
	put := func(k int, x uint32) { binary.LittleEndian.PutUint32(w[4*k:4*k+4], x) }
	// Two words of a record with one store.
	put2 := func(k int, x, y uint32) { binary.LittleEndian.PutUint64(w[4*k:4*k+8], uint64(x)|uint64(y)<<32) }
	pats, base := l.pats, l.base
	put(l.groups-1, uint32(pats))
	if l.nRaws > 0 {
		raw := l.raws
		for i := range b.rules {
			if ru := &b.rules[i]; ru.flags&ruleRawApart != 0 {
				put(raw, uint32(i))
				put(raw+1, uint32(pats)+ru.raw)
				raw += rawWords
			}
		}
	}
	copy(text[pats:], b.raws)
	copy(text[base:], b.text)

	for k, g := range b.groups {
		put2(l.groups+k*groupWords, g.start, g.wild)
	}
	// The tokens are read up to their room: the 16 bytes of a short
	// token's copy are there even at the end.
	at, toks := base+len(b.text), b.tokens[:cap(b.tokens)]
	for k, a := range agents {
		put2(l.agents+k*agentWords, uint32(at), a.groups)
		at = copyAt(buf, at, toks, int(a.token), int(a.n))
	}
	put(l.lists-agentWords, uint32(at)) // the closing record; its groups word is 0
	put(hGroups, uint32(l.groups))
	put(hAgents, uint32(l.agents))
	put(hLists, uint32(l.lists))
	put(hRaws, uint32(l.raws))
	put(hUsage, uint32(l.usage))
	put(hOthers, uint32(l.others))
	putWords(w[4*l.lists:], lists)
	for k, u := range b.usage {
		u.off += uint32(base)
		for j, x := range packUsage(u) {
			put(l.usage+k*usageWords+j, x)
		}
	}
	for k, o := range b.others {
		put2(l.others+k*otherWords, uint32(base)+o.off, o.line)
		put2(l.others+k*otherWords+2, uint32(o.keyN)|uint32(o.valN)<<16, o.group)
	}
}

// headerCovers holds while the header of the words, which encodeRest writes
// last, is as long as a copy16: the last pattern's or token's copy, and the
// '$' and probes written after the last pattern, which may run past the
// text when nothing follows them, end within the header. This fails to
// compile when it stops holding.
const headerCovers = uint(4*headerWords - 16)

// copyAt copies s[off:off+n] into d at at and returns where it ends. Up
// to 16 bytes are copied as 16, with two loads and two stores and no call,
// when both slices have room for them: the bytes past n must be written
// over later (see headerCovers).
func copyAt(d []byte, at int, s []byte, off, n int) int {
	if n <= 16 && off+16 <= len(s) && at+16 <= len(d) {
		copy16(d[at:at+16:at+16], s[off:off+16:off+16])
		return at + n
	}
	return at + copy(d[at:], s[off:off+n])
}

// copy16 copies the 16 bytes of s to d with two loads and two stores.
func copy16(d, s []byte) {
	binary.LittleEndian.PutUint64(d[0:8], binary.LittleEndian.Uint64(s[0:8]))
	binary.LittleEndian.PutUint64(d[8:16], binary.LittleEndian.Uint64(s[8:16]))
}

// putWords writes the words v at the start of d, two with each store.
func putWords(d []byte, v []uint32) {
	d = d[:4*len(v)]
	for ; len(v) >= 2; v = v[2:] {
		binary.LittleEndian.PutUint64(d, uint64(v[0])|uint64(v[1])<<32)
		d = d[8:]
	}
	if len(v) == 1 {
		binary.LittleEndian.PutUint32(d, v[0])
	}
}
