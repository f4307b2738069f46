package robotstxt

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
)

// This file turns a URL into the path that rules are matched against and
// matches one normalised pattern against it (SPEC §5). It knows nothing of
// lines, groups or agents.
//
// A pattern is stored as its literal text without a final '$'; the '$' is
// kept as the anchored flag. '*' matches any run of bytes. Matching is greedy:
// the text before the first '*' must be a prefix of the path, each later piece
// is found at its leftmost place after the previous one, and an anchored
// pattern's last piece must end the path. Leftmost placement never loses a
// match, so there is no backtracking; each piece is found with strings.Index,
// which keeps the worst case at O(len(path) × len(pattern)) and the usual
// case far below it.

// urlPath is the path, params and query of a URL. It is "/" + rest when slash
// is set (a URL like "http://h?q" whose query comes before any path), and rest
// otherwise, so that no query needs to build a new string.
type urlPath struct {
	rest  string
	slash bool
}

// pathOf returns the part of rawURL that rules are matched against, as
// Google's parser takes it: skip a leading "//"; "://" ends a scheme only
// before the first '/', '?' or ';'; the path starts at the next of those and
// ends at '#'; it is "/" when there is none, or when '#' comes first.
func pathOf(rawURL string) urlPath {
	s, begin := pathStart(rawURL)
	if begin < 0 {
		return urlPath{rest: "/"}
	}
	return pathFrom(s, begin)
}

// pathStart returns rawURL without a leading "//", and where its path
// starts, as pathOf finds it, or -1 when its path is "/": it has none, or
// a '#' comes first.
func pathStart(rawURL string) (s string, begin int) {
	s = rawURL
	if host := schemeLen(s); host > 0 {
		// The usual URL: its scheme holds no '#', and one scan of the host
		// finds where the path starts, or a '#' before it.
		begin := scanPathStartOrHash(s, host)
		if begin < 0 || s[begin] == '#' {
			return s, -1
		}
		return s, begin
	}
	if len(s) >= 2 && s[0] == '/' && s[1] == '/' {
		s = s[2:]
	}
	// host is where the host starts once a scheme is found, or 0; begin is
	// where the path starts, or -1.
	host, begin := 0, indexPathStart(s)
	// "://" ends a scheme only when it comes before the first '/', '?' or
	// ';', that is when that first one is the '/' of "://".
	if begin > 0 && s[begin] == '/' && s[begin-1] == ':' && begin+1 < len(s) && s[begin+1] == '/' {
		host = begin + 2
	}
	if host > 0 {
		begin = -1
		if i := indexPathStart(s[host:]); i >= 0 {
			begin = host + i
		}
	}
	// A '#' anywhere before the path, even in the scheme, leaves no path.
	if begin < 0 || strings.IndexByte(s[:begin], '#') >= 0 {
		return s, -1
	}
	return s, begin
}

// rawPath returns the path of s that starts at s[begin], which is '/', '?'
// or ';', up to the end of s: pathFrom's path when s holds no '#' and no
// NUL after begin, and otherwise longer (see query.exact).
func rawPath(s string, begin int) urlPath {
	if s[begin] != '/' {
		return urlPath{rest: s[begin:], slash: true}
	}
	return urlPath{rest: s[begin:]}
}

// pathFrom returns the path that starts at s[begin], which is '/', '?' or
// ';': up to the first '#', and, as Google's parser hands the path to its
// matcher as a C string, up to the first NUL byte.
func pathFrom(s string, begin int) urlPath {
	end := len(s)
	if len(s) >= 8 && len(s)-begin <= longPath {
		if i := scanHashOrNUL(s, begin); i >= 0 {
			end = i
		}
	} else {
		// A long path is scanned faster by IndexByte, which tests many
		// bytes an instruction, twice.
		if i := strings.IndexByte(s[begin:], '#'); i >= 0 {
			end = begin + i
		}
		if i := strings.IndexByte(s[begin:end], 0); i >= 0 {
			end = begin + i
		}
	}
	return rawPath(s[:end], begin)
}

// longPath is the length from which pathFrom looks for the path's end with
// IndexByte. Scanning eight bytes at a time made the questions about paths
// of 10,000 and 100,000 bytes up to four times as slow as IndexByte's scan
// (cd bench && go run . -quick); from 32 bytes on, IndexByte costs no more
// on the small files' questions (instructions a question under callgrind,
// cd bench && go run . -profile small -profilepasses N: 1,197.6 at 32,
// 1,199.5 at 64, 1,200.6 at 128; see bench/README.md, "A question on a
// parsed file").
const longPath = 32

// schemeLen returns the length of a leading "https://" or "http://", or 0:
// the usual URL's host is found without a search. Their "://" ends the
// scheme, as it comes before any other '/', '?' or ';'.
func schemeLen(s string) int {
	switch {
	case len(s) >= 8 && s[:8] == "https://":
		return 8
	case len(s) >= 7 && s[:7] == "http://":
		return 7
	}
	return 0
}

// The scans of a URL test eight bytes at a time: its host and path are
// scanned on every query. A word v of eight bytes has a byte equal to c
// where x = v ^ c*ones has a zero byte, and zeros(x) sets the high bit of
// the lowest zero byte of x, and maybe of bytes above it (a borrow runs
// up from a zero byte), never of a byte below: the lowest set bit of the
// result is the first byte sought.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeros returns the high bits of the lowest zero byte of x, and maybe of
// some bytes above it.
func zeros(x uint64) uint64 { return (x - ones) &^ x }

// pathStartOrHash marks the first byte of v that is '/', '?', ';' or '#'
// as zeros does. '/' (0x2f) and '?' (0x3f) are the two bytes that setting
// bit 0x10 makes '?', so one test finds both.
func pathStartOrHash(v uint64) uint64 {
	return (zeros((v|0x10*ones)^'?'*ones) | zeros(v^';'*ones) | zeros(v^'#'*ones)) & highs
}

// hashOrNUL marks the first byte of v that is '#' or NUL as zeros does.
func hashOrNUL(v uint64) uint64 { return (zeros(v^'#'*ones) | zeros(v)) & highs }

// scanPathStartOrHash returns the index of the first '/', '?', ';' or '#'
// of s from i on, or -1. s has at least 8 bytes: the last word is read
// whole, shifted down past the bytes before i.
func scanPathStartOrHash(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if t := pathStartOrHash(le64(s[i : i+8])); t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	if i < len(s) {
		// The zero bytes shifted in are none of those sought.
		if t := pathStartOrHash(le64(s[len(s)-8:]) >> (8 * (i + 8 - len(s)))); t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	return -1
}

// scanHashOrNUL is scanPathStartOrHash for '#' and NUL.
func scanHashOrNUL(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if t := hashOrNUL(le64(s[i : i+8])); t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	if i < len(s) {
		// The zero bytes shifted in are past the end.
		if t := hashOrNUL(le64(s[len(s)-8:]) >> (8 * (i + 8 - len(s)))); t != 0 {
			if k := i + bits.TrailingZeros64(t)/8; k < len(s) {
				return k
			}
		}
	}
	return -1
}

// le64 returns the eight bytes s starts with, little-endian.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// indexPathStart returns the index of the first '/', '?' or ';' in s, or -1.
func indexPathStart(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}

// key returns the byte after the path's leading '/', the key of the rules
// that may match it (see ruleKey). ok is false when the path is just "/".
func (p urlPath) key() (c byte, ok bool) {
	switch {
	case p.slash:
		return p.rest[0], true
	case len(p.rest) >= 2:
		return p.rest[1], true
	}
	return 0, false
}

// String returns the path as one string. It allocates when slash is set.
func (p urlPath) String() string {
	if p.slash {
		return "/" + p.rest
	}
	return p.rest
}

// matchPath reports whether the pattern lit (anchored when it ended in '$')
// matches the path p.
func matchPath(lit string, anchored bool, p urlPath) bool {
	if !p.slash {
		return match(lit, anchored, p.rest)
	}
	// The path is "/" + rest; take the virtual '/' by hand, then match the
	// rest of the pattern against rest.
	switch {
	case lit == "":
		return !anchored
	case lit[0] == '/':
		return match(lit[1:], anchored, p.rest)
	case lit[0] == '*':
		q := strings.TrimLeft(lit, "*")
		if q == "" {
			return true
		}
		// Either what follows the stars starts at the '/', or the stars
		// cover it and the whole pattern matches within rest.
		if q[0] == '/' && match(q[1:], anchored, p.rest) {
			return true
		}
		return match(lit, anchored, p.rest)
	}
	return false
}

// match reports whether lit matches a prefix of path (all of path when
// anchored). Be careful when changing it: it is the inner loop of Allowed.
func match(lit string, anchored bool, path string) bool {
	star := strings.IndexByte(lit, '*')
	if star < 0 {
		if anchored {
			return path == lit
		}
		return len(path) >= len(lit) && path[:len(lit)] == lit
	}
	if len(path) < star || path[:star] != lit[:star] {
		return false
	}
	path, lit = path[star:], lit[star+1:]
	for {
		for len(lit) > 0 && lit[0] == '*' {
			lit = lit[1:]
		}
		star = strings.IndexByte(lit, '*')
		if star < 0 {
			if anchored {
				return len(path) >= len(lit) && path[len(path)-len(lit):] == lit
			}
			return strings.Contains(path, lit)
		}
		i := strings.Index(path, lit[:star])
		if i < 0 {
			return false
		}
		path, lit = path[i+star:], lit[star+1:]
	}
}

// A pattern with a '*' matches a path only if every byte pair of its literal
// pieces (the runs between stars) occurs in the path. A query keeps the set
// of its path's pairs, each hashed to one of 256 bits (bit 0 is always set);
// a wildcard rule keeps four of its pairs' bits, its probes: its last pair,
// tested first, and three spread over the pattern (bit 0 for a pattern
// without pairs). Any four of its pairs would do, in any order, so a binary
// stored by a build that chose others answers the same
// (TestProbesAnyPairsAnyOrder). A rule with a probe the path lacks cannot
// match, and is passed over with bit tests instead of a search.
// Four probes keep the rule small. On www.marksandspencer.com's file, 110
// wildcard rules such as "/*ChangePassword*" that every path must be tested
// against, its 556 questions (crawled URLs up to 375 bytes) cost 530 ns
// each, against temoto's 63 µs (bench/README.md, "Files with the largest
// share", from cd bench && go run .).

// filterLen is the size of a wildcard rule's probes.
const filterLen = 4

// pathFilter is the set of a path's byte pairs.
type pathFilter [4]uint64

// pairBit returns the bit of the byte pair a, b: 1 to 255.
func pairBit(a, b byte) uint8 {
	h := uint8((uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> 24)
	if h == 0 {
		h = 1
	}
	return h
}

// patternProbes returns the probes of a pattern without its final '$', one
// byte each. A pattern of up to 64 bytes goes to shortProbes; for a longer
// one the pairs are counted, and the probes found, a literal piece at a
// time: a piece of m bytes has m-1 pairs. Both are held to probesByPairs,
// the definition, on either side of 64 bytes (TestPatternProbes).
func patternProbes(lit []byte) uint32 {
	if len(lit) <= 64 {
		return shortProbes(lit)
	}
	n := 0
	for rest := lit; ; {
		i := bytes.IndexByte(rest, '*')
		if i < 0 {
			n += max(len(rest)-1, 0)
			break
		}
		n += max(i-1, 0)
		rest = rest[i+1:]
	}
	// The probes are pairs at[k] of the n pairs, in pattern order; seen
	// counts the pairs of the pieces before. The last pair goes in the
	// low byte, which queries test first (see pathFilter.admits): rules
	// that share their first bytes (a directory, "/*/") mostly differ in
	// their last.
	at := [4]int{n / 4, n / 2, 3 * n / 4, n - 1}
	var probes uint32
	k, seen := 0, 0
	for rest := lit; n > 0 && k < 4; {
		piece := rest
		i := bytes.IndexByte(rest, '*')
		if i >= 0 {
			piece, rest = rest[:i], rest[i+1:]
		}
		m := max(len(piece)-1, 0)
		for ; k < 4 && at[k] < seen+m; k++ {
			j := at[k] - seen
			probes |= uint32(pairBit(piece[j], piece[j+1])) << (8 * ((k + 1) % 4))
		}
		seen += m
		if i < 0 {
			break
		}
	}
	return probes
}

// shortProbes is patternProbes for a pattern of at most 64 bytes, from the
// bitmap of its pairs: bit i is set when lit[i-1] and lit[i] are a pair,
// neither a '*'. The last pair is then the highest set bit, and pair r the
// r-th, with no search for each piece's '*'.
func shortProbes(lit []byte) uint32 {
	stars := byteMap(lit, '*', '*')
	// 1<<64 is 0 in Go, so all is every bit for 64 bytes.
	all := uint64(1)<<len(lit) - 1
	pairs := all &^ stars &^ (stars << 1) &^ 1
	n := uint(bits.OnesCount64(pairs))
	if n == 0 {
		return 0
	}
	last := 63 - bits.LeadingZeros64(pairs)
	probes := uint32(pairBit(lit[last-1], lit[last]))
	seen := uint(0)
	for k := uint(1); k < 4; k++ {
		// Byte k holds pair k*n/4: n/4, n/2, 3n/4.
		for at := k * n / 4; seen < at; seen++ {
			pairs &= pairs - 1
		}
		i := bits.TrailingZeros64(pairs)
		probes |= uint32(pairBit(lit[i-1], lit[i])) << (8 * k)
	}
	return probes
}

// byteMap returns the bitmap of the bytes of b, which holds at most 64,
// that are x or y: bit i is set when b[i] is one. It reads eight bytes at a
// time, the last eight whole when the length is not a multiple of eight
// (the bytes read twice set the same bits).
func byteMap(b []byte, x, y byte) uint64 {
	var m uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		m |= wordMap(binary.LittleEndian.Uint64(b[i:]), x, y) << i
	}
	if i < len(b) && len(b) >= 8 {
		m |= wordMap(binary.LittleEndian.Uint64(b[len(b)-8:]), x, y) << (len(b) - 8)
	} else {
		for ; i < len(b); i++ {
			if c := b[i]; c == x || c == y {
				m |= 1 << i
			}
		}
	}
	return m
}

// wordMap returns the bitmap of the bytes of the word v that are x or y,
// byte k at bit k.
func wordMap(v uint64, x, y byte) uint64 {
	return byteBits(zeroBytes(v^uint64(x)*ones) | zeroBytes(v^uint64(y)*ones))
}

// zeroBytes returns the high bit of each zero byte of x, exactly: adding
// 0x7f to the low seven bits of a byte carries into its high bit exactly
// when they are not zero, and never out of the byte (zeros, which borrows,
// marks only the lowest exactly).
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x) & highs
}

// byteBits gathers the high bits of the bytes of m, which has no other
// bits, into a bitmap: byte k's at bit k.
func byteBits(m uint64) uint64 { return (m >> 7) * 0x0102040810204080 >> 56 }

// filter returns the set of the path's pairs.
func (p urlPath) filter() pathFilter {
	f := pathFilter{1}
	s := p.rest
	if p.slash && len(s) > 0 {
		b := pairBit('/', s[0])
		f[b>>6] |= 1 << (b & 63)
	}
	for i := 1; i < len(s); i++ {
		b := pairBit(s[i-1], s[i])
		f[b>>6] |= 1 << (b & 63)
	}
	return f
}

// admits reports whether the path has every probe. Most wildcard rules
// lack their first probe, their last pair: it is tested alone first. It is
// small enough to be inlined, in the loop over a run's rules too (see
// query.admitted).
func (f *pathFilter) admits(p uint32) bool {
	return f[p>>6&3]>>(p&63)&1 != 0 &&
		f[p>>14&3]>>(p>>8&63)&(f[p>>22&3]>>(p>>16&63))&(f[p>>30]>>(p>>24&63))&1 != 0
}
