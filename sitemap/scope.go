package sitemap

import (
	"hash/maphash"
	"net/url"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// InScope reports whether the sitemap at sitemapURL may list loc by its
// location alone (sitemaps.org, "Sitemap file location"): loc must be in
// the sitemap's directory or below it, with the same scheme, host and port.
// The sitemap at http://example.com/catalog/sitemap.xml may list
// http://example.com/catalog/show?item=1 but not http://example.com/images/
// nor https://example.com/catalog/. A sitemap named in a host's
// robots.txt may list any URL of that host ([Prefix] of the robots.txt
// URL); that is for the caller to know, through [Options].Allow.
func InScope(sitemapURL, loc string) bool {
	dir, ok := Prefix(sitemapURL)
	return ok && Under(dir, loc)
}

// Prefix returns the directory of an absolute http or https URL: its
// origin as [robotstxt.Origin] writes it (scheme and host in lower case,
// a Unicode host in its Punycode form, a default port dropped) and its path
// up to the last slash, such as "http://example.com/catalog/" for
// http://Example.com:80/catalog/sitemap.xml. It reports false for anything
// else, and for a URL with userinfo.
func Prefix(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || u.User != nil {
		return "", false
	}
	scheme := grammar.LowerString(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	origin, err := robotstxt.Origin(rawURL)
	if err != nil {
		return "", false
	}
	p := u.EscapedPath()
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		p = "/"
	} else {
		p = p[:i+1]
	}
	if hasDotSegment(p) {
		return "", false
	}
	return origin + p, true
}

// Under reports whether loc is under prefix, as [Prefix] writes it: the
// origin of loc, as [robotstxt.Origin] writes it, is prefix's, and its
// path starts with prefix's path. A loc with userinfo, or whose path has a
// dot segment ("/../", "/./", or their %2E forms), which a server may
// resolve to somewhere else, is not under any prefix.
func Under(prefix, loc string) bool {
	i := strings.Index(prefix, "://")
	if i < 0 {
		return false
	}
	j := strings.IndexByte(prefix[i+3:], '/')
	k := strings.Index(loc, "://")
	if j < 0 || k < 0 {
		return false
	}
	auth := i + 3 + j // the slash that begins prefix's path
	end := len(loc)   // the end of loc's authority
	if e := strings.IndexAny(loc[k+3:], "/?#"); e >= 0 {
		end = k + 3 + e
	}
	if strings.IndexByte(loc[k+3:end], '@') >= 0 || !strings.HasPrefix(loc[end:], prefix[auth:]) {
		return false
	}
	// prefix's origin is canonical, so a loc that spells it byte for byte
	// has it; only other spellings need robotstxt.Origin.
	if end != auth || loc[:auth] != prefix[:auth] {
		if origin, err := robotstxt.Origin(loc); err != nil || origin != prefix[:auth] {
			return false
		}
	}
	path := loc[end:]
	if k := strings.IndexAny(path, "?#"); k >= 0 {
		path = path[:k]
	}
	return !hasDotSegment(path)
}

// hasDotSegment reports whether path has a "." or ".." segment, written
// plainly or %-encoded (RFC 3986 §5.2.4 removes them; servers that decode
// first do too).
func hasDotSegment(path string) bool {
	if !strings.Contains(path, "/.") && !strings.Contains(path, "/%") {
		return false
	}
	for len(path) > 0 {
		i := strings.IndexByte(path, '/')
		if i < 0 {
			break
		}
		path = path[i+1:]
		seg := path
		if k := strings.IndexByte(seg, '/'); k >= 0 {
			seg = seg[:k]
		}
		if isDot(seg) {
			return true
		}
	}
	return false
}

// isDot reports whether a path segment is "." or "..", plainly or with
// its dots %-encoded.
func isDot(seg string) bool {
	if len(seg) > 6 || !strings.HasPrefix(seg, ".") && !strings.HasPrefix(seg, "%") {
		return false
	}
	s := strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".")
	return s == "." || s == ".."
}

// Seen is a set of URLs that finds duplicates. It keeps a 64-bit hash of
// each URL, not the URL, so that its size does not grow with the URLs'
// length. Two distinct URLs collide with a probability of about n²/2⁶⁵,
// under 10⁻⁷ for n = 10⁶. The zero Seen is not ready: create one with
// [NewSeen]. A Seen is not safe for concurrent use.
type Seen struct {
	seed maphash.Seed
	m    map[uint64]struct{}
	max  int
	full bool
}

// NewSeen returns an empty set that tracks at most max URLs; past that, Add
// takes every URL for new and [Seen.Full] reports true.
func NewSeen(max int) *Seen {
	return &Seen{seed: maphash.MakeSeed(), m: make(map[uint64]struct{}), max: max}
}

// Add reports whether loc is new, and records it.
func (s *Seen) Add(loc string) bool {
	h := maphash.String(s.seed, loc)
	if _, dup := s.m[h]; dup {
		return false
	}
	if len(s.m) >= s.max {
		s.full = true
		return true
	}
	s.m[h] = struct{}{}
	return true
}

// Full reports whether the set stopped recording URLs: duplicates of URLs
// not recorded go unnoticed.
func (s *Seen) Full() bool { return s.full }

// Len returns the number of URLs recorded.
func (s *Seen) Len() int { return len(s.m) }
