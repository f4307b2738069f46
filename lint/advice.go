package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/observe"
)

// This file words the advice of [Diagnose]: what a line likely meant and
// how to write it, for the messages of the findings.

// isAgentList reports whether rest, what follows the product token of a
// user-agent value, starts a list of names ("Googlebot, Bingbot") rather
// than going on with the same name ("MJ12bot").
func isAgentList(rest []byte) bool {
	return len(rest) > 0 && (grammar.IsSpace(rest[0]) || rest[0] == ',' || rest[0] == ';' || rest[0] == '|')
}

// writtenName returns the name a user-agent value gives, as a person reads
// it: up to the first space, ',', ';', '/' or '('.
func writtenName(value string) string {
	if i := strings.IndexAny(value, " \t,;/("); i >= 0 {
		return value[:i]
	}
	return value
}

// absoluteHTTP reports whether v starts with "http://" or "https://" and a
// host.
func absoluteHTTP(v string) bool {
	for _, scheme := range []string{"http://", "https://"} {
		if grammar.HasPrefixFold(v, scheme) {
			rest := v[len(scheme):]
			return rest != "" && rest[0] != '/' && rest[0] != '?' && rest[0] != '#'
		}
	}
	return false
}

// suggestSitemap turns a sitemap value that is not an absolute URL into
// one: "www.example.com/s.xml" gets a scheme, a path gets a host.
func suggestSitemap(v string) string {
	if host, path, ok := splitHostPattern(v); ok {
		return "https://" + host + path
	}
	if hostLike(v) {
		return "https://" + v + "/"
	}
	return "https://example.com/" + strings.TrimLeft(v, "/")
}

// neverMatches says why the pattern v, which starts with neither '/' nor
// '*', can never match, and what its author likely meant.
func neverMatches(v string) string {
	msg := fmt.Sprintf("pattern %q can never match: ", v)
	if n, what := leadingInvisible(v); n > 0 {
		fixed := v[n:]
		switch {
		case fixed == "":
			return msg + fmt.Sprintf("it holds only %s, which crawlers do not take for a space; delete it", what)
		case fixed[0] != '/' && fixed[0] != '*':
			fixed = suggestPath(fixed)
		}
		return msg + fmt.Sprintf("it starts with %s, which crawlers do not take for a space; delete it: %q", what, fixed)
	}
	if host, path, ok := splitHostPattern(v); ok {
		return msg + fmt.Sprintf("a pattern is a path and holds no host (%q); did you mean %q?", host, path)
	}
	return msg + fmt.Sprintf("a pattern starts with '/' or '*'; did you mean %q?", suggestPath(v))
}

// suggestPath turns a pattern that can never match into one that can: the
// path of a URL, or the value with a leading '/'.
func suggestPath(v string) string {
	if strings.Contains(v, "://") {
		return observe.MatchPath(v)
	}
	return "/" + v
}

// leadingInvisible returns the number of bytes at the start of v that look
// like a space to a person but are none to a crawler, which trims only
// ASCII whitespace, and names the first of them.
func leadingInvisible(v string) (n int, what string) {
	for n < len(v) {
		r, size := utf8.DecodeRuneInString(v[n:])
		var name string
		switch {
		case r == utf8.RuneError && size == 1 && v[n] == 0xa0:
			name = "a non-breaking space byte (0xA0, from a Latin-1 editor)"
		case r == 0xa0:
			name = "a non-breaking space (U+00A0)"
		case r == 0xfeff:
			name = "a byte order mark (U+FEFF)"
		case 0x200b <= r && r <= 0x200d || r == 0x2060:
			name = fmt.Sprintf("a zero-width character (U+%04X)", r)
		case r > 0x7f && unicode.IsSpace(r):
			name = fmt.Sprintf("a space character (U+%04X)", r)
		default:
			return n, what
		}
		if what == "" {
			what = name
		}
		n += size
	}
	return n, what
}

// splitHostPattern splits a pattern that starts with a host name
// ("www.example.com/blog/") into the host and the path.
func splitHostPattern(v string) (host, path string, ok bool) {
	slash := strings.IndexByte(v, '/')
	if slash <= 0 || !hostLike(v[:slash]) {
		return "", "", false
	}
	return v[:slash], v[slash:], true
}

// hostLike reports whether s looks like a host name with an optional port:
// labels of letters, digits and '-', at least two, the last of letters only
// and not a usual file extension ("index.html" is a file, not a host).
func hostLike(s string) bool {
	if h, port, found := strings.Cut(s, ":"); found {
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
		s = h
	}
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.Trim(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	tld := strings.ToLower(labels[len(labels)-1])
	return len(tld) >= 2 && strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") == "" && !slices.Contains(fileExtensions, tld)
}

// fileExtensions are the extensions of files often named at the start of a
// pattern, which hostLike must not take for top-level domains.
var fileExtensions = []string{
	"htm", "html", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "cgi", "pl", "py", "cfm", "do", "action",
	"xml", "txt", "json", "js", "css", "pdf", "jpg", "jpeg", "png", "gif", "svg", "zip", "gz",
}

// firstRune returns the first character of s, or its first byte when that
// is not UTF-8.
func firstRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

func quoteList(agents []string) string {
	const show = 3
	var b strings.Builder
	for i, a := range agents {
		if i == show {
			fmt.Fprintf(&b, " and %d more", len(agents)-show)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(a))
	}
	return b.String()
}

// suggestKeys are the keys an unknown key may have been meant as.
var suggestKeys = append([]string{"user-agent", "allow", "disallow", "sitemap"}, knownOtherKeys...)

// nearestKey returns the known key closest to key by edit distance, if it is
// close enough to be a likely misspelling, or "".
func nearestKey(key string) string {
	const maxKey = 32 // longer keys are not misspellings of short ones
	if len(key) > maxKey {
		return ""
	}
	k := strings.ToLower(key)
	best, bestDist := "", 0
	for _, s := range suggestKeys {
		dist := editDistance(k, s)
		// Up to a third of the letters may be wrong: "crawl_delay",
		// "useragnet", but not "host" for "post".
		if 3*dist > len(s) {
			continue
		}
		if best == "" || dist < bestDist {
			best, bestDist = s, dist
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// rawByte explains a pattern that holds c, a byte of wireEscaped: crawlers
// send it %-encoded, as NormalizeURL writes the URLs they ask about, so the
// pattern never matches what they ask; its encoded form would. The message
// is built only when it is formatted, which Summarize never does.
type rawByte struct {
	pattern string
	c       byte
	sev     Severity
}

func (r rawByte) String() string {
	what := fmt.Sprintf("%q", string(r.c))
	if r.c == ' ' {
		what = "a space"
	}
	if r.sev == SeverityError {
		return fmt.Sprintf("pattern %q never matches a URL as crawlers send it: it holds %s, which every HTTP client sends as %%%02X; write %q",
			r.pattern, what, r.c, robotstxt.NormalizeURL(r.pattern))
	}
	return fmt.Sprintf("pattern %q holds %s, which Go's net/url and package fetch send as %%%02X (browsers send it raw): for them it never matches; add %q",
		r.pattern, what, r.c, robotstxt.NormalizeURL(r.pattern))
}
