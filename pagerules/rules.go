// Package pagerules reads what a fetched page says about its own use: the
// X-Robots-Tag (and Robots-Tag) response header, the robots meta tags of an
// HTML head, and the Content-Usage response header; and joins them with what
// robots.txt says about the same URL.
//
// robots.txt decides whether a crawler may fetch a URL. The page itself
// then says whether it may be indexed, whether its links may be followed,
// how long a snippet may be, and so on, as Google's "Robots meta tag,
// data-nosnippet, and X-Robots-Tag specifications" document it and
// draft-illyes-repext writes it down:
//
//	X-Robots-Tag: noindex, nofollow             no crawler may index it or follow its links
//	X-Robots-Tag: googlebot: nosnippet          Googlebot shows no snippet of it
//	X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST
//	<meta name="robots" content="max-snippet:50, nosnippet">   no snippet: the stricter rule wins
//	<meta name="examplebot" content="noindex">  ExampleBot may not index it
//
// Every rule restricts, so the rules that reach a crawler add up: those for
// every crawler and those for its own name, from every header line and
// every meta tag. Where two rules conflict the more restrictive one wins
// (max-snippet:50 and nosnippet give no snippet; max-snippet:20 and
// max-snippet:50 give 20). Names and rules are compared ignoring ASCII case.
// A rule this package does not know is kept in [Rules.Unknown] with where it
// was written, never dropped silently.
//
// Which bodies are read for meta tags is [ReadContentType]'s answer: the
// Content-Type read as a browser reads it, a malformed one included.
//
// These rules can be seen only on a page the crawler was allowed to fetch:
// a page that robots.txt disallows may still be indexed from the links to
// it, and its noindex is never read. [ReadPage] joins the three sources for
// a response, with the crawler's robots.txt answer from a [fetch.Cache],
// warns about that case, and answers its two questions apart: may the
// content be indexed ([Page.IndexContent]: not when robots.txt disallows
// it), and may the URL be shown ([Page.ShowURL]: yes when robots.txt
// disallows it, as Google shows such URLs).
//
// Deviations, and why: robots meta tags are read only in the head of the
// page (repext §4: "implementors should consider only the meta elements
// specified in the head element"), and only within a bounded prefix of it
// (see [Rules.AddMeta]); rules in a meta tag or header line are separated by
// commas only, as both documents write them.
package pagerules

import (
	"strconv"
	"time"
)

// Rule is one of the rules a page can state.
type Rule uint8

// The rules of Google's specification that have an effect. "all" states
// nothing, and "none" is noindex plus nofollow.
const (
	NoIndex          Rule = iota // do not show the page in search results
	NoFollow                     // do not follow the links on the page
	NoSnippet                    // no text snippet or video preview
	IndexIfEmbedded              // its content may be indexed when embedded in another page despite noindex
	NoTranslate                  // do not offer a translation of the page
	NoImageIndex                 // do not index the images on the page
	NoArchive                    // no cached copy (no longer used by Google Search, still read by others)
	MaxSnippet                   // max-snippet:N, at most N characters of text snippet
	MaxImagePreview              // max-image-preview:none|standard|large
	MaxVideoPreview              // max-video-preview:N, at most N seconds of video preview
	UnavailableAfter             // unavailable_after:DATE, not shown after DATE
	NumRules                     // the number of rules
)

// ruleNames are the rules as written, lower case, by Rule.
var ruleNames = [NumRules]string{
	NoIndex:          "noindex",
	NoFollow:         "nofollow",
	NoSnippet:        "nosnippet",
	IndexIfEmbedded:  "indexifembedded",
	NoTranslate:      "notranslate",
	NoImageIndex:     "noimageindex",
	NoArchive:        "noarchive",
	MaxSnippet:       "max-snippet",
	MaxImagePreview:  "max-image-preview",
	MaxVideoPreview:  "max-video-preview",
	UnavailableAfter: "unavailable_after",
}

// String returns the rule as it is written.
func (r Rule) String() string {
	if r < NumRules {
		return ruleNames[r]
	}
	return "unknown"
}

// Preview is the value of max-image-preview, from the most to the least
// restrictive.
type Preview uint8

const (
	PreviewNone     Preview = iota + 1 // no image preview
	PreviewStandard                    // a default image preview
	PreviewLarge                       // a larger image preview, up to the width of the viewport
)

var previewNames = [...]string{PreviewNone: "none", PreviewStandard: "standard", PreviewLarge: "large"}

// String returns the value as written, or "" for the zero Preview.
func (p Preview) String() string {
	if int(p) < len(previewNames) {
		return previewNames[p]
	}
	return "invalid"
}

// Source is where a rule was written.
type Source uint8

const (
	// FromHeader is an X-Robots-Tag response header line.
	FromHeader Source = iota + 1
	// FromRobotsTag is a Robots-Tag response header line (repext §3.1.1).
	FromRobotsTag
	// FromMeta is a robots meta tag of the HTML head.
	FromMeta
)

// String returns "X-Robots-Tag", "Robots-Tag" or "meta".
func (s Source) String() string {
	switch s {
	case FromHeader:
		return "X-Robots-Tag"
	case FromRobotsTag:
		return "Robots-Tag"
	case FromMeta:
		return "meta"
	}
	return ""
}

// Origin says where a rule was written.
type Origin struct {
	Source Source
	// N counts from 1 the header lines of the field, or the robots meta
	// tags of the head (those for any crawler, in page order).
	N int
	// Agent is the crawler the rule was addressed to as written ("googlebot"
	// in "googlebot: noindex", the name of a meta tag), or "" when it was
	// addressed to every crawler.
	Agent string
	// Text is the rule as written, such as "max-snippet:20".
	Text string
}

// String returns the origin as "X-Robots-Tag line 2 (googlebot)" or
// "meta tag 1".
func (o Origin) String() string {
	var s string
	switch o.Source {
	case FromMeta:
		s = "meta tag " + strconv.Itoa(o.N)
	case 0:
		return ""
	default:
		s = o.Source.String() + " line " + strconv.Itoa(o.N)
	}
	if o.Agent != "" {
		s += " (" + o.Agent + ")"
	}
	return s
}

// Unknown is a rule that was not understood: an unknown name, or a known
// one with a value that does not parse ("max-snippet:ten",
// "unavailable_after: soon"). Google ignores such rules.
type Unknown struct {
	Origin Origin // Origin.Text holds the rule
}

// Rules is what the rules a page states for one crawler add up to. The zero
// Rules states nothing: the page may be indexed, its links followed, with
// no limit on snippets. Add rules with [Rules.AddHeader], [Rules.AddMeta] and
// [Rules.Merge]; ask with the methods.
type Rules struct {
	set         uint16 // bit Rule: stated
	maxSnippet  int    // when MaxSnippet is set: -1 or a limit
	maxVideo    int    // when MaxVideoPreview is set: -1 or a limit
	image       Preview
	unavailable time.Time
	origin      [NumRules]Origin

	// Unknown lists the rules that applied to the crawler but were not
	// understood, in the order they were found; at most MaxUnknown.
	Unknown []Unknown
}

// Has reports whether the rule r was stated.
func (r *Rules) Has(x Rule) bool { return x < NumRules && r.set&(1<<x) != 0 }

// Origin returns where rule x was stated: the first place that stated its
// value in effect. It is the zero Origin when x was not stated.
func (r *Rules) Origin(x Rule) Origin {
	if !r.Has(x) {
		return Origin{}
	}
	return r.origin[x]
}

// MayIndex reports whether the page's rules let it be indexed and shown in
// search results at time now: no noindex, and now is not after an
// unavailable_after date. It says nothing about robots.txt, under which
// the two differ: [Page.IndexContent] and [Page.ShowURL] ask it.
func (r *Rules) MayIndex(now time.Time) bool {
	if r.Has(NoIndex) {
		return false
	}
	return !r.Has(UnavailableAfter) || !now.After(r.unavailable)
}

// MayIndexEmbedded reports whether the page's content may be indexed when
// another page embeds it: indexifembedded has an effect only beside
// noindex.
func (r *Rules) MayIndexEmbedded(now time.Time) bool {
	return r.MayIndex(now) || r.Has(IndexIfEmbedded)
}

// MayFollow reports whether the links on the page may be followed.
func (r *Rules) MayFollow() bool { return !r.Has(NoFollow) }

// SnippetLimit returns the longest text snippet allowed, in characters: 0
// for none (nosnippet, or max-snippet:0), -1 for no limit.
func (r *Rules) SnippetLimit() int {
	switch {
	case r.Has(NoSnippet):
		return 0
	case r.Has(MaxSnippet):
		return r.maxSnippet
	}
	return -1
}

// VideoPreviewLimit returns the longest video preview allowed, in seconds:
// 0 for a static image at most (also under nosnippet), -1 for no limit.
// max-snippet, even max-snippet:0, leaves it alone: Google's page says it
// "does not affect image or video previews"; only nosnippet and
// max-video-preview limit them.
func (r *Rules) VideoPreviewLimit() int {
	switch {
	case r.Has(NoSnippet):
		return 0
	case r.Has(MaxVideoPreview):
		return r.maxVideo
	}
	return -1
}

// ImagePreview returns the largest image preview allowed, and false when no
// max-image-preview was stated (Google then shows its default size).
func (r *Rules) ImagePreview() (Preview, bool) { return r.image, r.Has(MaxImagePreview) }

// UnavailableAfter returns the time after which the page is not to be
// shown, and false when none was stated.
func (r *Rules) UnavailableAfter() (time.Time, bool) {
	return r.unavailable, r.Has(UnavailableAfter)
}

// Merge adds the rules of o to r: every rule stated by either, the more
// restrictive value where both state one, and the unknown rules of both.
func (r *Rules) Merge(o *Rules) {
	for x := Rule(0); x < NumRules; x++ {
		if o.Has(x) {
			r.state(x, o.valueOf(x), o.origin[x])
		}
	}
	for _, u := range o.Unknown {
		r.unknown(u.Origin)
	}
}

// value is the value of one rule: n for a number, t for a date, p for a
// preview.
type value struct {
	n int
	t time.Time
	p Preview
}

func (r *Rules) valueOf(x Rule) value {
	switch x {
	case MaxSnippet:
		return value{n: r.maxSnippet}
	case MaxVideoPreview:
		return value{n: r.maxVideo}
	case MaxImagePreview:
		return value{p: r.image}
	case UnavailableAfter:
		return value{t: r.unavailable}
	}
	return value{}
}

// state records rule x with value v, stated at o, keeping the more
// restrictive value when x was already stated (Google: "In the case of
// conflicting robots rules, the more restrictive rule applies").
func (r *Rules) state(x Rule, v value, o Origin) {
	had := r.Has(x)
	r.set |= 1 << x
	switch x {
	case MaxSnippet:
		if had && !tighter(v.n, r.maxSnippet) {
			return
		}
		r.maxSnippet = v.n
	case MaxVideoPreview:
		if had && !tighter(v.n, r.maxVideo) {
			return
		}
		r.maxVideo = v.n
	case MaxImagePreview:
		if had && v.p >= r.image {
			return
		}
		r.image = v.p
	case UnavailableAfter:
		if had && !v.t.Before(r.unavailable) {
			return
		}
		r.unavailable = v.t
	default:
		if had {
			return
		}
	}
	r.origin[x] = o
}

// tighter reports whether limit a is more restrictive than limit b, where
// -1 is no limit.
func tighter(a, b int) bool {
	switch {
	case a < 0:
		return false
	case b < 0:
		return true
	}
	return a < b
}
