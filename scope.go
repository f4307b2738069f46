package robotstxt

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"golang.org/x/net/idna"
)

// This file finds where a URL's robots.txt lives (SPEC §7, RFC 9309 §2.3).
// A robots.txt applies only to the scheme, host and port it was fetched from,
// so the robots.txt of any URL is that URL's origin followed by
// "/robots.txt", with the origin in one canonical spelling:
//
//	HTTP://User:Pw@Www.Müller.EU:80/a/b?q#f  →  http://www.xn--mller-kva.eu/robots.txt
//	https://[2001:DB8::1]:8443/x             →  https://[2001:db8::1]:8443/robots.txt
//	ftp://ftp.example.com:21/pub/            →  ftp://ftp.example.com/robots.txt
//
// Any scheme is accepted as long as the URL has an authority ("scheme://"):
// RFC 9309 §2.3 applies to any URI-based transfer protocol, HTTP and FTP
// among them. Whether a scheme can be fetched is the fetcher's business.

// Errors that [RobotsURL] and [Origin] report, wrapped in a [*URLError].
var (
	ErrRelativeURL   = errors.New("relative URL, no scheme")
	ErrInvalidScheme = errors.New("invalid scheme")
	ErrNoHost        = errors.New("no host")
	ErrInvalidHost   = errors.New("invalid host")
	ErrInvalidPort   = errors.New("invalid port")
)

// URLError is the error [RobotsURL] and [Origin] return: the URL and the
// cause, one of ErrRelativeURL, ErrInvalidScheme, ErrNoHost, ErrInvalidHost
// and ErrInvalidPort, matched with errors.Is.
type URLError struct {
	URL string
	Err error
}

// Error returns the cause and the URL, for a log line.
func (e *URLError) Error() string {
	return "robotstxt: " + strconv.Quote(e.URL) + ": " + e.Err.Error()
}

// Unwrap returns the cause, one of the ErrXxx values above, for
// [errors.Is].
func (e *URLError) Unwrap() error { return e.Err }

// RobotsURL returns the URL of the robots.txt that applies to rawURL:
// "scheme://host[:port]/robots.txt", the [Origin] of rawURL followed by
// "/robots.txt". Two URLs share a robots.txt exactly when their RobotsURLs
// are equal: "http://example.com/robots.txt" applies to
// "http://EXAMPLE.com:80/a" but not to "https://example.com/",
// "http://www.example.com/" or "http://example.com:8181/".
func RobotsURL(rawURL string) (string, error) {
	o, err := splitOrigin(rawURL)
	if err != nil {
		return "", err
	}
	if o.same {
		return rawURL[:o.end] + "/robots.txt", nil
	}
	return o.scheme + "://" + o.host + o.port + "/robots.txt", nil
}

// Origin returns the origin of rawURL, "scheme://host[:port]", in the
// canonical spelling that [RobotsURL] uses: a cache of robots.txt files can
// key on it. It checks rawURL as RobotsURL does:
//
//   - rawURL must be absolute, with an authority: "http://h/x", not "/x",
//     "h/x", "h:8080/x" or "mailto:a@b" (ErrRelativeURL, ErrInvalidScheme,
//     ErrNoHost);
//   - the scheme and host are lower-cased; a host that is not ASCII, or that
//     has a label starting with "xn--", goes through IDNA (UTS #46, the
//     lookup profile of golang.org/x/net/idna), so "www.Müller.eu" becomes
//     "www.xn--mller-kva.eu"; %-escapes in the host are decoded first;
//   - an ASCII host may hold letters, digits, '-', '_' and '.', between
//     non-empty labels; hosts that IDNA rejects, and anything else, are
//     ErrInvalidHost;
//   - one trailing dot is kept: "example.com." and "example.com" name one
//     DNS host, but they are different origins to the URL standard and to
//     browsers, a server may route them to different virtual hosts, and
//     RFC 9309 ties a robots.txt to the exact service it came from, so
//     "http://EXAMPLE.com.:8080/" has the robots.txt
//     "http://example.com.:8080/robots.txt"; a cache that wants to share
//     one file between the two spellings must say so itself;
//   - an IPv6 host must be a valid address in brackets, without a zone, and
//     is written as RFC 5952 says ("[2001:db8::1]");
//   - the port must be decimal, at most 65535 (ErrInvalidPort); it is written
//     without leading zeros, and dropped when empty or the scheme's default
//     (http 80, https 443, ftp 21; other schemes keep any port);
//   - userinfo, path, query and fragment are dropped and not checked.
//
// When rawURL already starts with its origin spelled canonically, Origin
// returns that prefix of rawURL without allocating; the result then shares
// memory with rawURL.
func Origin(rawURL string) (string, error) {
	o, err := splitOrigin(rawURL)
	if err != nil {
		return "", err
	}
	if o.same {
		return rawURL[:o.end], nil
	}
	return o.scheme + "://" + o.host + o.port, nil
}

// origin is a URL's origin, split into canonical parts.
type origin struct {
	scheme string
	host   string // brackets included for IPv6
	port   string // ":" and digits, or ""
	same   bool   // rawURL[:end] is already scheme + "://" + host + port
	end    int
}

// splitOrigin finds and canonicalises the origin of rawURL.
func splitOrigin(rawURL string) (origin, error) {
	fail := func(err error) (origin, error) {
		return origin{}, &URLError{URL: rawURL, Err: err}
	}
	// RFC 3986 §3: scheme ":" "//" authority, the authority ending at the
	// first '/', '?' or '#'.
	colon := strings.IndexAny(rawURL, ":/?#")
	if colon < 0 || rawURL[colon] != ':' {
		return fail(ErrRelativeURL)
	}
	scheme, rest := rawURL[:colon], rawURL[colon+1:]
	if rest != "" && '0' <= rest[0] && rest[0] <= '9' {
		// "example.com:8080/x" is a host and port without a scheme, not
		// a URL of the scheme "example.com".
		return fail(ErrRelativeURL)
	}
	if !validScheme(scheme) {
		return fail(ErrInvalidScheme)
	}
	if !strings.HasPrefix(rest, "//") {
		return fail(ErrNoHost)
	}
	auth := rest[2:]
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	o := origin{scheme: lowerScheme(scheme), end: colon + 3 + len(auth)}
	same := o.scheme == scheme
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth, same = auth[at+1:], false
	}
	host, port, err := splitAuthority(auth)
	if err != nil {
		return fail(err)
	}
	host, hostSame, err := canonicalHost(host)
	if err != nil {
		return fail(err)
	}
	port, portSame, err := canonicalPort(o.scheme, port)
	if err != nil {
		return fail(err)
	}
	o.host, o.port = host, port
	o.same = same && hostSame && portSame
	return o, nil
}

// validScheme reports whether s is a scheme: ALPHA *( ALPHA / DIGIT / "+" /
// "-" / "." ) (RFC 3986 §3.1).
func validScheme(s string) bool {
	if s == "" || !asciiLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !asciiLetter(c) && !asciiDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func asciiLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func asciiDigit(c byte) bool  { return '0' <= c && c <= '9' }

// lowerScheme lower-cases a valid scheme, without allocating for the common
// ones.
func lowerScheme(s string) string {
	for _, known := range [...]string{"http", "https", "ftp"} {
		if grammar.EqualFold(s, known) {
			return known
		}
	}
	return grammar.LowerString(s)
}

// splitAuthority splits an authority without userinfo into host (brackets
// included for IPv6) and port (":" and what follows, or "").
func splitAuthority(auth string) (host, port string, err error) {
	if auth == "" {
		return "", "", ErrNoHost
	}
	if auth[0] == '[' {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return "", "", ErrInvalidHost
		}
		host, port = auth[:end+1], auth[end+1:]
		if port != "" && port[0] != ':' {
			return "", "", ErrInvalidHost
		}
		return host, port, nil
	}
	if i := strings.IndexByte(auth, ':'); i >= 0 {
		host, port = auth[:i], auth[i:]
	} else {
		host = auth
	}
	if host == "" {
		return "", "", ErrNoHost
	}
	return host, port, nil
}

// canonicalHost returns the canonical spelling of host and reports whether
// host already was it.
func canonicalHost(host string) (string, bool, error) {
	if host[0] == '[' {
		return canonicalIPv6(host)
	}
	name, same := host, true
	if strings.IndexByte(name, '%') >= 0 {
		// RFC 3986 §3.2.2: a reg-name may hold %-escapes, standing for
		// UTF-8 bytes in practice. Decode them, then check the name as if
		// it had been written so.
		var ok bool
		if name, ok = unescapeHost(name); !ok {
			return "", false, ErrInvalidHost
		}
		same = false
	}
	if !allASCII(name) || hasACELabel(name) {
		// Non-ASCII names, and ASCII names with a Punycode label that must
		// be checked, go the slow way.
		ascii, asciiSame, err := idnaHost(name)
		return ascii, same && asciiSame, err
	}
	if lower := grammar.LowerString(name); lower != name {
		name, same = lower, false
	}
	if !validASCIIHost(strings.TrimSuffix(name, ".")) {
		return "", false, ErrInvalidHost
	}
	return name, same, nil
}

// idnaHost converts a host name to ASCII with the IDNA lookup profile. Unlike
// idna.ToASCII, which uses the raw Punycode profile and keeps "GÖPHER"
// upper case, the lookup profile maps the name first (case, width,
// compatibility forms, "。" as a dot) and rejects what UTS #46 disallows.
func idnaHost(name string) (string, bool, error) {
	// idna replaces invalid UTF-8 with U+FFFD and encodes that, giving a
	// name it would reject next time.
	if !utf8.ValidString(name) {
		return "", false, ErrInvalidHost
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil {
		return "", false, ErrInvalidHost
	}
	// A trailing dot is kept, whether written or made by mapping
	// ("example.com。"); the lookup profile lets empty labels through
	// ("a..b", "a.xn--.b" → "a..b").
	if !validASCIIHost(strings.TrimSuffix(ascii, ".")) {
		return "", false, ErrInvalidHost
	}
	if ascii != name {
		// The name must be its own canonical form once converted: the
		// lookup profile lets some names through that it rejects in their
		// Punycode form (a label mixing directions, found by fuzzing), and
		// a robots.txt URL must name the same origin when asked again.
		if again, err := idna.Lookup.ToASCII(ascii); err != nil || again != ascii {
			return "", false, ErrInvalidHost
		}
	}
	return ascii, ascii == name, nil
}

// validASCIIHost reports whether a lower-cased name is dot-separated
// non-empty labels of [a-z0-9_-]. The underscore is not allowed in DNS host
// names but is common in real ones, and browsers accept it.
func validASCIIHost(name string) bool {
	if name == "" {
		return false
	}
	prev := byte('.')
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '.':
			if prev == '.' {
				return false
			}
		case 'a' <= c && c <= 'z', asciiDigit(c), c == '-', c == '_':
		default:
			return false
		}
		prev = c
	}
	return prev != '.'
}

func allASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hasACELabel reports whether a label of name starts with "xn--" in any
// case: such a label is Punycode that IDNA must check.
func hasACELabel(name string) bool {
	for {
		if len(name) >= 4 && grammar.EqualFold(name[:4], "xn--") {
			return true
		}
		i := strings.IndexByte(name, '.')
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
}

// unescapeHost decodes the %-escapes of a host name. It reports false for a
// '%' not followed by two hex digits.
func unescapeHost(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if !grammar.IsEscape(s, i) {
			return "", false
		}
		b.WriteByte(grammar.HexValue(s[i+1])<<4 | grammar.HexValue(s[i+2]))
		i += 2
	}
	return b.String(), true
}

// canonicalIPv6 checks a bracketed IPv6 literal and writes it as RFC 5952
// says: lower case, zeros compressed. Zones ("%25eth0") are rejected: they
// name an interface of the asking machine, not a host.
func canonicalIPv6(host string) (string, bool, error) {
	lit := host[1 : len(host)-1]
	addr, err := netip.ParseAddr(lit)
	if err != nil || !addr.Is6() || addr.Zone() != "" {
		return "", false, ErrInvalidHost
	}
	var buf [64]byte
	b := addr.AppendTo(buf[:0])
	if string(b) == lit {
		return host, true, nil
	}
	return "[" + string(b) + "]", false, nil
}

// canonicalPort returns port (":" and digits, or "") without leading zeros,
// or "" when it is empty or the scheme's default, and reports whether port
// already was that.
func canonicalPort(scheme, port string) (string, bool, error) {
	if port == "" {
		return "", true, nil
	}
	digits := port[1:]
	if digits == "" {
		return "", false, nil // RFC 3986 §6.2.3: an empty port is the default
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		if !asciiDigit(digits[i]) {
			return "", false, ErrInvalidPort
		}
		n = n*10 + int(digits[i]-'0')
		if n > 65535 {
			return "", false, ErrInvalidPort
		}
	}
	if n == defaultPort(scheme) {
		return "", false, nil
	}
	if digits[0] == '0' && len(digits) > 1 {
		return ":" + strconv.Itoa(n), false, nil
	}
	return port, true, nil
}

// defaultPort returns the port a scheme implies, or -1 when it implies none
// known here.
func defaultPort(scheme string) int {
	switch scheme {
	case "http":
		return 80
	case "https":
		return 443
	case "ftp":
		return 21
	}
	return -1
}
