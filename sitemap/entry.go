package sitemap

import (
	"strconv"
)

// Limits of the protocol (sitemaps.org, "Sitemap file location" and
// "Using Sitemap index files"): a sitemap or an index lists at most 50,000
// URLs and is at most 50 MB (52,428,800 bytes) uncompressed.
const (
	MaxURLs  = 50000
	MaxBytes = 50 << 20
)

// MaxLocLen is the length a URL must stay under: sitemaps.org asks for
// "less than 2,048 characters".
const MaxLocLen = 2048

// Kind is the format of a file, as its first bytes tell.
type Kind uint8

const (
	Unknown Kind = iota // nothing was read, or no format was recognised
	URLSet              // an XML <urlset>: pages
	Index               // an XML <sitemapindex>: sitemaps
	Text                // plain text, one URL per line: pages
	RSS                 // an RSS 2.0 feed: the <link> of each <item>
	Atom                // an Atom 1.0 feed: the <link href> of each <entry>
)

func (k Kind) String() string {
	switch k {
	case URLSet:
		return "urlset"
	case Index:
		return "sitemapindex"
	case Text:
		return "text"
	case RSS:
		return "rss"
	case Atom:
		return "atom"
	}
	return "unknown"
}

// Entry is a page (or, in an index, a sitemap) that a file lists.
type Entry struct {
	// Loc is the URL, with entities decoded ("&amp;" is "&") and spaces
	// around it trimmed; it is never empty.
	Loc string
	// LastMod is when the page last changed, in W3C Datetime form
	// (https://www.w3.org/TR/NOTE-datetime) as written; an RSS pubDate or
	// Atom updated is written in that form. "" when absent or invalid.
	LastMod string
	// ChangeFreq is one of always, hourly, daily, weekly, monthly, yearly
	// and never, or "" when absent or invalid.
	ChangeFreq string
	// Priority is a value from 0.0 to 1.0 as written, or "" when absent
	// or invalid.
	Priority string
	// Sitemap is the URL of the file the entry came from ([Options].URL).
	Sitemap string
	// Line is the line of the file (once decompressed) the entry starts on.
	Line int
}

// Code names a kind of [Finding].
type Code string

// The findings a reader reports. Those marked "stops" end the file: the
// entries read before are kept.
const (
	BOM         Code = "bom"            // a UTF-8 byte-order mark, skipped
	UTF16       Code = "utf-16"         // a UTF-16 byte-order mark: sitemaps are UTF-8 (stops)
	Encoding    Code = "encoding"       // an encoding other than UTF-8 declared, or a URL that is not UTF-8 (dropped)
	Binary      Code = "binary"         // a NUL byte in the first 512 bytes, or gzip inside gzip: no sitemap (stops)
	HTML        Code = "html"           // an HTML page, not a sitemap (stops)
	ContentType Code = "content-type"   // a Content-Type that does not fit what was read
	GzipName    Code = "gzip-name"      // named .gz but not gzip-compressed; read as it is
	BadGzip     Code = "bad-gzip"       // the gzip stream is broken (stops)
	UnknownRoot Code = "unknown-root"   // an XML document of no sitemap format (stops)
	InvalidXML  Code = "invalid-xml"    // malformed XML (stops)
	TooDeep     Code = "too-deep"       // elements nested deeper than any sitemap needs (stops)
	Doctype     Code = "doctype"        // a DOCTYPE, skipped: its entities are never expanded
	Entity      Code = "entity"         // an entity that is not one of XML's five nor a character reference
	RawAmp      Code = "raw-amp"        // a "&" that begins no entity, kept as written
	NoLoc       Code = "no-loc"         // an entry without a URL, dropped
	BadLoc      Code = "bad-loc"        // a URL that is not an absolute http(s) URL, dropped
	LongLoc     Code = "long-loc"       // a URL of MaxLocLen bytes or more, dropped
	Outside     Code = "outside"        // a URL the sitemap may not list, dropped
	Duplicate   Code = "duplicate"      // a URL listed before, dropped
	BadLastMod  Code = "bad-lastmod"    // a lastmod that is no W3C Datetime, cleared
	BadFreq     Code = "bad-changefreq" // a changefreq not in the list, cleared
	BadPriority Code = "bad-priority"   // a priority outside 0.0 to 1.0, cleared
	LongLine    Code = "long-line"      // a text line longer than the buffer, skipped
	TooManyURLs Code = "too-many-urls"  // more than MaxURLs entries (stops)
	TooLarge    Code = "too-large"      // more than MaxBytes bytes once decompressed (stops)
	Truncated   Code = "truncated"      // the file ends inside an element (stops)

	// Findings of following the sitemaps of a site (package fetch does).
	NoSitemaps      Code = "no-sitemaps"       // robots.txt names no sitemap: /sitemap.xml is tried
	Unreachable     Code = "unreachable"       // a sitemap could not be fetched, or read to its end
	Status          Code = "status"            // a sitemap answered with a status other than 2xx
	Disallowed      Code = "disallowed"        // robots.txt disallows fetching a sitemap
	Redirects       Code = "redirects"         // too many redirects, or a redirect loop
	Loop            Code = "loop"              // a sitemap listed again, such as an index listing itself
	NestedIndex     Code = "nested-index"      // an index listed by an index: not followed
	TooManySitemaps Code = "too-many-sitemaps" // more sitemaps than the cap: the rest are not read
)

// stops lists the codes that end a file.
var stops = map[Code]bool{
	UTF16: true, Binary: true, HTML: true, BadGzip: true, UnknownRoot: true,
	InvalidXML: true, TooDeep: true, TooManyURLs: true, TooLarge: true, Truncated: true,
}

// Stops reports whether a finding of code c ends the file it is found in.
func (c Code) Stops() bool { return stops[c] }

// Finding is something wrong with a file, or worth knowing about it.
type Finding struct {
	Sitemap string // the file's URL (Options.URL)
	Line    int    // the line (once decompressed), or 0 when it is about the whole file
	Code    Code
	Message string // what was found, for people
	URL     string // the URL concerned, if any
}

func (f Finding) String() string {
	s := f.Sitemap
	if f.Line > 0 {
		s += ":" + strconv.Itoa(f.Line)
	}
	if s != "" {
		s += ": "
	}
	s += string(f.Code) + ": " + f.Message
	if f.URL != "" {
		s += " (" + f.URL + ")"
	}
	return s
}
