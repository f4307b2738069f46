package robotstxt

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"
)

// This file holds the index of a large group: what lets a query test only
// the rules whose literal prefix the path starts with, whatever the size of
// the group.
//
// A rule's literal prefix is its pattern up to the first '*', or the whole
// pattern without a final '$'. A rule can match a path only if its literal
// prefix is a prefix of the path. The rules of an indexed group are sorted
// by literal prefix, then in precedence order (SPEC §5, see sortLayout);
// rules with equal literal prefixes form a run. Each rule has two more
// words: its probes (see patternProbes; 0, which every path admits, for a
// rule without '*'), so that a query rejects most wildcard rules without
// decoding them, and its link:
//
//	the first rule of a run       the first rule of the parent run + 1, or 0:
//	                              the parent run's literal prefix is the
//	                              longest of the group that is a proper
//	                              prefix of this run's
//	any other rule                runBit | the first rule of its run
//
// Rules in links are counted from the group's first rule.
//
// The literal prefixes that are prefixes of a path p then form one chain:
// binary search finds the last run whose literal prefix sorts at or before
// p; the deepest run whose literal prefix is a prefix of p is that run or
// one of its ancestors (every literal prefix sorting between that one and p
// starts with it), and its ancestors are all the others. A query walks the
// chain from the deepest run up, each run's rules in precedence order, and
// stops within a run at its first match or once no rule left can beat the
// best so far.
//
// Small groups are not indexed: walking a few rules costs less than a
// search, and a crawler keeps millions of small files (see indexMin).
//
// An index is not built by Parse, nor kept in the text or the binary form:
// a group that has one keeps its rules in file order, and the first query
// of a Robots that reaches such a group scans them (see compiledFile.scan). The
// next query that reaches it builds the index, once, in an allocation of
// its own, and every later one searches it (see compiledFile.index). A crawler
// often asks a file one question; building the indexes of the files of at
// most 4 KiB of the corpus was a sixth of the time spent parsing each and
// asking it one question (bench/README.md, "Small files: the index on the
// second question", gives the commands and the figures).

// indexMin is the number of rules from which a group is indexed. Below it,
// the rules are walked by key (see sortLayout). At 16, a common template of
// twenty "/*?x=*" rules is indexed, and its wildcard rules are rejected by
// their probes beside the links. An index, once built, costs a copy of
// its group's patterns and 28 bytes a rule, half a byte more in a group of
// sampleMin rules or more (TestIndexBytesPerRule), and the directories of
// its long runs (see appendDirs).
const indexMin = 16

// walkMax is the number of rules a query may have to walk in a group that
// is not indexed: a group of fewer than fewIndexed rules is indexed only if
// a path can meet more than walkMax of its rules in the walk by key (see
// sortLayout): those that may match any path and those of its most common
// key. Most groups of a small file are walked in fewer steps than the
// index's search takes, and building the index of every group of 16 rules
// or more was about a sixth of the instructions spent parsing such a file
// and asking it one question (bench/README.md, "Small files: the index only
// where a group needs it", gives the commands and the figures).
const (
	walkMax    = 16
	fewIndexed = 256
)

// indexes reports whether the group of rules, in file order, has an index.
// A builder whose indexMin is below the package's (tests) gives every
// group from that size on one, which queries always search (idxAlways).
func (b *builder) indexes(rules []rule) bool {
	n := len(rules)
	switch {
	case n < b.indexMin || n > idxMask:
		return false
	case b.indexMin < indexMin || n >= fewIndexed:
		return true
	case n <= walkMax:
		return false // a walk meets at most every rule
	}
	return longestWalk(rules) > walkMax
}

// longestWalk returns the most rules the walk by key can meet in a group of
// fewer than fewIndexed rules: those with key 0, and those of the most
// common other key.
func longestWalk(rules []rule) int {
	var count [256]uint8
	most := uint(0)
	for i := range rules {
		// Without a branch on the key: the keys of a group follow no
		// pattern a branch predictor learns. nz is 0 for key 0, whose
		// count is added apart, and all ones for the others. Words, not
		// bytes: Go compiles min and max of bytes to branches.
		k := uint(rules[i].key)
		c := uint(count[k]) + 1
		count[k] = uint8(c)
		nz := -min(k, 1)
		most = max(most, c&nz)
	}
	return int(count[0]) + int(most)
}

// runBit marks the link of a rule that does not start its run.
const runBit = 1 << 31

// literal returns the literal prefix of a pattern (final '$' removed):
// everything before the first '*'.
func literal[T string | []byte](lit T, star bool) T {
	if star {
		for i := 0; i < len(lit); i++ {
			if lit[i] == '*' {
				return lit[:i]
			}
		}
	}
	return lit
}

// A rule being sorted by literal prefix is one integer: bytes of its
// literal prefix from some depth on, big-endian and padded with zeros, over
// its index in the group. Sorting integers spares a comparison function
// call per pair of rules. Literal prefixes hold no NUL (a line ends at one),
// so padding orders a shorter prefix first, as string comparison does. The
// index takes smallIdxBits in a group of at most smallIdxMask rules (see
// sortFewByLiteral), midIdxBits in one of at most midIdxMask, idxBits
// beyond: seven, six or five bytes of literal prefix fit above it.
const (
	idxBits    = 24
	idxMask    = 1<<idxBits - 1
	midIdxBits = 16
	midIdxMask = 1<<midIdxBits - 1
)

// sortIndexed orders the rules of a large group as an index needs them (see
// the top of this file) and appends their probes and links, relative to the
// group's first rule, to links. The rules come in file order.
func (b *builder) sortIndexed(rules []rule, links []uint32) []uint32 {
	// The rules in file order, and each one's literal prefix: lits[i] is
	// that of rule i, its index in the group as it came. The prefixes are
	// slices of the file or of the escaped patterns, cleared before the
	// scratch goes back to the pool.
	b.sort.rules = append(b.sort.rules[:0], rules...)
	lits := slices.Grow(b.sort.lits[:0], len(rules))[:len(rules)]
	b.sort.lits = lits
	defer clear(lits)
	keys := slices.Grow(b.sort.keys[:0], len(rules))[:len(rules)]
	b.sort.keys = keys
	links = slices.Grow(links, linkWords*len(rules)+int(sampleWords(uint32(len(rules)))))
	for i := range rules {
		ru := &rules[i]
		lits[i] = literal(b.patternBytes(ru), ru.flags&ruleStar != 0)
		keys[i] = uint64(i)
	}
	large := len(rules) > smallIdxMask
	if !large {
		b.sort.tmp = slices.Grow(b.sort.tmp[:0], len(rules))
		sortFewByLiteral(keys, lits, b.sort.rules, b.sort.tmp[:len(rules)])
	} else {
		sortByLiteral(keys, lits, b.sort.rules, &b.sort.tmp)
	}

	// Runs in turn, then their rules' probes and links. A stack holds the
	// chain of runs whose literal prefixes are prefixes of the current one.
	stack := b.sort.stack[:0] // first rules of runs
	out := links[len(links) : len(links)+linkWords*len(keys)]
	for a := 0; a < len(keys); {
		z := a + 1
		for z < len(keys) && keys[z]&sameRun != 0 {
			z++
		}
		if large {
			// The runs on the stack are prefixes of the run before, and
			// one of them is a prefix of this run's exactly when it is no
			// longer than the prefix this run shares with the one before:
			// that length is in the key (see lcpShift), and this run's
			// bytes are not read.
			shared := int(keys[a] >> lcpShift & 0xffff)
			for len(stack) > 0 && len(lits[keys[stack[len(stack)-1]]&idxMask]) > shared {
				stack = stack[:len(stack)-1]
			}
		} else {
			lit := lits[keys[a]&idxMask]
			for len(stack) > 0 {
				// bytes.HasPrefix(lit, top), with one load of each when
				// top is at most 8 bytes long, as most are, and the
				// slices' room holds 8 (see headBytes): little-endian,
				// the bytes of top are the low ones, and a shift by 64
				// gives 0.
				top := lits[keys[stack[len(stack)-1]]&idxMask]
				if len(top) <= len(lit) {
					if len(top) <= 8 && cap(top) >= 8 && cap(lit) >= 8 {
						x := binary.LittleEndian.Uint64(lit[:8:8]) ^ binary.LittleEndian.Uint64(top[:8:8])
						if x<<(64-8*uint(len(top))) == 0 {
							break
						}
					} else if bytes.Equal(lit[:len(top)], top) {
						break
					}
				}
				stack = stack[:len(stack)-1]
			}
		}
		parent := uint32(0)
		if len(stack) > 0 {
			parent = stack[len(stack)-1] + 1
		}
		for k := a; k < z; k++ {
			// By pointer: a rule copied to the stack, as a value
			// receiver or argument is, is read back across the two
			// overlapping stores of the copy, which stalls the load.
			ru := &b.sort.rules[keys[k]&idxMask]
			if ru.probes == 0 && probesPay(ru, true) {
				ru.probes = patternProbes(b.patternBytes(ru))
			}
			rules[k] = *ru
			out[linkWords*k], out[linkWords*k+1] = ru.probes, parent
			parent = runBit | uint32(a)
		}
		stack = append(stack, uint32(a))
		a = z
	}
	b.sort.stack = stack
	links = links[:len(links)+len(out)]

	// Samples for a large group (see sampleMin): the length of the prefix
	// all literal prefixes share (that of the first and the last), then
	// every sampleStep-th rule's head.
	if n := len(rules); n >= sampleMin {
		first, last := lits[keys[0]&idxMask], lits[keys[n-1]&idxMask]
		common := 0
		for common < len(first) && common < len(last) && first[common] == last[common] {
			common++
		}
		links = append(links, uint32(common))
		for k := 0; k < n; k += sampleStep {
			h := headAt(lits[keys[k]&idxMask], common)
			links = append(links, uint32(h>>32), uint32(h))
		}
	}
	return links
}

// sameRun marks a sorted key whose rule's literal prefix is that of the
// rule before: the rule does not start its run.
const sameRun = 1 << 63

// A group of sampleMin rules or more also keeps samples of its literal
// prefixes, after its links: the length of the prefix they all share, then
// the head of every sampleStep-th one, the 8 bytes after that prefix,
// big-endian and padded with zeros (as a litKey's key). A query first
// searches the samples, which lie together in a few kilobytes, and then
// only the rules between two of them, which touches few cache lines of a
// group of any size. Heads compare as the prefixes do, but for ties, which
// widen the rules searched. With them, a hit in a group of 100,000 literal
// rules costs 1.7× one in a group of 10, and 2.4× without them (the bench
// module's scaling table, cd bench && go run .).
const (
	sampleMin  = 512
	sampleStep = 16
)

// sampleWords returns the number of words of the samples of a group of n
// rules.
func sampleWords(n uint32) uint32 {
	if n < sampleMin {
		return 0
	}
	return 1 + 2*((n+sampleStep-1)/sampleStep)
}

// headAt returns the 8 bytes of lit from depth on, big-endian and padded
// with zeros.
func headAt[T string | []byte](lit T, depth int) uint64 {
	if depth+8 <= len(lit) {
		return be64(lit[depth : depth+8])
	}
	if depth >= len(lit) {
		return 0
	}
	if len(lit) >= 8 {
		// The last 8 bytes, shifted up past those before depth.
		return be64(lit[len(lit)-8:]) << (8 * (depth + 8 - len(lit)))
	}
	var h uint64
	for d := depth; d < depth+8; d++ {
		h <<= 8
		if d < len(lit) {
			h |= uint64(lit[d])
		}
	}
	return h
}

// be64 returns the first 8 bytes of b, big-endian.
func be64[T string | []byte](b T) uint64 {
	_ = b[7]
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

// sortByLiteral is sortFewByLiteral for a group of more than smallIdxMask
// rules, with midIdxBits or idxBits of index in a key; tmp is scratch space
// for as many keys.
func sortByLiteral(keys []uint64, lits [][]byte, rules []rule, tmp *[]uint64) {
	bits := uint(idxBits)
	if len(keys) <= midIdxMask {
		bits = midIdxBits
	}
	*tmp = slices.Grow((*tmp)[:0], len(keys))
	sortFrom(keys, lits, rules, 0, bits, (*tmp)[:len(keys)])
}

// sortFrom is sortFewFrom for keys whose index takes the low bits: the
// keys are sorted on the bytes above them (see sortKeys), and each tie is
// a run, a pair, or sorted again from the next depth. Each key but the
// first comes back with the length of the prefix its rule's literal prefix
// shares with the one before also set (see lcpShift).
func sortFrom(keys []uint64, lits [][]byte, rules []rule, depth int, low uint, buf []uint64) {
	headKeys(keys, lits, depth, low)
	sortKeys(keys, buf, low)
	next := depth + 8 - int(low/8)
	mask := uint64(1)<<low - 1
	prev := keys[0]
	for a := 0; a < len(keys); {
		key := keys[a]
		i := key & mask
		z := a + 1
		for z < len(keys) && (keys[z]^key)>>low == 0 {
			z++
		}
		// The literal prefixes of this key and of the one before agree up
		// to their first byte that differs, which the keys hold.
		shared := uint64(0)
		if a > 0 {
			shared = uint64(depth+bits.LeadingZeros64(key^prev)/8) << lcpShift
		}
		prev = key
		if z-a == 1 {
			keys[a] = i | shared
			a = z
			continue
		}
		// As in sortFewFrom, the prefixes of a tie either all end before
		// next, and are equal, or all reach it.
		tie := keys[a:z]
		switch {
		case len(tie) == 2:
			orderPair(tie, lits, rules, next, low)
			if tie[1]&sameRun == 0 {
				tie[1] |= uint64(litShared(lits[tie[0]], lits[tie[1]], next)) << lcpShift
			}
		case len(lits[i]) >= next:
			for k := range tie {
				tie[k] &= mask
			}
			sortFrom(tie, lits, rules, next, low, buf)
		default:
			orderRun(tie, rules, low)
		}
		tie[0] |= shared
		a = z
	}
}

// lcpShift is where a key that sortByLiteral sorted holds, in 16 bits
// above the index, the length of the prefix its rule's literal prefix
// shares with the one before (a pattern is at most 65,535 bytes long, see
// rule.n). sortIndexed compares it with the lengths of the literal
// prefixes of the runs before to find each run's parent, without reading
// their bytes.
const lcpShift = 32

// litShared returns the length of the prefix literal prefixes a and b
// share, which is at least from, comparing eight bytes at a time where the
// slices' room holds them (see headBytes).
func litShared(a, b []byte, from int) int {
	n := min(len(a), len(b))
	for i := from; i < n; i += 8 {
		if i+8 > cap(a) || i+8 > cap(b) {
			for i < n && a[i] == b[i] {
				i++
			}
			return i
		}
		if x := binary.LittleEndian.Uint64(a[i:i+8:i+8]) ^ binary.LittleEndian.Uint64(b[i:i+8:i+8]); x != 0 {
			return min(n, i+bits.TrailingZeros64(x)/8)
		}
	}
	return n
}

// smallIdxBits is the width of a rule's index in a group of at most
// smallIdxMask rules, which sortFewByLiteral sorts: most indexed groups, and
// every one of a file of a few KiB.
const (
	smallIdxBits = 8
	smallIdxMask = 1<<smallIdxBits - 1
)

// orderRun sorts the keys of one run, whose low bits hold the rules'
// indexes, in precedence order (the index stands for the line, as the
// rules are in file order): the precedence goes above the index, as in
// sortLayout. The keys come back holding the indexes, with sameRun on all
// but the first.
func orderRun(tie []uint64, rules []rule, bits uint) {
	mask := uint64(1)<<bits - 1
	for k, key := range tie {
		i := key & mask
		tie[k] = precedence(rules[i].rank())<<bits | i
	}
	sortFew(tie)
	for k := range tie {
		tie[k] = tie[k]&mask | sameRun
	}
	tie[0] &^= sameRun
}

// sortFewByLiteral orders at most smallIdxMask keys, which hold the rules'
// indexes alone, as sortIndexed needs them: by literal prefix lits[i], then
// in precedence order (rules[i] are the rules in file order, so the index
// stands for the line). They come back holding the indexes, with sameRun on
// those that do not start their run. buf has room for as many keys.
//
// The index leaves room for seven bytes of literal prefix in a key, which
// tell most prefixes of a group apart, so one sort of integers does most of
// the work; the keys that tie on seven bytes are either equal prefixes, a
// run, sorted by rank, or sorted again, by integers, on the next seven: in
// the small files of the corpus, seven in ten rules of an indexed group
// share their first seven bytes with another rule of the group, and four
// in ten have the same literal prefix as another (bench/README.md, "Small
// files: building a group's index").
func sortFewByLiteral(keys []uint64, lits [][]byte, rules []rule, buf []uint64) {
	sortFewFrom(keys, lits, rules, 0, buf)
}

// sortFewFrom is sortFewByLiteral for keys whose literal prefixes tie
// before byte depth.
func sortFewFrom(keys []uint64, lits [][]byte, rules []rule, depth int, buf []uint64) {
	const digits = 8 - smallIdxBits/8
	headBytes(keys, lits, depth)
	mergeSort(keys, buf)
	next := depth + digits
	for a := 0; a < len(keys); {
		key := keys[a]
		i := key & smallIdxMask
		z := a + 1
		for z < len(keys) && (keys[z]^key)>>smallIdxBits == 0 {
			z++
		}
		if z-a == 1 {
			keys[a] = i
			a = z
			continue
		}
		// As in sortByLiteral, the prefixes of a tie either all end before
		// next, and are equal, or all reach it.
		tie := keys[a:z]
		if len(tie) == 2 {
			// Two prefixes are compared whole, not sorted again from
			// the next depth.
			orderPair(tie, lits, rules, next, smallIdxBits)
		} else if len(lits[i]) >= next {
			for k := range tie {
				tie[k] &= smallIdxMask
			}
			sortFewFrom(tie, lits, rules, next, buf)
		} else {
			orderRun(tie, rules, smallIdxBits)
		}
		a = z
	}
}

// orderPair orders a tie of two keys of sortFewFrom, whose prefixes agree
// before byte depth, as sortFewFrom would from depth on: by the rest of the
// prefixes, or as a run when they are equal.
func orderPair(tie []uint64, lits [][]byte, rules []rule, depth int, bits uint) {
	mask := uint64(1)<<bits - 1
	x, y := tie[0]&mask, tie[1]&mask
	var c int
	if lx, ly := lits[x], lits[y]; len(lx) >= depth {
		c = bytes.Compare(lx[depth:], ly[depth:])
	}
	switch {
	case c < 0:
		tie[0], tie[1] = x, y
	case c > 0:
		tie[0], tie[1] = y, x
	default:
		orderRun(tie, rules, bits)
	}
}

// headBytes sets the bits above smallIdxBits of each key, which holds a
// rule's index i alone, to the head of lits[i] from byte depth on (see
// headKeys).
func headBytes(keys []uint64, lits [][]byte, depth int) { headKeys(keys, lits, depth, smallIdxBits) }

// headKeys sets the bits above the low bits of each key, which holds a
// rule's index i alone, to the head of lits[i] from byte depth on (see
// headAt), read with one load when the slice's room holds the 8 bytes: the
// bytes past its end are masked off. The loop holds the load, not a call: a
// call costs more than the load.
func headKeys(keys []uint64, lits [][]byte, depth int, bits uint) {
	bits &= 63 // one instruction a shift
	for k, i := range keys {
		lit := lits[i]
		var h uint64
		if depth+8 <= cap(lit) && depth <= len(lit) {
			h = binary.BigEndian.Uint64(lit[depth : depth+8 : depth+8])
			if n := len(lit) - depth; n < 8 {
				h &^= 1<<(64-8*n) - 1
			}
		} else {
			h = headSlow(lit, depth)
		}
		keys[k] = h>>bits<<bits | i
	}
}

// headSlow is headAt, apart from headKeys's loop.
//
//go:noinline
func headSlow(lit []byte, depth int) uint64 { return headAt(lit, depth) }

// sortFew sorts keys in increasing order: by insertion up to
// mergeInsertion keys, by mergeSort up to 256, with slices.Sort beyond.
func sortFew(keys []uint64) {
	switch n := len(keys); {
	case n <= mergeInsertion:
		insertionSort(keys)
	case n <= 256:
		var buf [128]uint64
		mergeSort(keys, buf[:])
	default:
		slices.Sort(keys)
	}
}

// mergeSort sorts keys in increasing order: by insertion up to mergeInsertion
// keys, else by merging sorted halves. buf has room for half the keys.
func mergeSort(keys, buf []uint64) {
	n := len(keys)
	if n <= mergeInsertion {
		insertionSort(keys)
		return
	}
	m := n / 2
	mergeSort(keys[:m], buf)
	mergeSort(keys[m:], buf)
	if keys[m-1] < keys[m] {
		return // in order already
	}
	left := buf[:m]
	copy(left, keys[:m])
	i, j, k := 0, m, 0
	for i < m && j < n {
		if keys[j] < left[i] {
			keys[k] = keys[j]
			j++
		} else {
			keys[k] = left[i]
			i++
		}
		k++
	}
	copy(keys[k:], left[i:])
}

// mergeInsertion is the number of keys up to which mergeSort sorts by
// insertion. Over the corpus's files of at most 4 KiB, each parsed and
// asked Googlebot about "/" (w1), sortIndexed and sortLayout take 9.70M
// instructions a pass with 16, 9.58M with 24, 9.58M with 32 and 9.64M with
// 48 (bench/README.md, "Small files: building a group's index", has how
// they were counted).
const mergeInsertion = 24

// insertionSort sorts keys in increasing order.
func insertionSort(keys []uint64) {
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// radixMin is the number of keys from which sortKeys sorts by radix.
const radixMin = 256

// sortKeys sorts keys by their bytes above the index's bits, and buf has
// room for as many keys: by insertion or mergeSort for few keys, else by a
// radix sort, a byte a pass from the lowest. One pass counts every byte;
// passes on a byte that all keys share are skipped, as the first byte of a
// literal prefix, '/', mostly is.
func sortKeys(keys, buf []uint64, bits uint) {
	n := len(keys)
	switch {
	case n <= mergeInsertion:
		insertionSort(keys)
		return
	case n < radixMin:
		mergeSort(keys, buf)
		return
	}
	var count [8 - midIdxBits/8][256]uint32
	for _, k := range keys {
		k >>= bits
		count[0][uint8(k)]++
		count[1][uint8(k>>8)]++
		count[2][uint8(k>>16)]++
		count[3][uint8(k>>24)]++
		count[4][uint8(k>>32)]++
		count[5][uint8(k>>40)]++
	}
	src, dst := keys, buf[:n]
	first := keys[0] >> bits
	for d := range count {
		c := &count[d]
		if c[uint8(first>>(8*d))] == uint32(n) {
			continue
		}
		at := uint32(0)
		for x, m := range c {
			c[x] = at
			at += m
		}
		shift := bits + 8*uint(d)
		for _, k := range src {
			x := uint8(k >> shift)
			dst[c[x]] = k
			c[x]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// patternBytes returns the normalised pattern of a builder rule, final '$'
// removed.
func (b *builder) patternBytes(ru *rule) []byte {
	from := b.src
	if ru.flags&ruleEscaped != 0 {
		from = b.pats
	}
	return from[ru.off : ru.off+uint32(ru.n)]
}

// linkWords is the number of words an indexed rule has in links.
const linkWords = 2

// groupIndex is the index of one group, built from its rules in the text
// when a query first needs it (see compiledFile.index): a form of its own,
// laid out as a compiled file's (see layout.go) for the one group, its
// rules in index order: their patterns, a header left empty, their records,
// the word where the patterns end, their probes and links from word at (see
// the top of this file; then the samples of a large group, and the
// directories of its long runs, see appendDirs), then, for each rule in
// index order, its index among the rules of the file, and last each one's
// head (see literalHead) in two words, so that the binary search over the
// rules reads one array instead of a record and a pattern a step. Queries
// search it as they would an index in the text itself, reading the rules of
// a run, and the patterns the search compares, side by side.
type groupIndex struct {
	r     form   // the group alone
	n, at uint32 // its rules; the word where its links start
	perm  uint32 // the word where the rules' indexes start
	id    uint32 // the group's id

	// The indexes of the file's other groups, when this one was built
	// first (see compiledFile.index).
	others later[indexTable]
}

// rule returns the index among the rules of the Robots of the group's k-th
// rule in index order.
func (x *groupIndex) rule(k uint32) uint32 { return x.r.word(x.perm + k) }

// heads returns the word where the rules' heads start: after their
// indexes.
func (x *groupIndex) heads() uint32 { return x.perm + x.n }

// dirs returns where the directories' table starts, counted from word at:
// after the rules' probes and links and the samples (see sortIndexed).
func (x *groupIndex) dirs() uint32 { return x.n*linkWords + sampleWords(x.n) }

// indexTable holds indexes by group.
type indexTable struct {
	byGroup []later[groupIndex]
}

// scannedOnce is the sentinel a compiled file holds as its first index
// once a query has scanned one of its groups with an index (see later): no
// index, and the id of no group.
var scannedOnce = &groupIndex{id: ^uint32(0)}

// index returns the index of group id, whose rules are [start, end) in
// file order, or nil when the query is to scan them. The first query of a
// Robots that reaches a group with an index scans it, allocating nothing:
// a crawler often asks a file one question, and a scan reads each rule
// once where the build sorts them. From the next such query on, each
// group's index is built when a query first reaches it (see later). A
// group that is always searched (see idxAlways) has its index built by
// the first query.
//
// The compiled file holds the first index built, and that index holds the
// table of the others: a file's one large group, the usual case, is found
// with one load from the file, and the file stays as small as it was
// before any query.
func (r *compiledFile) index(id, start, end uint32, always bool) *groupIndex {
	if x := r.indexes.load(scannedOnce); x != nil && x.id == id {
		return x
	}
	var y *groupIndex // this group's index, once built
	build := func() *groupIndex {
		if y == nil {
			y = r.buildIndex(id, start, end, always)
		}
		return y
	}
	x := r.indexes.get(scannedOnce, !always, build)
	if x == nil || x.id == id {
		return x
	}
	// The first index is another group's: this one's is in its table.
	t := x.others.get(nil, false, func() *indexTable {
		return &indexTable{byGroup: make([]later[groupIndex], r.numGroups())}
	})
	return t.byGroup[id].get(nil, false, build)
}

// buildIndex builds the index of group id, whose rules are [start, end)
// in file order, with a builder whose file is the text: their patterns are
// there.
func (r *compiledFile) buildIndex(id, start, end uint32, always bool) *groupIndex {
	var b builder
	b.scratch = scratchPool.Get().(*scratch)
	b.reset()
	defer b.scratch.release()
	b.src = unsafe.Slice(unsafe.StringData(r.text), len(r.text))
	n := end - start
	rules := slices.Grow(b.rules[:0], int(n))[:n]
	for k := range rules {
		ru := r.rule(start + uint32(k))
		if ru.flags&ruleStar != 0 {
			// The probes the text keeps after the pattern, or 0 (see
			// probesPay).
			end := ru.off + uint32(ru.priority())
			ru.probes = le32(r.text[end : end+filterLen])
		}
		rules[k] = ru
	}
	b.rules = rules
	links := b.sortIndexed(rules, b.links[:0])
	minDir := uint32(dirMin)
	if always {
		minDir = 2 // tests: every run that can have one has a directory
	}
	links = appendDirs(links, n, minDir)
	b.links = links
	// The layout of encode for rules alone (see builder.encode).
	pats := 0
	for k := range rules {
		pats += rules[k].textLen()
	}
	recs := pats + 4*headerWords
	at := headerWords + n*ruleWords + 1
	x := &groupIndex{n: n, at: at, perm: at + uint32(len(links)), id: id}
	buf := make([]byte, pats+4*int(x.heads()+2*n))
	b.writeRules(buf, buf[recs:recs+8*int(n)])
	binary.LittleEndian.PutUint32(buf[pats+4*int(at-1):], uint32(pats))
	putWords(buf[pats+4*int(at):], links)
	for k := range rules {
		binary.LittleEndian.PutUint32(buf[pats+4*(int(x.perm)+k):], rules[k].i)
		binary.LittleEndian.PutUint64(buf[pats+4*int(x.heads()+2*uint32(k)):], b.literalHead(&rules[k]))
	}
	// Every byte is written: from here on buf is the index's text, which
	// nothing may change (unsafe.String).
	x.r = form{kind: Parsed, wordsAt: uint32(pats), text: unsafe.String(unsafe.SliceData(buf), len(buf))}
	return x
}

// literalHead returns headAt(r.literalOf(i), 0): the first eight bytes of
// rule i's literal prefix, big-endian and padded with zeros. The padding
// sorts no higher than any byte, so heads that differ compare as the
// strings do; equal heads say nothing.
func (r *form) literalHead(i uint32) uint64 {
	s := r.words(headerWords+i*ruleWords, ruleWords+1) // ruleWords3, inlined
	w1 := le32(s[4:8])
	star, off, end := recStar(w1), recOff(le32(s[0:4])), recEnd(w1, le32(s[8:12]))
	n := int(end - off)
	if n > 0 && r.text[end-1] == '$' {
		n--
	}
	// The records follow the patterns: eight bytes from any pattern's
	// start are in the text.
	return headOf(le64(r.text[off:off+8]), n, star)
}

// literalHead is compiledFile.literalHead for a rule of a builder whose
// file is a compiled file's text (see compiledFile.buildIndex): its
// pattern, in index order, is read from the text the index is built from,
// so the heads are written with the rest of the index, before it becomes
// a string.
func (b *builder) literalHead(ru *rule) uint64 {
	pat := b.patternBytes(ru)
	// The records follow the patterns in the text: eight bytes from any
	// pattern's start are in it.
	return headOf(binary.LittleEndian.Uint64(pat[:8:8]), len(pat), ru.flags&ruleStar != 0)
}

// headOf returns the head of a literal prefix (see literalHead) from v,
// the eight bytes from its pattern's start, little-endian, and the
// pattern's length without a final '$'.
func headOf(v uint64, n int, star bool) uint64 {
	if star {
		if t := zeros(v^'*'*ones) & highs; t != 0 {
			n = min(n, bits.TrailingZeros64(t)/8)
		}
	}
	if n < 8 {
		v &= 1<<(8*n) - 1
	}
	return bits.ReverseBytes64(v)
}

// A run of many rules under one literal prefix, as "/*/x..." rules make
// under "/", has a directory: its rules by the last pair of their pattern,
// the probe a path lacks most often (see patternProbes). A query then tests
// only the rules whose last pair its path has, instead of the probes of
// every rule of the run, which a run of hundreds of wildcard rules made the
// dearest questions of the corpus. After the probes and links and the
// samples of an index come the directories' table: a count, then for each
// run with a directory its first rule (counted from the group's first) and
// where its directory starts (from the links' start), in rule order; then
// the directories. A directory is the bitmap of the last pairs of its rules
// (rules without probes under bit 0, which every path has; 8 words), then
// for each pair of the bitmap, in bit order, where its rules start among
// the entries, and where the last ones end; then the entries, 2 words a
// rule: its index, counted from the group's first, and its probes. The
// rules of one pair are in precedence order.

// dirBit marks the link of the first rule of a run that has a directory.
const dirBit = 1 << 30

// dirMin is the number of rules from which a run has a directory. A run of
// fewer is tested rule by rule, 8 bytes a rule read in one piece. In
// instructions a question (bench/profile.go): at 16, corpus.tsv's questions
// cost 1,294.9 against 1,292.5 at 32; at 64, www.sulekha.com's, whose two
// runs have 37 rules, 3,154.7 against 3,042.6.
const dirMin = 32

// appendDirs appends to links, which hold the probes and links of n rules
// in index order and maybe their samples, the directories of the runs of
// at least min rules and their table (see above), and marks those runs.
func appendDirs(links []uint32, n, min uint32) []uint32 {
	// The runs with a directory, counted first for the table's size.
	runs := func(each func(a, z uint32)) {
		for a := uint32(0); a < n; {
			z := a + 1
			for z < n && links[linkWords*z+1]&runBit != 0 {
				z++
			}
			if z-a >= min {
				each(a, z)
			}
			a = z
		}
	}
	nd := uint32(0)
	runs(func(a, z uint32) { nd++ })
	tab := uint32(len(links))
	links = append(links, nd)
	links = slices.Grow(links, int(2*nd))[:len(links)+int(2*nd)]
	k := uint32(0)
	runs(func(a, z uint32) {
		links[tab+1+2*k], links[tab+2+2*k] = a, uint32(len(links))
		k++
		links[linkWords*a+1] |= dirBit
		// The bitmap of the run's last pairs, and how many rules have each.
		var bm [4]uint64
		var next [256]uint32
		for i := a; i < z; i++ {
			low := links[linkWords*i] & 0xff
			bm[low>>6] |= 1 << (low & 63)
			next[low]++
		}
		for _, w := range bm {
			links = append(links, uint32(w), uint32(w>>32))
		}
		// Where each pair's rules start, then the entries in that order:
		// next[low] is the place of the next rule of pair low.
		sum := uint32(0)
		for low := range next {
			if c := next[low]; c != 0 {
				links = append(links, sum)
				next[low] = sum
				sum += c
			}
		}
		links = append(links, sum)
		e := uint32(len(links))
		links = slices.Grow(links, int(2*sum))[:len(links)+int(2*sum)]
		for i := a; i < z; i++ {
			probes := links[linkWords*i]
			low := probes & 0xff
			links[e+2*next[low]], links[e+2*next[low]+1] = i, probes
			next[low]++
		}
	})
	return links
}
