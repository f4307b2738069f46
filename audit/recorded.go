package audit

import (
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// asRecorded returns a URL or path of the input in the form the core is
// asked it: as recorded, with each byte from 0x80 up and each space
// written %XX and each %-escape given upper-case hex digits; nothing else
// changes. A URL in an archive is the URL that was sent, so unlike
// robotstxt.NormalizeURL it keeps '"', '<', '>', '\', '^', '`', '{', '|'
// and '}' as they are: "/b/x?x|" is asked as "/b/x?x|", which the rule
// "Disallow: /b/*?*|" matches, as it does in Google's parser.
// TestAsRecordedSeam holds it to NormalizeURL on every other byte.
func asRecorded(u string) string {
	i := 0
	for i < len(u) && !recordedWork(u, i) {
		i++
	}
	if i == len(u) {
		return u
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(u) + 8)
	b.WriteString(u[:i])
	for j := i; j < len(u); j++ {
		switch c := u[j]; {
		case c == '%' && j+2 < len(u) && grammar.IsHex(u[j+1]) && grammar.IsHex(u[j+2]):
			b.WriteByte('%')
			b.WriteByte(grammar.Upper(u[j+1]))
			b.WriteByte(grammar.Upper(u[j+2]))
			j += 2
		case c >= 0x80 || c == ' ':
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// recordedWork reports whether asRecorded changes the byte at u[i]: a byte
// to escape, or an escape with a lower-case digit.
func recordedWork(u string, i int) bool {
	c := u[i]
	if c >= 0x80 || c == ' ' {
		return true
	}
	return c == '%' && i+2 < len(u) && grammar.IsHex(u[i+1]) && grammar.IsHex(u[i+2]) &&
		(grammar.IsLowerHex(u[i+1]) || grammar.IsLowerHex(u[i+2]))
}
