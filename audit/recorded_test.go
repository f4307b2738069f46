package audit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

func TestAsRecorded(t *testing.T) {
	for _, tt := range []struct{ in, want, why string }{
		{"https://www.ebay.ie/b/x?x|", "https://www.ebay.ie/b/x?x|", "a '|' stays: it is what was sent (#32, Disallow: /b/*?*|)"},
		{"/a b", "/a%20b", "a space is escaped"},
		{"/ü", "/%C3%BC", "bytes from 0x80 are escaped, upper-case digits"},
		{"/%c3%bc", "/%C3%BC", "escapes get upper-case digits"},
		{"/%2f", "/%2F", "an escape is not decoded"},
		{"/%zz%4", "/%zz%4", "a '%' without two hex digits stays"},
		{`/{x}^"<>\` + "`", `/{x}^"<>\` + "`", "the other bytes NormalizeURL escapes stay"},
		{"/plain?q=1#f", "/plain?q=1#f", "nothing to change"},
	} {
		if got := asRecorded(tt.in); got != tt.want {
			t.Errorf("asRecorded(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

// TestAsRecordedSeam holds asRecorded to the core's NormalizeURL: for
// random strings, the two agree once the bytes that only NormalizeURL
// escapes are taken out, and asRecorded is idempotent and changes nothing
// but escapes.
func TestAsRecordedSeam(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	alphabet := []string{"a", "/", "%", "2", "f", "F", "c", "3", "ü", " ", "|", "{", "^", "\"", "?", "\x80", "\xff", "%c3%bc"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		got := asRecorded(s)
		if asRecorded(got) != got {
			t.Fatalf("asRecorded(%q) = %q is not a fixed point", s, got)
		}
		plain := strings.Map(func(c rune) rune {
			if strings.ContainsRune(`"<>\^`+"`"+`{|}`, c) {
				return -1
			}
			return c
		}, s)
		if a, n := asRecorded(plain), robotstxt.NormalizeURL(plain); a != n {
			t.Fatalf("on %q: asRecorded %q, NormalizeURL %q", plain, a, n)
		}
	}
}
