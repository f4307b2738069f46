package grammar

import "encoding/binary"

// IsTokenByte reports whether c may appear in a product token: [A-Za-z_-].
func IsTokenByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '-' || c == '_'
}

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
	i, j := 0, len(b)
	// Indentation, as of HTML pages served as robots.txt, is mostly
	// spaces: eight at a time.
	for i+8 <= j && binary.LittleEndian.Uint64(b[i:]) == 0x2020202020202020 {
		i += 8
	}
	for i < j && IsSpace(b[i]) {
		i++
	}
	for j > i && IsSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// MaxLineLen is the number of bytes of a line that are kept; the rest of the
// line is dropped. Google's parser sizes its line buffer as eight times the
// 2083-byte URL limit of some browsers (2083 × 8 = 16664 bytes) and keeps one
// byte for the terminating NUL.
const MaxLineLen = 2083*8 - 1
