package robotstxt

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/observe"
)

const maxLineLen = grammar.MaxLineLen // see there

// lexer splits robots.txt bytes into numbered lines (SPEC §1). It knows
// nothing of keys beyond the line's shape.
//
// The next LF, NUL and '#' are each found once with the vectorised
// IndexByte and reused while they lie ahead, so a file with LF or CR LF
// endings and few comments costs about one search a line, and CR-only files
// stay linear.
//
// A file whose first CR ends a CR LF is read as if every CR did: lines end
// at LF alone, and the CRs are counted instead of searched for, which would
// cost a second search a line. The lexer then counts the CR LF ends it
// meets, and sound reports whether they were all the CRs; when they were
// not, the lines were wrong and the caller reads the file again with a
// lexer that searches each CR (see searchEachCR).
type lexer struct {
	data []byte
	pos  int // start of the next line
	num  int // number of the line last returned
	done bool

	// The next index at or after pos of each of LF, a lone CR (one that
	// no LF follows), NUL and '#', or len(data).
	lf, cr, nul, hash int

	// first is the least of cr, nul and hash as they were after the last
	// line: while it lies past the next LF, a line ends at that LF (or at
	// a CR right before it) and holds no other CR, no NUL and no '#', and
	// none of them needs looking at.
	first int

	// mayNUL and mayHash report whether the line last returned may hold a
	// NUL or a '#'; when false it surely does not.
	mayNUL, mayHash bool

	// crs is the number of CRs in the file when lines end at LF alone,
	// else -1; stripped is the number of CR LF ends met.
	crs, stripped int
}

func newLexer(data []byte) lexer {
	pos, cr, crs := lexStart(data)
	return lexer{data: data, pos: pos, lf: -1, cr: cr, nul: -1, hash: -1, first: -1, crs: crs}
}

// lexStart returns where the first line of data starts, the lexer's first
// lone CR and its count of CRs (see lexer): no CR, and none to search for;
// a CR LF first, and every CR counted; or a lone CR first, and the others
// searched for.
func lexStart(data []byte) (pos, cr, crs int) {
	// A prefix of the UTF-8 byte order mark EF BB BF is skipped, so a partial
	// mark disappears too.
	bom := "\xef\xbb\xbf"
	for pos < len(bom) && pos < len(data) && data[pos] == bom[pos] {
		pos++
	}
	i := bytes.IndexByte(data[pos:], '\r')
	switch {
	case i < 0:
		return pos, len(data), -1
	case pos+i+1 < len(data) && data[pos+i+1] == '\n':
		return pos, len(data), 1 + bytes.Count(data[pos+i+1:], []byte{'\r'})
	}
	return pos, pos + i, -1
}

// searchEachCR makes l, which has returned no line yet, search for each
// lone CR: a file read again after sound said no, or whose lines an
// observer sees, so that it sees each line once.
func (l *lexer) searchEachCR() {
	if l.crs >= 0 {
		l.cr, l.crs = -1, -1
	}
}

// sound reports whether the lines l returned are the file's lines: always,
// unless it read lines to end at LF alone (see lexer) and met a CR that
// ends no CR LF. It holds once next has returned false.
func (l *lexer) sound() bool { return l.crs < 0 || l.stripped == l.crs }

// find returns the index of the next c at or after l.pos, or len(l.data),
// searching only when the last one found lies behind. It is small enough to
// be inlined; the search itself is not.
func (l *lexer) find(next *int, c byte) int {
	if *next < l.pos {
		l.search(next, c)
	}
	return *next
}

// searchCR finds the next lone CR (see lexer.cr). The CR of each CR LF is
// passed over in the search, so that a file of CR LF endings costs one
// search a line, not two.
func (l *lexer) searchCR() {
	for p := l.pos; ; p += 2 {
		i := bytes.IndexByte(l.data[p:], '\r')
		if i < 0 {
			l.cr = len(l.data)
			return
		}
		if p += i; p+1 == len(l.data) || l.data[p+1] != '\n' {
			l.cr = p
			return
		}
	}
}

func (l *lexer) search(next *int, c byte) {
	if i := bytes.IndexByte(l.data[l.pos:], c); i >= 0 {
		*next = l.pos + i
	} else {
		*next = len(l.data)
	}
}

// next returns the next raw line without its line break. CR, LF and CR LF each
// end a line; text after the last break is a final line, so a file always has
// at least one line.
func (l *lexer) next() (line []byte, ok bool) {
	if l.done {
		return nil, false
	}
	// The next LF is searched for at every line; it is inline here, the
	// others through find.
	if l.lf < l.pos {
		if i := bytes.IndexByte(l.data[l.pos:], '\n'); i >= 0 {
			l.lf = l.pos + i
		} else {
			l.lf = len(l.data)
		}
	}
	l.num++
	pos := l.pos
	if end := l.lf; l.first > end {
		// The usual line: an LF ends it, and none of the others lies
		// before. first stays ahead of the next line's start.
		l.mayNUL, l.mayHash = false, false
		l.pos = end + 1
		return l.lineTo(pos, end), true
	}
	if l.cr < pos {
		l.searchCR()
	}
	end := min(l.lf, l.cr)
	l.mayNUL = l.find(&l.nul, 0) < end
	l.mayHash = l.find(&l.hash, '#') < end
	l.pos = end + 1
	if end == len(l.data) {
		l.done = true
	}
	// Any of them now behind pos makes first lie behind the next LF too,
	// and the next line searches again.
	l.first = min(l.cr, l.nul, l.hash)
	if end == l.lf && end < len(l.data) {
		return l.lineTo(pos, end), true
	}
	return l.data[pos:end], true
}

// lineTo returns the line from pos to the LF at end, without the CR of a
// CR LF, which it counts (see sound).
func (l *lexer) lineTo(pos, end int) []byte {
	if end > pos && l.data[end-1] == '\r' {
		end--
		l.stripped++
	}
	return l.data[pos:end]
}

// lineFlags describe what the lexer did to a line, for an observer of the
// parse (see package observe).
type lineFlags = observe.Flags

const (
	flagTruncated = observe.Truncated
	flagNUL       = observe.NUL
	flagComment   = observe.Comment
	flagNoColon   = observe.NoColon
	flagIgnored   = observe.Ignored
)

// splitLine finds the key and value of a raw line (SPEC §1): content stops at
// maxLineLen bytes, at a NUL and at '#'; the first ':' separates key and
// value, or else a single run of spaces and tabs between exactly two tokens.
// Key and value are trimmed of ASCII whitespace. ok is false when the line
// holds no key (a blank line, a comment, or text that is not key and value).
func splitLine(raw []byte) (key, value []byte, flags lineFlags, ok bool) {
	return split(raw, true, true)
}

// split is splitLine that skips the searches for NUL and '#' when the
// lexer knows them to be in vain (see lexer.mayNUL).
func split(raw []byte, mayNUL, mayHash bool) (key, value []byte, flags lineFlags, ok bool) {
	line := raw
	if len(line) > maxLineLen {
		line = line[:maxLineLen]
		flags |= flagTruncated
	}
	if mayNUL {
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
			flags |= flagNUL
		}
	}
	if mayHash {
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
			flags |= flagComment
		}
	}
	line = trimSpace(line)
	if len(line) == 0 {
		return nil, nil, flags, false
	}
	sep := bytes.IndexByte(line, ':')
	vstart := sep + 1
	if sep < 0 {
		// Google's parser accepts whitespace in place of a missing colon, but
		// only between exactly two tokens.
		var two bool
		if sep, vstart, two = twoTokens(line); !two {
			return nil, nil, flags | flagIgnored, false
		}
		flags |= flagNoColon
	}
	// The line is trimmed: the key can only end in whitespace, and the
	// value start with it.
	key = line[:sep]
	for len(key) > 0 && isSpace(key[len(key)-1]) {
		key = key[:len(key)-1]
	}
	if len(key) == 0 {
		return nil, nil, flags | flagIgnored, false
	}
	value = line[vstart:]
	for len(value) > 0 && isSpace(value[0]) {
		value = value[1:]
	}
	return key, value, flags, true
}

// isSpace is grammar.IsSpace: ASCII whitespace as Google's parser trims it.
func isSpace(c byte) bool { return grammar.IsSpace(c) }

func isSpaceTab(c byte) bool { return c == ' ' || c == '\t' }

// twoTokens reports whether line, trimmed and not empty, is two tokens
// with one run of spaces and tabs between them, from sep to vstart. A line
// of at most 64 bytes is read eight bytes at a time into a bitmap of its
// spaces and tabs, and left as soon as the bitmap holds a second run: many
// such lines are text or HTML of three tokens or more.
func twoTokens(line []byte) (sep, vstart int, ok bool) {
	if len(line) > 64 {
		if sep = indexSpaceTab(line); sep < 0 {
			return 0, 0, false
		}
		vstart = sep + 1
		for vstart < len(line) && isSpaceTab(line[vstart]) {
			vstart++
		}
		return sep, vstart, indexSpaceTab(line[vstart:]) < 0
	}
	var m uint64
	i := 0
	for ; i+8 <= len(line); i += 8 {
		m |= wordMap(binary.LittleEndian.Uint64(line[i:]), ' ', '\t') << i
		// The runs of m from its first bit on: more than one is a third
		// token. (With m zero, the shift by 64 leaves zero.)
		if x := m >> bits.TrailingZeros64(m); x&(x+1) != 0 {
			return 0, 0, false
		}
	}
	if i < len(line) && len(line) >= 8 {
		m |= wordMap(binary.LittleEndian.Uint64(line[len(line)-8:]), ' ', '\t') << (len(line) - 8)
	} else {
		for ; i < len(line); i++ {
			if isSpaceTab(line[i]) {
				m |= 1 << i
			}
		}
	}
	if m == 0 {
		return 0, 0, false
	}
	sep = bits.TrailingZeros64(m)
	// The run is the trailing ones of m from sep on; the line does not end
	// in one, so vstart < len(line) <= 64.
	vstart = sep + bits.TrailingZeros64(^(m >> sep))
	return sep, vstart, m>>vstart == 0
}

// indexSpaceTab returns the index of the first space or tab in b, or -1.
// Lines without a colon are often long (HTML, prose), so both are searched
// with the vectorised IndexByte.
func indexSpaceTab(b []byte) int {
	i := bytes.IndexByte(b, ' ')
	head := b
	if i >= 0 {
		head = b[:i]
	}
	if j := bytes.IndexByte(head, '\t'); j >= 0 {
		return j
	}
	return i
}

// trimSpace is grammar.TrimSpace.
func trimSpace(b []byte) []byte { return grammar.TrimSpace(b) }
