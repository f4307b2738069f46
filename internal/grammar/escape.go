package grammar

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// AppendEscaped appends value normalised as Google's parser normalises a
// pattern: %-escapes get upper-case hex digits and bytes ≥ 0x80 become %XX.
// Nothing else changes.
func AppendEscaped(dst, value []byte) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == '%' && IsEscape(value, i):
			dst = append(dst, '%', Upper(value[i+1]), Upper(value[i+2]))
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// NeedsEscape reports whether normalising value changes it: a byte ≥ 0x80,
// or a %-escape with a lower-case hex digit.
func NeedsEscape(value []byte) bool {
	if bytes.IndexByte(value, '%') < 0 {
		// Then only a high byte can need escaping: test eight at a time.
		i := 0
		for ; i+8 <= len(value); i += 8 {
			if binary.LittleEndian.Uint64(value[i:])&0x8080808080808080 != 0 {
				return true
			}
		}
		for ; i < len(value); i++ {
			if value[i] >= 0x80 {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c >= 0x80 {
			return true
		}
		if c == '%' && IsEscape(value, i) {
			if IsLowerHex(value[i+1]) || IsLowerHex(value[i+2]) {
				return true
			}
			i += 2
		}
	}
	return false
}

// IsEscape reports whether the '%' at s[i] starts a %-escape: two hex
// digits follow it, in either case. Every part that reads %-escapes asks
// it here.
func IsEscape[T string | []byte](s T, i int) bool {
	return i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2])
}

// IsHex reports whether c is a hex digit, in either case.
func IsHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

// HexValue returns the value of the hex digit c, in either case (see
// IsHex).
func HexValue(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// IsLowerHex reports whether c is a lower-case hex letter.
func IsLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

// Upper folds an ASCII lower-case letter to upper case, as %-escapes are
// written.
func Upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// WireEscaped holds the ASCII bytes that robotstxt.NormalizeURL %-encodes: those that
// RFC 3986 §2 allows in no part of a URI and that Go's net/url never sends
// raw in a path (its validEncoded refuses them): space " < > \ ^ ` { | }.
// '#' and '?' are not here: they end the path and the query. Control bytes
// are not here either: no URL holding one can be sent (net/url refuses it),
// and a NUL must stay, since the reference matches the path as a C string.
const WireEscaped = " \"<>\\^`{|}"

// IndexWireEscaped returns the index of the first byte of b that is in
// WireEscaped, or -1.
func IndexWireEscaped(b []byte) int {
	for i, c := range b {
		if isWireEscaped[c] {
			return i
		}
	}
	return -1
}

var isWireEscaped = func() (t [256]bool) {
	for i := range len(WireEscaped) {
		t[WireEscaped[i]] = true
	}
	return t
}()

// EscapedByAll returns the index of the first byte of pattern that every
// HTTP client %-encodes, browsers (the URL Standard's percent-encode sets)
// as well as Go's net/url, or -1: a space, '"', '<' or '>' anywhere, and
// '`', '{' or '}' before the query. The other bytes of WireEscaped go out
// raw from browsers and from crawlers built on them, so a pattern with only
// those draws a warning, not an error.
func EscapedByAll(pattern []byte) int {
	set := " \"<>`{}"
	for i, c := range pattern {
		if c == '?' {
			set = " \"<>"
		}
		if strings.IndexByte(set, c) >= 0 {
			return i
		}
	}
	return -1
}
