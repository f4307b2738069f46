package fetch

import (
	"net/url"

	"github.com/robotstxt-go/robotstxt"
)

// Sitemaps returns the Sitemap URLs of the fetched file made absolute: each
// is resolved against the URL the file came from, FinalURL after
// redirects or else RobotsURL (RFC 3986 §5.1.3, §5.2), so that
// "Sitemap: /sitemap.xml" in http://example.com/robots.txt gives
// "http://example.com/sitemap.xml". Absolute values are kept as written.
// The result is in file order, without duplicates. Values that are no URL reference
// (such as "http://[::1/x") are left out; [robotstxt.Robots.Sitemaps] lists
// every value as written.
func (r *Result) Sitemaps() []string {
	if r == nil {
		return nil
	}
	base := r.FinalURL
	if base == "" {
		base = r.RobotsURL
	}
	return resolveSitemaps(r.Robots, base)
}

// Sitemaps returns the Sitemap URLs of the file in effect, resolved as
// [Result.Sitemaps] does against the URL it came from. A File that stands
// for an unreachable or missing robots.txt has none.
func (f File) Sitemaps() []string {
	if f.Result == nil {
		return nil
	}
	base := f.Result.FinalURL
	if base == "" {
		base = f.Result.RobotsURL
	}
	return resolveSitemaps(f.Robots, base)
}

// resolveSitemaps resolves the sitemaps of robots against base.
func resolveSitemaps(robots *robotstxt.Robots, base string) []string {
	values := robots.Sitemaps()
	if len(values) == 0 {
		return nil
	}
	b, err := url.Parse(base)
	if err != nil {
		b = nil // only absolute values can be kept
	}
	out := make([]string, 0, len(values))
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		ref, err := url.Parse(v)
		switch {
		case err != nil:
			continue
		case ref.IsAbs():
			// Kept as written, as Robots.Sitemaps has it.
		case b != nil:
			v = b.ResolveReference(ref).String()
		default:
			continue
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
