package audit

import (
	"errors"
	"net/url"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/lint"
)

// Capture is one fetch of a URL as an input recorded it.
type Capture struct {
	Input    string // the input it was read from
	Offset   int64  // byte offset of its record (for gzip, of its member) or line
	InMember int64  // for gzip, the record's offset in its member's decompressed bytes; else 0
	URL      string // the URL fetched
	Date     string // when, as the input says (WARC-Date), or ""
	Status   int    // HTTP status
	Location string // the Location header of a redirect, as sent
	Body     []byte // the body, at most maxBody bytes; owned by the reader until emit returns
	Oversize bool   // the body was longer than maxBody and was cut

	own bool // Body is the capture's own, not the reader's
}

// urlKey returns the form of a URL that redirects are looked up by: parsed
// and written again, so that "HTTP://Example.com/robots.txt" and
// "http://example.com/robots.txt" meet. The error says why a URL has no
// key: it is not absolute http(s), or it has no origin (robotstxt.Origin's
// cause, ErrInvalidHost for "https://a_b..example/" or
// "https://xn--zz.example/", ErrInvalidPort...): no robots.txt can be
// found or answered for it.
func urlKey(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "", errNotHTTP
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errNotHTTP
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	u.RawFragment = ""
	if u.Path == "" {
		u.Path = "/"
	}
	key := u.String()
	if _, err := robotstxt.Origin(key); err != nil {
		var ue *robotstxt.URLError
		if errors.As(err, &ue) {
			err = ue.Err // the cause, without the URL: the caller names it
		}
		return "", err
	}
	return key, nil
}

// errNotHTTP is urlKey's error for a URL that is not absolute http(s).
var errNotHTTP = errors.New("not an absolute http(s) URL")

// urlProblem is the detail of a problem with a URL that has no key: what
// names it (`WARC-Target-URI "…"`), and urlKey's error.
func urlProblem(what string, err error) string {
	if err == errNotHTTP {
		return what + " is " + err.Error()
	}
	return what + ": " + err.Error()
}

// httpStatus reports whether n is an HTTP status code: RFC 9110 §15 has
// three digits, and "values outside the range 100..599 are invalid".
func httpStatus(n int) bool { return 100 <= n && n <= 599 }

// statusRange says in a problem what httpStatus takes.
const statusRange = "an integer from 100 to 599"

// isRobotsURL reports whether key (an urlKey) is the URL of a robots.txt
// file: path "/robots.txt" and no query.
func isRobotsURL(key string) bool {
	u, err := url.Parse(key)
	return err == nil && u.Path == "/robots.txt" && u.RawQuery == "" && !u.ForceQuery
}

// resolveLocation returns the urlKey of a Location header sent for base.
func resolveLocation(base, loc string) (string, bool) {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return "", false
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	l, err := url.Parse(loc)
	if err != nil {
		return "", false
	}
	k, err := urlKey(b.ResolveReference(l).String())
	return k, err == nil
}

// bodyNote returns the note on a robots.txt capture whose body is no
// robots.txt: for a status whose body is read (robotstxt.FromStatus), what
// lint.NotRobots, which fetch and the CLI ask too, finds: ProblemHTML for
// an HTML page or other markup (an XML sitemap), ProblemBinary for binary
// data or UTF-16 text. The body is answered all the same, as Google's
// parser reads it.
func bodyNote(c *Capture) (Problem, bool) {
	if robotstxt.FromStatus(c.Status, nil).Kind() != robotstxt.Parsed {
		return Problem{}, false
	}
	err := lint.NotRobots(c.Body)
	if err == nil {
		return Problem{}, false
	}
	kind := ProblemBinary
	if errors.Is(err, lint.ErrHTML) {
		kind = ProblemHTML
	}
	var e *lint.Error
	detail := err.Error()
	if errors.As(err, &e) {
		detail = e.Msg
	}
	return Problem{Input: c.Input, Offset: c.Offset, Kind: kind, Detail: detail + "; answered as a robots.txt file"}, true
}
