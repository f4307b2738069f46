package grammar

import (
	"encoding/binary"
	"math/bits"
)

// IsTokenByte reports whether c may appear in a product token: [A-Za-z_-].
// It reads a table: a loop over a run of token bytes then costs a load and
// a test a byte, where the comparisons cost four.
func IsTokenByte(c byte) bool { return tokenBytes[c] }

// tokenBytes holds true for the bytes of [A-Za-z_-].
var tokenBytes = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	t['-'], t['_'] = true, true
	return t
}()

// IsToken reports whether s is non-empty and made only of [A-Za-z_-].
func IsToken[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !IsTokenByte(s[i]) {
			return false
		}
	}
	return true
}

// IsGlobalAgent reports whether a trimmed User-agent value names the
// global group: exactly "*", or "*" followed by whitespace and anything.
func IsGlobalAgent(value []byte) bool {
	return len(value) > 0 && value[0] == '*' && (len(value) == 1 || IsSpace(value[1]))
}

// AgentToken reduces a User-agent value to its product token, the longest
// prefix of [A-Za-z_-]: "Googlebot/2.1" becomes "Googlebot" and "*foo" the
// empty token.
func AgentToken(value []byte) []byte {
	n := 0
	for n < len(value) && IsTokenByte(value[n]) {
		n++
	}
	return value[:n]
}

// TokenIs reports whether the product token of value (see AgentToken) is
// agent, ignoring ASCII case, as CompareFold compares an agent with a
// token folded to lower case: equal only when agent is made of token bytes
// too. It reads value in place, for a caller that compares one agent and
// keeps no token.
func TokenIs(value []byte, agent string) bool {
	if len(value) < len(agent) || len(value) > len(agent) && IsTokenByte(value[len(agent)]) {
		return false
	}
	for i := 0; i < len(agent); i++ {
		if c := value[i]; !IsTokenByte(c) || Lower(c) != Lower(agent[i]) {
			return false
		}
	}
	return true
}

// AppendLowerToken appends to dst the product token of value (see
// AgentToken) in lower case, and returns the result. It tests eight bytes of
// value at a time, and writes them whole: dst needs room for len(value)+8
// bytes past its length, and the bytes past the token in that room are
// overwritten.
func AppendLowerToken(dst, value []byte) []byte {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		low7  = 0x7f7f7f7f7f7f7f7f
	)
	n := len(dst)
	room := dst[n : n+len(value)+8]
	for i := 0; ; i += 8 {
		if cap(value)-i < 8 {
			// The end of the file is near: byte by byte.
			for ; i < len(value) && IsTokenByte(value[i]); i++ {
				room[i] = Lower(value[i])
			}
			return dst[:n+i]
		}
		v := binary.LittleEndian.Uint64(value[i : i+8 : i+8])
		// Letters: folded to lower case, their low seven bits lie in
		// 'a'-'z' and their high bit is clear. Adding to seven bits
		// carries into the high bit of the byte, never past it.
		y := (v | 0x20*ones) & low7
		letter := (y + (0x80-'a')*ones) &^ (y + (0x80-'z'-1)*ones) &^ v & highs
		dash, under := v^'-'*ones, v^'_'*ones
		other := (dash&low7 + low7 | dash) & (under&low7 + low7 | under) & highs &^ letter
		if r := len(value) - i; r < 8 {
			// The bytes past the value are not its token's.
			other |= highs << (8 * r)
		}
		binary.LittleEndian.PutUint64(room[i:i+8], v|letter>>2)
		if other != 0 {
			return dst[:n+i+bits.TrailingZeros64(other)/8]
		}
	}
}

// IsSpace reports whether c is ASCII whitespace as C's isspace sees it:
// space, tab, LF, VT, FF or CR. Google's parser trims keys and values of
// these.
func IsSpace(c byte) bool {
	return c <= ' ' && (c == ' ' || '\t' <= c && c <= '\r')
}

// TrimSpace trims b of the whitespace [IsSpace] names, at both ends, as
// Google's parser trims a line.
func TrimSpace(b []byte) []byte {
	if len(b) > 0 && b[0] > ' ' && b[len(b)-1] > ' ' {
		return b // the common case: nothing to trim
	}
	b = TrimLeftSpace(b)
	j := len(b)
	for j > 0 && IsSpace(b[j-1]) {
		j--
	}
	return b[:j]
}

// TrimLeftSpace trims b of the whitespace [IsSpace] names at its start.
func TrimLeftSpace(b []byte) []byte { return b[LeadingSpace(b):] }

// LeadingSpace returns the number of bytes of whitespace [IsSpace] names at
// the start of b: b[LeadingSpace(b)] is its first byte that is none, if
// any. A caller that needs that byte alone reads it without cutting b.
func LeadingSpace(b []byte) int {
	// Indentation, as of HTML pages served as robots.txt, is mostly
	// spaces: eight at a time, and the word that holds the run's end
	// gives it at once, its first byte that is no space. The loops count
	// an index: a slice cut at each step costs more than the step.
	i := 0
	for ; i <= len(b)-8; i += 8 {
		if x := binary.LittleEndian.Uint64(b[i:i+8]) ^ 0x2020202020202020; x != 0 {
			i += bits.TrailingZeros64(x) / 8
			break
		}
	}
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// MaxLineLen is the number of bytes of a line that are kept; the rest of the
// line is dropped. Google's parser sizes its line buffer as eight times the
// 2083-byte URL limit of some browsers (2083 × 8 = 16664 bytes) and keeps one
// byte for the terminating NUL.
const MaxLineLen = 2083*8 - 1
