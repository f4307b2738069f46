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
	for i < len(u) && u[i] < 0x80 && u[i] != ' ' && u[i] != '%' {
		i++
	}
	if i == len(u) {
		return u
	}
	// The pattern's normalisation (grammar.AppendEscaped) with spaces
	// escaped first: the "%20" it then meets is an escape already in
	// upper case, which it keeps.
	b := make([]byte, i, len(u)+8)
	copy(b, u[:i])
	return string(grammar.AppendEscaped(b, []byte(strings.ReplaceAll(u[i:], " ", "%20"))))
}
