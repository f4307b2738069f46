package robotstxt

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sync"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/observe"
)

// Known keys spelled out in full, as little-endian words of their first
// eight bytes, for quickDirective.
var (
	wordDisallow  = binary.LittleEndian.Uint64([]byte("disallow"))
	wordAllow     = binary.LittleEndian.Uint64([]byte("allow:\x00\x00"))
	wordUserAgent = binary.LittleEndian.Uint64([]byte("user-age"))
	wordSitemap   = binary.LittleEndian.Uint64([]byte("sitemap:"))
)

// quickDirective recognises the usual shape of a line, a directive's key
// spelled out in full, in any case, right before the colon at the start of
// the line: "Disallow: /x". It returns the key's kind, as classifyKey
// would, and its length n, or 0 for any other line, which takes the
// general path: the key split would find is raw[:n], and its value
// directiveValue(raw[n+1:]). The value is left to the caller, which needs
// none for a rule no query reads (see builder.askRule). The line must hold
// no NUL and no '#' (see lexer.mayNUL).
//
// Setting bit 0x20 of a byte folds it to lower case: only the upper-case
// letter and the letter itself become a given lower-case letter, and only
// CR, which a line never holds, becomes '-' with it.
func quickDirective(raw []byte) (kind grammar.Key, n int) {
	if len(raw) < 8 || len(raw) > maxLineLen {
		return grammar.KeyOther, 0
	}
	const fold = 0x2020202020202020
	v := binary.LittleEndian.Uint64(raw)
	switch {
	case v|fold == wordDisallow:
		kind, n = grammar.KeyDisallow, 8
	case v&(1<<48-1)|fold>>24 == wordAllow:
		kind, n = grammar.KeyAllow, 5
	case v|fold == wordUserAgent && len(raw) > 10 && raw[8]|0x20 == 'n' && raw[9]|0x20 == 't':
		kind, n = grammar.KeyUserAgent, 10
	case v|fold>>8 == wordSitemap:
		kind, n = grammar.KeySitemap, 7
	default:
		return grammar.KeyOther, 0
	}
	if len(raw) <= n || raw[n] != ':' {
		return grammar.KeyOther, 0
	}
	return kind, n
}

// directiveValue returns the value of a line that quickDirective takes,
// from rest, the line past the colon: rest trimmed.
func directiveValue(rest []byte) []byte {
	// The value usually starts with one space and ends with no space.
	for len(rest) > 0 && grammar.IsSpace(rest[0]) {
		rest = rest[1:]
	}
	for len(rest) > 0 && grammar.IsSpace(rest[len(rest)-1]) {
		rest = rest[:len(rest)-1]
	}
	return rest
}

// builder collects what Parse keeps while the lines go by.
type builder struct {
	src []byte // the file; patterns that need no escaping are read from it

	*scratch            // the slices the parse fills (see scratch), from the pool
	hasRules bool       // whether the current group has seen an Allow or Disallow line
	indexMin int        // groups with this many rules or more are indexed
	copied   uint32     // rules copied into merged groups (see addList)
	obs      *observing // reports each line, or nil (see parse_observe.go)
	ask      asking     // the one query the lines answer, if ask.on (see lazy.go)
}

type agentName struct {
	off, n uint32 // in builder.tokens
	group  uint32
}

// token returns the token of a name.
func (b *builder) token(nm agentName) []byte { return b.tokens[nm.off : nm.off+nm.n] }

// agentEntry is one distinct token of the file and its groups word (see
// layout.go).
type agentEntry struct {
	token, n uint32 // in builder.tokens
	groups   uint32
}

// maxFileLen bounds what Parse reads, so that every offset into the text of
// a Robots fits in 31 bits even when every byte is %-escaped, and every line
// number in 29 (see layout.go). Crawlers read at most 500 KiB of a
// robots.txt; a file five hundred times larger is not one.
const maxFileLen = observe.MaxFileLen

func parse(data []byte) *Robots { return parseLines(data, indexMin, nil) }

// parseWith is parse with the number of rules from which a group is
// indexed; tests lower it to index every group.
func parseWith(data []byte, indexMin int) *Robots { return parseLines(data, indexMin, nil) }

// parseLines is the one loop over the lines of a file. With obs set, it
// reports each line to obs once the builder has taken it (see
// parse_observe.go); Parse passes none, and pays one test a line.
func parseLines(data []byte, indexMin int, obs *observing) *Robots {
	// The parse reads nothing past the file, not even in the room of the
	// caller's slice beyond it (see headBytes).
	data = data[:min(len(data), maxFileLen):min(len(data), maxFileLen)]
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	var b builder
	b.init(sc, data, indexMin)
	b.obs = obs
	b.read()
	return b.finish()
}

// read reads the lines of the builder's file into it.
func (b *builder) read() {
	lx := newLexer(b.src)
	if b.obs != nil {
		lx.searchEachCR()
	}
	b.lines(&lx)
	if !lx.sound() {
		// A CR that ends no CR LF: the lines were not the file's.
		b.reset()
		b.hasRules = false
		if b.ask.on {
			b.ask.restart()
		}
		lx = newLexer(b.src)
		lx.searchEachCR()
		b.lines(&lx)
	}
}

// lines reads the lines of lx into b.
func (b *builder) lines(lx *lexer) {
	for {
		raw, ok := lx.next()
		if !ok {
			break
		}
		if len(raw) == 0 {
			// A blank line: a fifth of the lines of the corpus.
			if b.obs != nil {
				b.seen(lx.num, raw, nil, nil, grammar.KeyOther, 0, false)
			}
			continue
		}
		if c := raw[0]; c|0x20 < 'a' {
			// No letter first, so no key that quickDirective reads:
			// whitespace, '<' (an HTML page served as robots.txt), a
			// comment.
			if c == '#' && b.obs == nil {
				// A comment line, which holds no key (see split). An
				// observer is told what split finds, the line's flags.
				continue
			}
		} else if !lx.mayNUL && !lx.mayHash {
			if kind, n := quickDirective(raw); n != 0 {
				switch {
				case kind == grammar.KeyDisallow || kind == grammar.KeyAllow:
					// What line does with a rule, without its switch:
					// most lines are rules.
					if b.ask.on {
						b.askRule(uint32(lx.num), kind == grammar.KeyAllow, raw, n+1)
					} else {
						b.addRule(uint32(lx.num), kind == grammar.KeyAllow, directiveValue(raw[n+1:]))
					}
				default:
					b.line(uint32(lx.num), kind, raw[:n], directiveValue(raw[n+1:]))
				}
				if b.obs != nil {
					b.seen(lx.num, raw, raw[:n], directiveValue(raw[n+1:]), kind, 0, false)
				}
				continue
			}
		}
		if b.obs == nil && b.keepsNothing(raw) {
			continue
		}
		key, value, flags, ok := split(raw, lx.mayNUL, lx.mayHash)
		if !ok {
			if b.obs != nil {
				b.seen(lx.num, raw, nil, nil, grammar.KeyOther, flags, false)
			}
			continue
		}
		kind, typo := grammar.ClassifyKey(key)
		b.line(uint32(lx.num), kind, key, value)
		if b.obs != nil {
			b.seen(lx.num, raw, key, value, kind, flags, typo)
		}
	}
}

// keepsNothing reports whether b would keep nothing of raw, a line that is
// no quick directive, judged by its first byte past the whitespace alone,
// so that lines does not split it. It is false once the file has a group,
// where a line of two tokens is kept whatever its key (see line), unless a
// query reads the lines: a query reads the directives alone, whose keys
// start with a few letters (grammar.MayStartKey). Before the first group,
// a key is kept only when it is made of token bytes or is a directive's,
// which starts with a letter. Most lines it passes over are of HTML pages
// served as robots.txt, which open no group and start with '<' or
// whitespace. An observer sees every line as split reads it, so lines
// asks only when none is attached.
func (b *builder) keepsNothing(raw []byte) bool {
	if len(b.groups) != 0 && !b.ask.on {
		return false
	}
	i := grammar.LeadingSpace(raw)
	if i == len(raw) || i >= maxLineLen {
		return true // an empty line once cut at maxLineLen (see split)
	}
	if b.ask.on {
		return !grammar.MayStartKey(raw[i])
	}
	return !grammar.IsTokenByte(raw[i])
}

// init makes b, in place (a builder is large), a builder for data with the
// scratch space sc, taken from the pool; sc.release gives it back.
func (b *builder) init(sc *scratch, data []byte, indexMin int) {
	b.src, b.indexMin, b.scratch = data, indexMin, sc
	b.reset()
	// Room for the rules a file of this size mostly has, bounded: a page
	// of a megabyte that is not a robots.txt (HTML, often) has none, and
	// clearing room for 30,000 of them cost it more than reading it.
	b.rules = slices.Grow(b.rules, min(len(data)/32, 1<<12)+8)
}

// line takes one key/value line.
func (b *builder) line(num uint32, kind grammar.Key, key, value []byte) {
	switch kind {
	case grammar.KeyUserAgent:
		if len(b.groups) == 0 || b.hasRules {
			b.groups = append(b.groups, group{start: uint32(len(b.rules))})
			b.hasRules = false
			b.ask.group()
		}
		if b.ask.on {
			// A query compares the agent and keeps no name.
			b.ask.agentLine(value, grammar.IsGlobalAgent(value))
			return
		}
		g := uint32(len(b.groups) - 1)
		if grammar.IsGlobalAgent(value) {
			if n := len(b.global); n == 0 || b.global[n-1] != g {
				b.global = append(b.global, g)
			}
			return
		}
		// The token is written to tokens in lower case as it is found.
		off := len(b.tokens)
		b.tokens = grammar.AppendLowerToken(slices.Grow(b.tokens, len(value)+8), value)
		b.names = append(b.names, agentName{uint32(off), uint32(len(b.tokens) - off), g})
	case grammar.KeyAllow, grammar.KeyDisallow:
		if b.ask.on {
			b.askRule(num, kind == grammar.KeyAllow, value, 0)
			return
		}
		b.addRule(num, kind == grammar.KeyAllow, value)
	case grammar.KeySitemap:
		if !b.ask.on {
			b.addSitemap(num, value)
		}
	default:
		if b.ask.on {
			return // a query reads only rules and agents
		}
		if len(b.groups) == 0 && !grammar.IsToken(key) {
			// Before the first group, only a key made of letters, '-' and
			// '_' is kept: an HTML page served as robots.txt has many
			// lines with a colon, and none of them is a directive.
			return
		}
		off := len(b.text)
		b.text = append(b.text, key...)
		b.text = append(b.text, value...)
		o := other{off: uint32(off), line: num, keyN: uint16(len(key)), valN: uint16(len(value))}
		if len(b.groups) == 0 {
			// Before the first group (Host:, Clean-param: at the top):
			// the file's own, see Robots.Others.
			o.group = preamble
			b.preamble = append(b.preamble, o)
			if grammar.UsageKeyKind(key) == grammar.ContentSignal {
				b.addUsage(num, grammar.ContentSignal, value, preamble)
			}
			return
		}
		o.group = uint32(b.current())
		b.others = append(b.others, o)
		if k := grammar.UsageKeyKind(key); k != grammar.NotUsage {
			b.addUsage(num, k, value, o.group)
		}
	}
}

// addRule takes an Allow or Disallow line, and compiles its value (SPEC
// §3, §5).
func (b *builder) addRule(num uint32, allow bool, value []byte) {
	if len(b.groups) == 0 {
		return // rules before the first User-agent line belong to no group
	}
	b.hasRules = true
	if neverMatches(value) {
		return // not kept: the diagnostics report it
	}
	escape, star := scanValue(value)
	at, inFile := b.fileOffset(value)
	if escape || !inFile || allow && indexFallback(value) >= 0 {
		b.addRuleApart(num, allow, value, escape, star)
		return
	}
	// The usual rule: its pattern is the value itself, read from the file
	// when the text is written, and it has no fallback. Kept apart from
	// the others, it is compiled with few values live at once.
	lit, anchored := cutAnchor(value)
	flags := ruleFlags(b2u(allow)) | ruleFlags(b2u(star))*ruleStar | anchored
	b.rules = append(b.rules, rule{off: uint32(at), line: num, n: uint16(len(lit)), flags: flags, key: ruleKey(lit)})
	if star {
		b.probeLast(lit)
	}
}

// neverMatches reports whether the pattern of an Allow or Disallow value
// can match no path: paths always start with '/', and escaping leaves a
// first '/' or '*' alone.
func neverMatches(value []byte) bool {
	return len(value) > 0 && value[0] != '/' && value[0] != '*'
}

// fileOffset returns where value starts in the file, and whether it lies
// in the file at all (tests pass values from elsewhere).
func (b *builder) fileOffset(value []byte) (int, bool) {
	at := cap(b.src) - cap(value)
	return at, uint(at) <= uint(len(b.src))
}

// cutAnchor returns a pattern without its final '$', and ruleAnchored when
// it had one.
func cutAnchor(pat []byte) ([]byte, ruleFlags) {
	if n := len(pat); n > 0 && pat[n-1] == '$' {
		return pat[:n-1], ruleAnchored
	}
	return pat, 0
}

// probeLast gives the rule last appended, whose literal pattern is lit,
// its probes where they pay (see probesPay): not for a query that reads
// the lines (see lazy.go), which tests each rule once.
func (b *builder) probeLast(lit []byte) {
	if ru := &b.rules[len(b.rules)-1]; probesPay(ru, false) && !b.ask.on {
		ru.probes = patternProbes(lit)
	}
}

// b2u returns 1 for true and 0 for false; the compiler makes it no
// instruction at all.
func b2u(v bool) uint8 {
	var u uint8
	if v {
		u = 1
	}
	return u
}

// addRuleApart is addRule for a rule whose value is kept apart from its
// pattern: one that escaping changes, an Allow rule with an index fallback,
// or a value that is not in the file (as tests pass them); escape and star
// are what scanValue says of the value.
func (b *builder) addRuleApart(num uint32, allow bool, value []byte, escape, star bool) {
	var flags ruleFlags
	if allow {
		flags |= ruleAllow
	}
	// The value as written is kept apart, in raws, when it differs from the
	// pattern, and when an index fallback (below) needs it: the fallback's
	// pattern is shorter than the value.
	slash := -1
	if allow {
		slash = indexFallback(value)
	}
	if star {
		flags |= ruleStar
	}
	var raw uint32
	if slash >= 0 || escape {
		raw = uint32(len(b.raws))
		b.raws = append(b.raws, byte(len(value)), byte(len(value)>>8))
		b.raws = append(b.raws, value...)
		flags |= ruleRawApart
	}
	// A pattern that needs no escaping is the value itself, read from the
	// file when the text is written; others are escaped into pats.
	var off int
	var pat []byte
	if at, inFile := b.fileOffset(value); !escape && inFile {
		off, pat = at, value
	} else {
		off = len(b.pats)
		b.pats = grammar.AppendEscaped(b.pats, value)
		pat = b.pats[off:]
		flags |= ruleEscaped
	}
	lit, anchored := cutAnchor(pat)
	flags |= anchored
	// The rule, then its fallback if it has one, appended to rules as
	// literals: made apart by a function and copied in, or written field
	// by field, they cost more (commits 54b5086 and 80073b2 have the
	// instruction counts).
	for {
		b.rules = append(b.rules, rule{off: uint32(off), line: num, n: uint16(len(lit)), flags: flags, key: ruleKey(lit), raw: raw})
		if star {
			b.probeLast(lit)
		}
		if slash < 0 {
			return
		}
		// Escaping moves no '/', so the fallback is a prefix of the pattern.
		slash = bytes.LastIndexByte(pat, '/')
		lit = pat[:slash+1]
		flags = flags&^ruleStar | ruleAnchored | ruleIndex
		if star && bytes.IndexByte(lit, '*') >= 0 {
			flags |= ruleStar
		}
		slash = -1
	}
}

// probesPay reports whether a wildcard rule keeps its probes (see
// patternProbes), in an indexed group or not. Every rule of an indexed
// group keeps them, beside its link. In a group walked by key, a rule of
// key 0 keeps them, as every path meets it; one of another key does not:
// only paths of that key meet it, and their literal prefix mostly rejects
// them as soon. Computing the probes of every wildcard rule was a twentieth
// of the instructions of parsing a small file and asking it one question;
// without those of keyed rules in groups walked by key, the parse and
// first question of each of the corpus's files of at most 4 KiB take 0.7%
// fewer (55.98M → 55.58M a pass), and their 20 questions a file 0.9% fewer
// (callgrind; bench/README.md, "Small files: probes where they pay, ties
// sorted as integers", gives the commands).
func probesPay(ru *rule, indexed bool) bool {
	return ru.flags&ruleStar != 0 && (ru.key == 0 || indexed)
}

// indexFallback returns the index of the last '/' of an Allow value whose
// last segment starts with "/index.htm", or -1. Google's parser retries such
// a rule, when it does not match, as "<everything up to that '/'>$". The
// retry is shorter than the rule, so it can only decide when the rule itself
// does not match, as there.
func indexFallback(value []byte) int {
	slash := bytes.LastIndexByte(value, '/')
	if slash >= 0 && bytes.HasPrefix(value[slash:], []byte("/index.htm")) {
		return slash
	}
	return -1
}

// scanValue reports, in one pass over an Allow or Disallow value, whether
// normalising changes it (see grammar.NeedsEscape) and whether it has a '*'. It
// tests eight bytes at a time: most values are plain paths.
func scanValue(value []byte) (escape, star bool) {
	// A byte of x is zero where v has the byte sought; zeros(x) sets the
	// high bit of some byte exactly when x has a zero byte (see match.go).
	// A high bit in maybe is a byte >= 0x80 or a '%': either way
	// NeedsEscape decides, which is true of any byte >= 0x80. The loop
	// counts an index: a slice cut at each step costs more than the step.
	var maybe, stars uint64
	i := 0
	for ; i <= len(value)-8; i += 8 {
		v := binary.LittleEndian.Uint64(value[i : i+8])
		maybe, stars = maybe|v|zeros(v^'%'*ones), stars|zeros(v^'*'*ones)
	}
	if w := value[i:]; len(w) > 0 {
		var v uint64
		switch {
		case len(value) >= 8:
			// The last 8 bytes: a byte tested twice does no harm.
			v = binary.LittleEndian.Uint64(value[len(value)-8:])
		case cap(w) >= 8:
			// A short value with room after it, the rest of the line and
			// the file: those bytes are read and cleared, and a zero byte
			// is none of those sought.
			v = binary.LittleEndian.Uint64(w[:8:8]) & (1<<(8*len(w)) - 1)
		default:
			// A short value at the end of the file, padded with bytes
			// that are none of those sought.
			pad := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
			copy(pad[:], w)
			v = binary.LittleEndian.Uint64(pad[:])
		}
		maybe, stars = maybe|v|zeros(v^'%'*ones), stars|zeros(v^'*'*ones)
	}
	star = stars&highs != 0
	if maybe&highs != 0 {
		return grammar.NeedsEscape(value), star
	}
	return false, star
}

func (b *builder) addSitemap(line uint32, value []byte) {
	if len(value) == 0 {
		return
	}
	// Few files list more than a handful of sitemaps; a hash set pays off
	// only beyond that.
	const linear = 16
	slot := -1
	if len(b.sitemaps) < linear {
		for _, s := range b.sitemaps {
			if string(b.text[s.off:s.off+uint32(s.valN)]) == string(value) {
				return
			}
		}
	} else {
		if len(b.sitemapSet) == 0 {
			b.indexSitemaps(4 * linear)
		}
		i, found := b.sitemapSlot(value)
		if found {
			return
		}
		slot = i
	}
	b.sitemaps = append(b.sitemaps, other{off: uint32(len(b.text)), line: line, valN: uint16(len(value)), group: noGroup})
	b.text = append(b.text, value...)
	switch n := len(b.sitemapSet); {
	case slot < 0:
	case 2*len(b.sitemaps) > n:
		b.indexSitemaps(2 * n)
	default:
		b.sitemapSet[slot] = uint32(len(b.sitemaps))
	}
}

// sitemapSeed hashes the sitemaps of every file.
var sitemapSeed = maphash.MakeSeed()

// sitemapSlot returns the slot of builder.sitemapSet that holds value, and
// true, or the empty slot where it goes.
func (b *builder) sitemapSlot(value []byte) (int, bool) {
	mask := len(b.sitemapSet) - 1
	for i := int(maphash.Bytes(sitemapSeed, value)) & mask; ; i = (i + 1) & mask {
		k := b.sitemapSet[i]
		if k == 0 {
			return i, false
		}
		if s := b.sitemaps[k-1]; string(b.text[s.off:s.off+uint32(s.valN)]) == string(value) {
			return i, true
		}
	}
}

// indexSitemaps makes builder.sitemapSet a set of size slots, a power of
// two, holding the sitemaps kept so far.
func (b *builder) indexSitemaps(size int) {
	b.sitemapSet = slices.Grow(b.sitemapSet[:0], size)[:size]
	clear(b.sitemapSet)
	for k, s := range b.sitemaps {
		i, _ := b.sitemapSlot(b.text[s.off : s.off+uint32(s.valN)])
		b.sitemapSet[i] = uint32(k + 1)
	}
}

// maxMergeLen is the file size past which no merged copies are made (see
// addList): 64 MiB, over a hundred times what crawlers read. Escaping
// triples a pattern at most and copies add twice the rules, so the patterns
// of a file that size, with their copies and probes, stay far below 2 GiB.
const maxMergeLen = maxFileLen / 4

// scratch is the working space of a parse, kept between parses in
// scratchPool: no part of it ends up in a parsed file (encode copies what
// the file keeps into a new string), and reusing it spares parses their
// allocations: parsing the corpus makes half as many (25.2k to 12.7k, go
// test -run XXX -bench Corpus/parse -benchmem ., before and after), and the
// 1-8 KB files of the corpus parse in 20% less time.
type scratch struct {
	pats     []byte // escaped patterns
	raws     []byte // values as written, where they differ: 2 bytes of length, then the bytes
	text     []byte // other keys and values, sitemaps
	rules    []rule
	groups   []group
	others   []other
	sitemaps []other // keyN 0

	// sitemapSet holds, once there are many sitemaps, their indexes in
	// sitemaps + 1 by hash of the value, 0 in an empty slot: at most half
	// the slots are full.
	sitemapSet []uint32
	preamble   []other // other lines before the first group

	// names holds, per User-agent line that names a token, the token (lower
	// case, in tokens) and the group it belongs to.
	names  []agentName
	tokens []byte
	global []uint32 // groups that name "*"

	links  []uint32 // the links of indexed groups (see index.go)
	merged []uint32 // where the lists with a merged copy start
	sort   sortScratch

	// What finish builds for encode: group lists, agents; the groups of a
	// token.
	lists, ids []uint32
	agents     []agentEntry

	usageScratch // Content-Usage and Content-Signal lines (see usage_parse.go)
}

// reset empties every slice of s, keeping its room. Each slice is cut on
// a line of its own: the compiler then writes only its length, where a
// tuple assignment writes the whole header, pointer and write barrier
// included (go build -gcflags=-S).
func (s *scratch) reset() {
	s.pats = s.pats[:0]
	s.raws = s.raws[:0]
	s.text = s.text[:0]
	s.tokens = s.tokens[:0]
	s.rules = s.rules[:0]
	s.groups = s.groups[:0]
	s.names = s.names[:0]
	s.agents = s.agents[:0]
	s.others = s.others[:0]
	s.sitemaps = s.sitemaps[:0]
	s.preamble = s.preamble[:0]
	s.sitemapSet = s.sitemapSet[:0]
	s.global = s.global[:0]
	s.links = s.links[:0]
	s.merged = s.merged[:0]
	s.lists = s.lists[:0]
	s.ids = s.ids[:0]
	s.resetUsage()
}

// size returns the bytes of room s holds.
func (s *scratch) size() int {
	return 24*cap(s.rules) + cap(s.pats) + cap(s.raws) + cap(s.text) + cap(s.tokens) +
		8*cap(s.groups) + 16*(cap(s.others)+cap(s.sitemaps)+cap(s.preamble)) + 12*cap(s.names) +
		4*(cap(s.global)+cap(s.links)+cap(s.merged)+cap(s.lists)+cap(s.ids)+cap(s.sitemapSet)) + 12*cap(s.agents) +
		8*cap(s.sort.keys) + 24*cap(s.sort.rules) + 24*cap(s.sort.lits) + 8*cap(s.sort.tmp) + 4*cap(s.sort.stack) +
		s.usageSize()
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooled bounds the scratch space a parse returns to the pool, in bytes
// of capacity, so that one very large file does not keep its working space
// alive. A file of rules takes about 110 bytes of scratch a rule, 4 bytes
// for each of its bytes (docs.oracle.com's 853 kB of 31,800 rules take 3.6
// MB), so every file up to the 500 KiB crawlers read, and the corpus's
// largest, parse in reused space: below 4 MiB, the five files of the corpus
// past the former 256 KiB bound allocated their scratch anew at every parse,
// a fifth of the time to parse the corpus.
const maxPooled = 4 << 20

// release returns a builder's scratch space to the pool, grown as the
// parse left it, unless it has grown past maxPooled. It takes the scratch,
// not the builder, so that nothing the builder points to escapes with it.
func (s *scratch) release() {
	if s.size() <= maxPooled {
		scratchPool.Put(s)
	}
}

// finish sorts what the builder collected into a Robots.
func (b *builder) finish() *Robots {
	if len(b.groups) == 0 && len(b.sitemaps) == 0 && len(b.preamble) == 0 {
		// Nothing to keep, as for an HTML page or an empty file: no records
		// at all, like the Robots of FromStatus.
		return &Robots{file: compiledFile{form: form{kind: Parsed}}}
	}

	// Each distinct token gets its groups: the index of its only group, as
	// mostly, or a list. Tokens go to the end of the text in the order
	// findAgent searches, by length and then bytes.
	order := b.sortNames()
	// Merged copies (see addList) go after the file's groups and rules.
	fileRules := uint32(len(b.rules))
	lists := b.addList(b.lists[:0], b.global, fileRules)
	// At most one agent a name: room for all, written by index.
	agents := slices.Grow(b.agents[:0], len(order))[:len(order)]
	na, names, toks := 0, b.names, 0
	for i := 0; i < len(order); {
		key := order[i]
		first := names[key&nameIdxMask]
		j := i + 1
		// The keys of two names tie when their tokens do, and only then
		// when the keys hold the tokens.
		for j < len(order) && order[j]>>nameIdxBits == key>>nameIdxBits &&
			(keyHolds(int(first.n)) || bytes.Equal(b.token(names[order[j]&nameIdxMask]), b.token(first))) {
			j++
		}
		a := agentEntry{token: first.off, n: first.n, groups: first.group}
		if j > i+1 && names[order[j-1]&nameIdxMask].group != first.group {
			// Names of one token are in file order, so group order: the
			// same group throughout unless the last differs.
			a.groups = listBit | uint32(len(lists))
			ids := b.ids[:0]
			for k := i; k < j; k++ {
				// A group naming the token twice is listed once.
				if g := names[order[k]&nameIdxMask].group; len(ids) == 0 || ids[len(ids)-1] != g {
					ids = append(ids, g)
				}
			}
			b.ids = ids
			lists = b.addList(lists, ids, fileRules)
		}
		agents[na] = a
		na++
		toks += int(a.n)
		i = j
	}
	agents = agents[:na]

	// The closing record, first: each group's rules end where the next
	// record's start.
	n := uint32(len(b.rules))
	b.groups = append(b.groups, group{start: n, wild: n})
	pats := 0 // the bytes of the patterns in the text
	for i := 0; i+1 < len(b.groups); i++ {
		g := &b.groups[i]
		rules := b.rules[g.start:b.groups[i+1].start]
		copied := g.wild & copyBit
		if len(rules) == 1 && b.indexMin > 1 {
			// A group of one rule, as most groups of small files are, is
			// in order and not indexed (see sortLayout and indexes).
			wild := uint32(0)
			if rules[0].key == 0 {
				wild = 1
			}
			g.wild = copied | g.start + wild
			pats += rules[0].textLen()
			continue
		}
		if b.indexes(rules) {
			// In file order: a query scans them until the index is
			// built (see compiledFile.index).
			g.wild = idxBit | copied | g.start
			if b.indexMin < indexMin {
				g.wild |= idxAlways
			}
			for k := range rules {
				pats += rules[k].textLen()
			}
			continue
		}
		wild, size := sortLayout(rules, &b.sort)
		g.wild = copied | g.start + uint32(wild)
		pats += size
	}
	b.others = append(b.others, b.preamble...)
	b.others = append(b.others, b.sitemaps...)
	b.sortUsage()
	wordsAt, text := b.encode(agents, lists, pats, toks)
	// The room the lists and agents grew to is kept for the next parse.
	// Only when it grew: while the collector marks, each pointer written
	// to the pooled scratch goes through the write barrier.
	if cap(lists) > cap(b.lists) {
		b.lists = lists
	}
	if cap(agents) > cap(b.agents) {
		b.agents = agents
	}
	// Allocated with its fields set, the Robots has no earlier text for
	// the write barrier to record; lens holds no pointer.
	y := &Robots{file: compiledFile{form: form{kind: Parsed, wordsAt: wordsAt, text: text}}}
	y.file.lens = y.file.agentLens()
	return y
}

// addList appends to lists the group list of ids: its count, the ids and,
// for mergeMin groups or more, the index of their merged copy (see
// mergeMin), a group of copies of their rules in file order, made here or
// shared with an equal list; the count then has mergedBit. The copies of a
// file hold at most twice as many rules as the file (fileRules); a list
// past that gets no copy.
func (b *builder) addList(lists, ids []uint32, fileRules uint32) []uint32 {
	n := uint32(len(ids))
	if n < mergeMin {
		lists = append(lists, n)
		return append(lists, ids...)
	}
	for _, m := range b.merged {
		if lists[m] == n|mergedBit && slices.Equal(lists[m+1:m+1+n], ids) {
			lists = append(lists, n|mergedBit)
			lists = append(lists, ids...)
			return append(lists, lists[m+1+n])
		}
	}
	end := func(g uint32) uint32 {
		if g+1 < uint32(len(b.groups)) {
			return b.groups[g+1].start
		}
		return fileRules
	}
	total := uint32(0)
	for _, g := range ids {
		total += end(g) - b.groups[g].start
	}
	// Past maxMergeLen no copies are made: with its copies, a file's
	// patterns must still fit the 31-bit offsets of the layout.
	if total > 2*fileRules-b.copied || len(b.src) > maxMergeLen {
		lists = append(lists, n)
		return append(lists, ids...)
	}
	b.copied += total
	b.rules = slices.Grow(b.rules, int(total))
	b.merged = append(b.merged, uint32(len(lists)))
	lists = append(lists, n|mergedBit)
	lists = append(lists, ids...)
	lists = append(lists, uint32(len(b.groups)))
	b.groups = append(b.groups, group{start: uint32(len(b.rules)), wild: copyBit})
	for _, g := range ids {
		b.rules = append(b.rules, b.rules[b.groups[g].start:end(g)]...)
	}
	return lists
}

// current returns the index of the group being built, or -1 before the
// first User-agent line.
func (b *builder) current() int { return len(b.groups) - 1 }
