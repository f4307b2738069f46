package robotstxt

import (
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file puts URLs in the form in which a crawler sends them and in
// which the rules can be matched against them. Parse normalises every
// pattern (SPEC §3): bytes from 0x80 up become %XX, and the hex digits of
// %-escapes are upper-cased. Allowed compares the URL with the patterns byte
// for byte, as Google's parser does, so a URL that a crawler took raw from a
// page misses the rule meant for it:
//
//	Disallow: /ü/         stored as /%C3%BC/
//	http://h/ü/x          does not match: ü is two bytes ≥ 0x80
//	http://h/%C3%BC/x     matches: NormalizeURL("http://h/ü/x") gives this
//	http://h/%c3%bc/x     does not match; NormalizeURL upper-cases the escapes
//
// An HTTP client cannot send a space, '"', '<', '>' or the other bytes that
// RFC 3986 allows nowhere in a URI; Go's net/url writes them %-encoded on
// the wire, and so does every other client. The rules meet the URL as it is
// sent, so NormalizeURL encodes them too:
//
//	Disallow: /a%20b      stored as written
//	http://h/a b          sent as /a%20b: NormalizeURL gives /a%20b, disallowed
//	Disallow: /my docs/   stored as written, with its space
//	http://h/my docs/x    sent as /my%20docs/x, which the rule does not match

// needsWork marks the bytes NormalizeURL may change: '%' (an escape to
// upper-case), the bytes of grammar.WireEscaped, and every byte from 0x80 up.
var needsWork = func() (t [256]bool) {
	t['%'] = true
	for i := range len(grammar.WireEscaped) {
		t[grammar.WireEscaped[i]] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// NormalizeURL returns rawURL in the form an HTTP client sends it and the
// rules are matched in: each byte from 0x80 up, and each byte that no part
// of a URI may hold raw (space, '"', '<', '>', '\', '^', '`', '{', '|',
// '}'), becomes %XX, and each %-escape gets upper-case hex digits, all with
// the digits "0123456789ABCDEF" (RFC 3986 §6.2.2.1: the case of an escape's
// digits carries no meaning). Nothing else changes: escapes are not decoded
// ("%2F" stays "%2F", not "/"), dot segments stay, the path's case stays,
// and a '%' not followed by two hex digits stays as it is. The whole string
// is normalised; the host's bytes play no part in matching.
//
// The path and query of the result are what package fetch's Transport
// puts on the wire for rawURL, so that the URL asked about is the URL sent;
// a client that sends rawURL another way (Go's net/url alone, for one,
// decodes and re-encodes a path whose escapes it finds invalid) should send
// this form. Patterns are not encoded the same way: a rule with a raw space
// is kept as written, as Google's parser keeps it, and no URL that can be
// sent matches it there.
//
// NormalizeURL is idempotent, and it returns rawURL itself, without
// allocating, when there is nothing to change.
func NormalizeURL(rawURL string) string {
	i := firstToNormalize(rawURL)
	if i < 0 {
		return rawURL
	}
	grow := 0
	for j := i; j < len(rawURL); j++ {
		if c := rawURL[j]; c != '%' && needsWork[c] {
			grow += 2
		}
	}
	var b strings.Builder
	b.Grow(len(rawURL) + grow)
	b.WriteString(rawURL[:i])
	const hex = "0123456789ABCDEF"
	for j := i; j < len(rawURL); j++ {
		switch c := rawURL[j]; {
		case !needsWork[c]:
			b.WriteByte(c)
		case c == '%' && grammar.IsEscape(rawURL, j):
			b.WriteByte('%')
			b.WriteByte(grammar.Upper(rawURL[j+1]))
			b.WriteByte(grammar.Upper(rawURL[j+2]))
			j += 2
		case c == '%':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// firstToNormalize returns the index of the first byte of s that
// NormalizeURL changes, or -1 when it changes none. It skips eight bytes at
// a time while [plainWord] vouches for them, as most URLs are plain ASCII.
// Be careful when changing it: it is on the path of every question a
// fetch.Cache answers and every request a fetch.Transport sends.
func firstToNormalize(s string) int {
	i := 0
	for i < len(s) {
		if i+8 <= len(s) && plainWord(le64(s[i:i+8])) {
			i += 8
			continue
		}
		c := s[i]
		switch {
		case !needsWork[c]:
			i++
		case c != '%':
			return i
		case !grammar.IsEscape(s, i):
			i++
		case grammar.IsLowerHex(s[i+1]) || grammar.IsLowerHex(s[i+2]):
			return i
		default:
			i += 3
		}
	}
	return -1
}

// plainWord reports whether none of the eight bytes of v is one that
// NormalizeURL may change. It may say false for a plain word, which the
// caller then reads byte by byte: it flags every byte below '&' (controls,
// space, '!', '"', '#', '$', '%') and above 'z' ('{', '|', '}', '~', DEL),
// '<' and '>' together with nothing else, '\' and '^' likewise, and '`'
// together with '@'. Be careful when changing it: with each test a few
// operations per word, it is most of what a plain URL costs.
func plainWord(v uint64) bool {
	// With every byte below 0x80 (v's own high bits are tested too):
	// v-ones*n sets a byte's high bit where the byte is below n, and
	// v+ones*(0x7F-n) where it is above n. x^(ones*c) has a zero byte
	// where x holds c, and zeros(y) sets a high bit when y has a zero byte
	// (see match.go). Clearing bit 1 makes '<' and '>' both 0x3C, and '\'
	// and '^' both 0x5C; clearing bit 5 makes '`' and '@' both 0x40.
	m := v &^ (ones * 0x02)
	lg, bc := m^(ones*0x3C), m^(ones*0x5C)
	at := (v &^ (ones * 0x20)) ^ (ones * 0x40)
	flags := v | (v - ones*'&') | (v + ones*(0x7F-'z')) | zeros(lg) | zeros(bc) | zeros(at)
	return flags&highs == 0
}
