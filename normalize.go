package robotstxt

import "strings"

// This file puts URLs in the form robots.txt rules are stored in. Parse
// normalises every pattern (SPEC §3): bytes from 0x80 up become %XX, and the
// hex digits of %-escapes are upper-cased. Allowed compares the URL with the
// patterns byte for byte, as Google's parser does, so a URL that a crawler
// took raw from a page misses the rule meant for it:
//
//	Disallow: /ü/         stored as /%C3%BC/
//	http://h/ü/x          does not match: ü is two bytes ≥ 0x80
//	http://h/%C3%BC/x     matches: NormalizeURL("http://h/ü/x") gives this
//	http://h/%c3%bc/x     does not match; NormalizeURL upper-cases the escapes

// NormalizeURL returns rawURL normalised the way Parse normalises patterns,
// so that [Robots.Allowed] compares like with like: each byte from 0x80 up
// becomes %XX and each %-escape gets upper-case hex digits, both with the
// digits "0123456789ABCDEF". Nothing else changes: escapes are not decoded
// ("%2F" stays "%2F", not "/"), dot segments stay, the path's case stays,
// and a '%' not followed by two hex digits stays as it is. The whole string
// is normalised; the host's bytes play no part in matching.
//
// The result is meant for asking, not for fetching: it is the form in which
// the rules see the URL. NormalizeURL is idempotent, and it returns rawURL
// itself, without allocating, when there is nothing to change.
func NormalizeURL(rawURL string) string {
	i := firstToNormalize(rawURL)
	if i < 0 {
		return rawURL
	}
	high := 0
	for j := i; j < len(rawURL); j++ {
		if rawURL[j] >= 0x80 {
			high++
		}
	}
	var b strings.Builder
	b.Grow(len(rawURL) + 2*high)
	b.WriteString(rawURL[:i])
	const hex = "0123456789ABCDEF"
	for j := i; j < len(rawURL); j++ {
		switch c := rawURL[j]; {
		case c == '%' && isEscape(rawURL, j):
			b.WriteByte('%')
			b.WriteByte(upper(rawURL[j+1]))
			b.WriteByte(upper(rawURL[j+2]))
			j += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// firstToNormalize returns the index of the first byte of s that
// NormalizeURL changes, or -1 when it changes none. It skips eight bytes
// at a time while they hold neither a '%' nor a byte ≥ 0x80, as most URLs
// are plain ASCII. Be careful when changing it: it is on the path of every
// question a fetch.Cache answers.
func firstToNormalize(s string) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	// plain reports whether the word v holds neither a '%' nor a byte ≥
	// 0x80. A byte of x is zero where v has a '%'; (x-ones)&^x sets the
	// high bit of some byte exactly when x has a zero byte.
	plain := func(v uint64) bool {
		x := v ^ ('%' * ones)
		return (v|(x-ones)&^x)&highs == 0
	}
	i := 0
	for i < len(s) {
		if i+8 <= len(s) {
			if plain(load64(s, i)) {
				i += 8
				continue
			}
		} else if len(s) >= 8 && plain(load64(s, len(s)-8)) {
			// The last bytes, read as the string's last word, which
			// overlaps bytes already seen.
			return -1
		}
		switch c := s[i]; {
		case c >= 0x80:
			return i
		case c == '%' && isEscape(s, i):
			if isLowerHex(s[i+1]) || isLowerHex(s[i+2]) {
				return i
			}
			i += 3
		default:
			i++
		}
	}
	return -1
}

// isEscape reports whether s[i] starts a %-escape: '%' and two hex digits.
func isEscape(s string, i int) bool {
	return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

// load64 reads s[i:i+8] as a little-endian word.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
