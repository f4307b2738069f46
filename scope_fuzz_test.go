package robotstxt

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzRobotsURL checks that RobotsURL never panics and that what it returns
// is a robots.txt URL in canonical form: it parses with net/url, ends in
// /robots.txt, agrees with Origin, and is its own robots.txt URL.
func FuzzRobotsURL(f *testing.F) {
	for _, tt := range robotsURLTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := RobotsURL(in)
		origin, oerr := Origin(in)
		if (err == nil) != (oerr == nil) {
			t.Fatalf("RobotsURL(%q) error %v but Origin error %v", in, err, oerr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "robotstxt: ") {
				t.Fatalf("RobotsURL(%q) error %q lacks the package prefix", in, err)
			}
			return
		}
		if got != origin+"/robots.txt" {
			t.Fatalf("RobotsURL(%q) = %q, Origin = %q", in, got, origin)
		}
		u, perr := url.Parse(got)
		if perr != nil {
			t.Fatalf("RobotsURL(%q) = %q, which net/url rejects: %v", in, got, perr)
		}
		if u.Path != "/robots.txt" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			t.Fatalf("RobotsURL(%q) = %q, parsed as %#v", in, got, u)
		}
		again, err := RobotsURL(got)
		if err != nil || again != got {
			t.Fatalf("RobotsURL(%q) = %q, but RobotsURL(%q) = %q, %v", in, got, got, again, err)
		}
	})
}
