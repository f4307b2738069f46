package robotstxt

import (
	"errors"
	"strings"
	"testing"
)

var robotsURLTests = []struct {
	in     string
	want   string // robots.txt URL, "" when err is set
	err    error
	reason string
}{
	// SPEC §7 examples.
	{"http://www.müller.eu/", "http://www.xn--mller-kva.eu/robots.txt", nil, "SPEC §7: IDNA lookup profile, same origin as the Punycode name"},
	{"http://www.xn--mller-kva.eu/x", "http://www.xn--mller-kva.eu/robots.txt", nil, "SPEC §7: the Punycode spelling is already canonical"},
	{"http://example.com/robots.txt", "http://example.com/robots.txt", nil, "SPEC §7: the robots.txt URL is its own robots.txt URL"},
	{"http://example.com:80/", "http://example.com/robots.txt", nil, "SPEC §7: default http port dropped, so :80 shares example.com's file"},
	{"https://example.com/", "https://example.com/robots.txt", nil, "SPEC §7: another scheme is another origin"},
	{"http://www.example.com/", "http://www.example.com/robots.txt", nil, "SPEC §7: a subdomain is another origin"},
	{"http://example.com:8181/", "http://example.com:8181/robots.txt", nil, "SPEC §7: a non-default port is kept"},
	{"http://example.com/folder/robots.txt", "http://example.com/robots.txt", nil, "SPEC §7: a robots.txt in a sub-directory is not a robots.txt"},
	{"ftp://ftp.example.com/pub/file", "ftp://ftp.example.com/robots.txt", nil, "SPEC §7: ftp is a valid scheme"},
	{"ftp://ftp.example.com:21/", "ftp://ftp.example.com/robots.txt", nil, "SPEC §7: default ftp port dropped"},
	{"http://[2001:db8::1]/a", "http://[2001:db8::1]/robots.txt", nil, "SPEC §7: IPv6 hosts stay in brackets"},
	{"https://[2001:DB8:0:0::1]:443/a", "https://[2001:db8::1]/robots.txt", nil, "IPv6 written as RFC 5952 says, default https port dropped"},
	{"http://[::1]:8080/", "http://[::1]:8080/robots.txt", nil, "IPv6 with a port"},
	{"http://[::ffff:192.0.2.1]/", "http://[::ffff:192.0.2.1]/robots.txt", nil, "IPv4-mapped IPv6 keeps its dotted tail"},

	// Case, userinfo, path, query, fragment.
	{"HTTP://Example.COM/Path", "http://example.com/robots.txt", nil, "SPEC §7: scheme and host lower-cased, path dropped"},
	{"https://user:pass@example.com:443/x?y#z", "https://example.com/robots.txt", nil, "SPEC §7: userinfo, default port, path, query, fragment dropped"},
	{"http://a@b@example.com/", "http://example.com/robots.txt", nil, "userinfo ends at the last '@', as net/url reads it"},
	{"http://example.com?q=1", "http://example.com/robots.txt", nil, "query straight after the host"},
	{"http://example.com#frag", "http://example.com/robots.txt", nil, "fragment straight after the host"},
	{"http://example.com", "http://example.com/robots.txt", nil, "no path at all"},
	{"http://example.com/a b\x01c", "http://example.com/robots.txt", nil, "the path is dropped unchecked"},
	{"Https://example.com/", "https://example.com/robots.txt", nil, "mixed-case scheme"},
	{"gopher://example.com:70/", "gopher://example.com:70/robots.txt", nil, "any scheme with an authority is accepted; unknown schemes keep every port"},

	// Ports.
	{"http://example.com:/", "http://example.com/robots.txt", nil, "RFC 3986 §6.2.3: an empty port is the default"},
	{"http://example.com:0080/", "http://example.com/robots.txt", nil, "leading zeros: port 80 is still the default"},
	{"http://example.com:08181/", "http://example.com:8181/robots.txt", nil, "leading zeros dropped from a kept port"},
	{"https://example.com:80/", "https://example.com:80/robots.txt", nil, "80 is not https's default"},
	{"http://example.com:65535/", "http://example.com:65535/robots.txt", nil, "highest port"},
	{"http://example.com:65536/", "", ErrInvalidPort, "port out of range"},
	{"http://example.com:99999999999999999999/", "", ErrInvalidPort, "port that overflows an int"},
	{"http://example.com:8a/", "", ErrInvalidPort, "port that is not decimal"},
	{"http://example.com:80:80/", "", ErrInvalidPort, "second colon"},
	{"http://[::1]x/", "", ErrInvalidHost, "text after the IPv6 bracket that is not a port"},

	// Hosts.
	{"http://example.com./", "http://example.com./robots.txt", nil, "one trailing dot is kept: another origin to the URL standard and browsers"},
	{"http://EXAMPLE.com.:8080/", "http://example.com.:8080/robots.txt", nil, "trailing dot kept with a port, host still lower-cased"},
	{"http://example.com.:80/a", "http://example.com./robots.txt", nil, "trailing dot kept, default port still dropped"},
	{"http://192.0.2.1./", "http://192.0.2.1./robots.txt", nil, "a trailing dot after an IPv4-like name is kept too"},
	{"http://müller.eu./", "http://xn--mller-kva.eu./robots.txt", nil, "a trailing dot survives IDNA"},
	{"http://example.com../", "", ErrInvalidHost, "empty label"},
	{"http://.example.com/", "", ErrInvalidHost, "leading dot"},
	{"http://a..b/", "", ErrInvalidHost, "empty label in the middle"},
	{"http://./", "", ErrInvalidHost, "a host that is only a dot"},
	{"http://my_host.example.com/", "http://my_host.example.com/robots.txt", nil, "underscores occur in real ASCII host names"},
	{"http://192.0.2.1:8080/", "http://192.0.2.1:8080/robots.txt", nil, "IPv4 host"},
	{"http://GÖPHER.example/", "http://xn--gpher-jua.example/robots.txt", nil, "lookup profile maps case before Punycode (idna.ToASCII would keep GÖPHER)"},
	{"http://XN--MLLER-KVA.eu/", "http://xn--mller-kva.eu/robots.txt", nil, "upper-case Punycode label is checked and lower-cased"},
	{"http://ｅｘａｍｐｌｅ.com/", "http://example.com/robots.txt", nil, "UTS #46 maps full-width letters"},
	{"http://example。com/", "http://example.com/robots.txt", nil, "UTS #46 maps the ideographic full stop to a dot"},
	{"http://bücher.de。/", "http://xn--bcher-kva.de./robots.txt", nil, "a trailing dot made by mapping is kept as if written"},
	{"http://m%C3%BCller.eu/", "http://xn--mller-kva.eu/robots.txt", nil, "RFC 3986 §3.2.2: %-escaped UTF-8 in the host is decoded first"},
	{"http://ex%61mple.com/", "http://example.com/robots.txt", nil, "%-escaped ASCII in the host is decoded too"},
	{"http://ex%2Fample.com/", "", ErrInvalidHost, "an escaped '/' is not a host character"},
	{"http://ex%zzample.com/", "", ErrInvalidHost, "broken %-escape"},
	{"http://ex%6/", "", ErrInvalidHost, "truncated %-escape"},
	{"http://xn--zz.com/", "", ErrInvalidHost, "Punycode label that does not decode"},
	{"http://a.xn--.b/", "", ErrInvalidHost, "empty Punycode label decodes to an empty label"},
	{"http://\xff.com/", "", ErrInvalidHost, "invalid UTF-8 in the host"},
	{"http://a b.com/", "", ErrInvalidHost, "space in the host"},
	{"http://a\\b.com/", "", ErrInvalidHost, "backslash is not a delimiter here"},
	{"http://ex!ample.com/", "", ErrInvalidHost, "sub-delims are not host name characters"},
	{"http://-ü.com/", "", ErrInvalidHost, "IDNA rejects a leading hyphen in a non-ASCII label"},
	{"http://a_ü.com/", "", ErrInvalidHost, "IDNA (STD3 rules) rejects '_' in a non-ASCII name"},
	{"http://[2001:db8::1/", "", ErrInvalidHost, "unclosed IPv6 bracket"},
	{"http://[192.0.2.1]/", "", ErrInvalidHost, "IPv4 in brackets"},
	{"http://[fe80::1%25eth0]/", "", ErrInvalidHost, "IPv6 zones name an interface of the asking machine"},
	{"http://[v1.x]/", "", ErrInvalidHost, "IPvFuture literals are not supported"},
	{"http://ex[ample.com/", "", ErrInvalidHost, "bracket inside a name"},

	// Shapes that are no absolute URL with a host.
	{"", "", ErrRelativeURL, "empty string"},
	{"/robots.txt", "", ErrRelativeURL, "SPEC §7: relative URLs are errors"},
	{"example.com/x", "", ErrRelativeURL, "a host without a scheme"},
	{"example.com:8080/x", "", ErrRelativeURL, "a host and port without a scheme"},
	{"//example.com/x", "", ErrRelativeURL, "scheme-relative URL"},
	{"?a=b:c", "", ErrRelativeURL, "colon only in the query"},
	{":foo", "", ErrInvalidScheme, "empty scheme"},
	{"1http://example.com/", "", ErrInvalidScheme, "a scheme starts with a letter"},
	{"ht tp://example.com/", "", ErrInvalidScheme, "space in the scheme"},
	{" http://example.com/", "", ErrInvalidScheme, "leading space is not trimmed"},
	{"http:///x", "", ErrNoHost, "SPEC §7: empty host"},
	{"http://", "", ErrNoHost, "nothing after the scheme"},
	{"http://user@/", "", ErrNoHost, "userinfo but no host"},
	{"http://:80/", "", ErrNoHost, "a port but no host"},
	{"http:example.com", "", ErrNoHost, "no authority"},
	{"http:/example.com/", "", ErrNoHost, "one slash is a path, not an authority"},
	{"mailto:a@example.com", "", ErrNoHost, "opaque URL"},
	{"file:///etc/passwd", "", ErrNoHost, "file URLs have no host"},
}

func TestRobotsURL(t *testing.T) {
	for _, tt := range robotsURLTests {
		if tt.reason == "" {
			t.Fatalf("row %q has no reason", tt.in)
		}
		got, err := RobotsURL(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("RobotsURL(%q) = %q, %v; want %q, %v (%s)", tt.in, got, err, tt.want, tt.err, tt.reason)
		}
		origin, oerr := Origin(tt.in)
		if tt.err == nil && origin+"/robots.txt" != tt.want || !errors.Is(oerr, tt.err) {
			t.Errorf("Origin(%q) = %q, %v; want %q + /robots.txt, %v (%s)", tt.in, origin, oerr, tt.want, tt.err, tt.reason)
		}
	}
}

func TestRobotsURLError(t *testing.T) {
	for _, tt := range robotsURLTests {
		if tt.err == nil {
			continue
		}
		_, err := RobotsURL(tt.in)
		var ue *URLError
		if !errors.As(err, &ue) {
			t.Errorf("RobotsURL(%q) error %T is not a *URLError (%s)", tt.in, err, tt.reason)
			continue
		}
		if ue.URL != tt.in {
			t.Errorf("RobotsURL(%q): URLError.URL = %q (%s)", tt.in, ue.URL, tt.reason)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "robotstxt: ") || !strings.HasSuffix(msg, tt.err.Error()) {
			t.Errorf("RobotsURL(%q) error %q: want prefix %q and cause %q (%s)", tt.in, msg, "robotstxt: ", tt.err, tt.reason)
		}
	}
}

// TestRobotsURLSameOrigin checks the SPEC §7 question directly: which URLs a
// given robots.txt applies to.
func TestRobotsURLSameOrigin(t *testing.T) {
	tests := []struct {
		robots, url string
		applies     bool
		reason      string
	}{
		{"http://example.com/robots.txt", "http://example.com/", true, "same origin"},
		{"http://example.com/robots.txt", "http://example.com:80/", true, "SPEC §7: explicit default port"},
		{"http://example.com/robots.txt", "http://EXAMPLE.com/a/b", true, "host case does not matter"},
		{"http://example.com/robots.txt", "http://example.com./", false, "a trailing dot names another origin"},
		{"http://example.com./robots.txt", "http://EXAMPLE.COM./x", true, "the dotted origin is its own, in any case"},
		{"http://example.com/robots.txt", "https://example.com/", false, "SPEC §7: other scheme"},
		{"http://example.com/robots.txt", "http://www.example.com/", false, "SPEC §7: other host"},
		{"http://example.com/robots.txt", "http://example.com:8181/", false, "SPEC §7: other port"},
		{"http://www.müller.eu/robots.txt", "http://www.xn--mller-kva.eu/", true, "SPEC §7: Unicode and Punycode spellings"},
		{"ftp://example.com/robots.txt", "ftp://example.com:21/pub", true, "SPEC §7: ftp default port"},
	}
	for _, tt := range tests {
		a, err := RobotsURL(tt.robots)
		if err != nil {
			t.Fatalf("RobotsURL(%q): %v", tt.robots, err)
		}
		b, err := RobotsURL(tt.url)
		if err != nil {
			t.Fatalf("RobotsURL(%q): %v", tt.url, err)
		}
		if (a == b) != tt.applies {
			t.Errorf("%s applies to %s = %v, want %v (%s)", tt.robots, tt.url, a == b, tt.applies, tt.reason)
		}
	}
}

// TestOriginNoAllocs checks that a URL whose origin is already canonical
// costs no allocation, so a cache can key on Origin per request.
func TestOriginNoAllocs(t *testing.T) {
	for _, u := range []string{
		"http://example.com/a/b?q",
		"https://www.example.com:8443/",
		"http://[2001:db8::1]/x",
		"http://example.com./x",   // a trailing dot is canonical, so nothing to build
		"HTTP://Example.com:80/x", // scheme lower-cased without allocating; host must still be built
	} {
		want := 0.0
		if strings.HasPrefix(u, "HTTP") {
			want = 2 // the lower-cased host and the result
		}
		n := testing.AllocsPerRun(100, func() {
			if _, err := Origin(u); err != nil {
				t.Fatal(err)
			}
		})
		if n > want {
			t.Errorf("Origin(%q): %v allocs, want at most %v", u, n, want)
		}
	}
}
