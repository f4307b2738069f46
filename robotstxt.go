// Package robotstxt parses robots.txt files (RFC 9309) and reports whether a
// crawler may fetch a URL, giving the same answers as Google's open-source
// robots.txt parser, down to the line that decides.
//
// A robots.txt file is a list of groups. Each group names one or more
// crawlers and lists path patterns they may or may not fetch:
//
//	User-agent: Googlebot
//	Disallow: /private/
//	Allow: /private/press/
//
//	User-agent: *
//	Disallow: /*.pdf$
//
// A crawler obeys only the groups that name its product token (here
// "Googlebot"), all of them merged; if no group names it, it obeys the
// groups for "*". Among the rules of the chosen groups, the one whose pattern
// matches the most bytes of the URL's path decides, and Allow wins a tie. In
// patterns, '*' matches any run of bytes and a final '$' anchors the end, so
// for Googlebot "/private/a" is disallowed by line 2, "/private/press/b" is
// allowed by line 3, and for any other crawler "/f.pdf" is disallowed while
// "/f.pdf?x" is not. When no rule matches, the URL is allowed.
//
// Parse never fails: every byte sequence is a robots.txt, and lines that make
// no sense are skipped; package github.com/robotstxt-go/robotstxt/lint
// reports what was skipped and why, line by line, for tools that explain
// files to people, from the same pass over the lines as Parse. A parsed [*Robots] is
// immutable, safe for concurrent use by multiple goroutines and compact (a
// small struct and one string, about the size of the file). A crawler
// asking many URLs for one agent selects the agent's [Group] once with
// [Robots.Group] and asks it; a crawler that answers to several agents asks
// [Robots.GroupFor]. A query's cost does not grow with the size of the
// file: large groups are indexed by the literal prefix of their rules.
//
// Many files are asked one question, so Parse leaves work to the queries
// that need it. A file of at most 16 KiB, as most robots.txt files are, is
// kept as a copy: the first [Robots.Allowed] is answered from one pass over
// its lines, and the next query, or the first of another kind (Decide,
// Group, Sitemaps, ...), compiles it, once, in an allocation of its own,
// and drops the copy. A larger file is compiled by Parse. In a compiled
// file, the index of a large group is built when a query needs it: the
// first query that reaches the group reads all its rules, the next builds
// the group's index, once, in an allocation of its own (a copy of the
// group's patterns and 28 bytes a rule, 28.5 from 512 rules: held by
// TestIndexBytesPerRule), and every later one
// searches it. Allowed and Decide allocate nothing but the compiled file
// and the index. A crawler that will ask a file many questions can call
// [Robots.Group] at once, which compiles it. A parsed file has a versioned
// binary form
// ([Robots.MarshalBinary]) that a cache can store and load again for about
// a sixth of the cost of parsing, at the median per file of a corpus of
// real robots.txt files (cd bench && go run . measures both: "Load vs
// parse").
//
// # Differences from RFC 9309
//
// Where Google's parser and RFC 9309 differ, this package answers as Google's
// parser does, because that is what webmasters test their files against.
// This list is the only one; the README links here.
//
//   - Keys are recognised by case-insensitive prefix and with common typos:
//     "Disallowed:", "User-agents:", "useragent", "user agent", "dissallow",
//     "disalow" and "site-map" all count. RFC 9309 names the keys exactly.
//   - A line without a colon is read as key and value when exactly two
//     tokens are separated by spaces or tabs ("Disallow /x").
//   - A User-agent value is reduced to its leading [A-Za-z_-] run
//     ("Googlebot/2.1" names Googlebot), and "* anything" names the global
//     group. The caller's agent is compared as given, case-insensitively:
//     pass a product token ([ValidAgent] tells whether it is one).
//   - An Allow rule whose last segment starts with "/index.htm" also allows
//     the bare directory: "Allow: /d/index.html" allows exactly "/d/".
//   - A line keeps at most 16,663 bytes; the rest of it is dropped.
//   - "/robots.txt" is not implicitly allowed (RFC 9309 §2.2.2 says it is);
//     a file that disallows it is answered as written.
//   - Priority is the byte length of the pattern after normalisation
//     (non-ASCII bytes %-encoded, %-escapes upper-cased), '*' and '$'
//     included; the URL is matched as given, without decoding, so "%aa" and
//     "%AA" differ.
//   - The path is matched up to its first NUL byte: Google's parser hands
//     it to its matcher as a C string, so "/a%00b" stays three bytes but a
//     raw NUL in "/a\x00b" ends the path at "/a".
//
// Crawl-delay, which neither RFC 9309 nor Google's parser reads, is parsed
// per group and chosen like the rules ([Robots.CrawlDelay]).
//
// # Usage preferences
//
// Besides whether a crawler may fetch a URL, [Robots.Usage] answers what it
// may use it for, from two kinds of line, each reported as stated:
//
//   - Content-Usage (draft-ietf-aipref-attach-05 §3, with the vocabulary
//     of draft-ietf-aipref-vocab-08): a rule of a group, an optional path
//     pattern, then an RFC 9651 Dictionary such as "train-ai=n, search=y".
//     The categories are train-ai, ai-use and search; the Token y allows,
//     n disallows, and anything else, an unknown key, or a value that does
//     not parse as a Dictionary states nothing. Keys are case-sensitive.
//   - Content-Signal (Cloudflare's Content Signals Policy): "search=yes,
//     ai-input=no, ai-train=no", with an optional leading path as
//     Content-Usage; names and values are compared ignoring case, and a
//     line before the first group applies to every crawler whose groups
//     state none.
//
// The groups that decide for the agent's Allow and Disallow answer decide
// its preferences. Among their lines of one kind, the one whose path
// pattern matches with the longest pattern (as Allow and Disallow match;
// a line without a path counts as "/") states the preferences, and lines of
// equal length combine category by category, a disallow winning (vocab-08
// §5.1). A URL the groups disallow has no preferences: its answer is
// [PrefNotCrawlable]. Groups form as in Google's parser: a line it does not
// know, these included, does not end a run of User-agent lines (RFC 9309
// §2.2.4 agrees, where attach-05's grammar would end it), so these lines
// never move an Allow or Disallow answer. The answers follow
// draft-ietf-aipref-attach-05 and draft-ietf-aipref-vocab-08; the
// revision-dependent parts are in usage_vocab.go and
// internal/grammar/usage.go.
//
// The package does no I/O. [FromStatus] maps an HTTP status to the rules
// RFC 9309 prescribes, and [RobotsURL] finds where a URL's robots.txt lives;
// package github.com/robotstxt-go/robotstxt/fetch fetches and caches
// robots.txt files over HTTP.
package robotstxt

import (
	"sync/atomic"
	"time"
)

// Robots is a parsed robots.txt file. Build one with [Parse] or
// [FromStatus]. A Robots is immutable and safe for concurrent use.
//
// A nil *Robots allows everything, like an empty file.
type Robots struct {
	// srcN is the length of a file whose parse is deferred, or 0 (see
	// lazy.go): src holds its bytes until a query compiles it, and full
	// the compiled file once one has.
	srcN uint16
	src  atomic.Pointer[byte]
	full later[compiledFile]

	// file is the compiled file of a Robots whose parse is not deferred.
	// Only compiled reads it: a query asks the compiled file it returns.
	file compiledFile
}

// compiledFile is a compiled robots.txt file, the one form that holds the
// records queries read: Robots is the caller's handle, which compiles the
// file when a query first needs it (see Robots.compiled) and asks it.
type compiledFile struct {
	form

	// The indexes of the groups that have them, built as queries need
	// them: the first one built, which holds the others (see index.go).
	indexes later[groupIndex]

	// lens has bit n set when an agent token of the file has n bytes (bit
	// 63: 63 or more; see agentLens). A query whose agent has a length no
	// token has finds no agent without searching them (searchAgent).
	lens uint64
}

// form is the stored form of a compiled file, what MarshalBinary writes:
// its kind and one string, the bytes it keeps, then records that refer
// into them from wordsAt on (see layout.go). Without records, as for
// AllowAll and DisallowAll, there are no groups. The index of a group
// keeps its rules in a form of its own (see groupIndex).
type form struct {
	kind    Kind
	wordsAt uint32
	text    string
}

// Kind tells how a [Robots] came to be: parsed from a file, or standing for
// the allow-all or disallow-all answer that an HTTP status calls for.
type Kind uint8

const (
	Parsed      Kind = iota // rules parsed from a robots.txt body
	AllowAll                // no robots.txt (4xx): everything is allowed
	DisallowAll             // robots.txt unreachable (5xx, 429): nothing is allowed
)

// String names the kind as logs and the command print it: "parsed",
// "allow-all" or "disallow-all".
func (k Kind) String() string {
	switch k {
	case Parsed:
		return "parsed"
	case AllowAll:
		return "allow-all"
	case DisallowAll:
		return "disallow-all"
	}
	return "Kind(?)"
}

// Kind reports whether r was parsed from a file or stands for allow-all or
// disallow-all. A nil *Robots is AllowAll.
func (r *Robots) Kind() Kind {
	switch {
	case r == nil:
		return AllowAll
	case r.srcN != 0:
		return Parsed // deferred (see lazy.go): not compiled for this
	}
	return r.file.kind
}

// Decision explains an answer of [Robots.Decide].
type Decision struct {
	// Allowed reports whether the URL may be fetched.
	Allowed bool

	// Line is the 1-based line of the rule that decided, or 0 when no rule
	// matched. It follows Google's parser: of the matching rules the longest
	// pattern wins, Allow on a tie, then the earliest line. An empty
	// "Disallow:" matches every URL with length 0, so it can be the deciding
	// line of an allowed URL.
	Line int

	// Allow reports whether the deciding rule is an Allow rule. It is false
	// when Line is 0.
	Allow bool

	// Rule is the deciding rule's value as written in the file (after
	// comment and whitespace removal), or "" when Line is 0.
	Rule string
}

// Parse parses a robots.txt body. It never fails and never panics: lines that
// are not rules are skipped (package lint says why). The result does not refer
// to data, which the caller may reuse. Parse reads at most the first 256 MiB
// of data. A file of at most 16 KiB is copied and compiled by the queries
// that need it (see the package documentation).
func Parse(data []byte) *Robots {
	if 0 < len(data) && len(data) <= lazyMax {
		return deferParse(data)
	}
	return parse(data)
}

// FromStatus returns the rules that RFC 9309 §2.3.1 prescribes for a
// robots.txt fetch that ended with the HTTP status code: a 2xx body is
// parsed; any other 4xx means there is no robots.txt and everything is
// allowed; 429 (too many requests) and 5xx mean the file is unreachable and
// nothing is allowed. Other codes (1xx, or 3xx left after following
// redirects) are treated as unreachable too. The result's Kind tells which.
func FromStatus(code int, body []byte) *Robots {
	switch {
	case 200 <= code && code <= 299:
		return Parse(body)
	case code == 429:
		return &Robots{file: compiledFile{form: form{kind: DisallowAll}}}
	case 400 <= code && code <= 499:
		return &Robots{file: compiledFile{form: form{kind: AllowAll}}}
	}
	return &Robots{file: compiledFile{form: form{kind: DisallowAll}}}
}

// Allowed reports whether agent may fetch url. The url is an absolute URL or
// a path; only its path, params and query count, compared byte for byte with
// the rules (no decoding, no case folding). The agent is a product token such
// as "Googlebot", compared case-insensitively with the file's tokens as
// given: "Googlebot/2.1" names no group (see [ValidAgent]).
//
// A URL taken raw from a page (non-ASCII bytes, lower-case %-escapes)
// should go through [NormalizeURL] first, which writes it in the form the
// patterns are stored in. A crawler that holds a User-Agent header finds
// its agent with [ProductToken].
func (r *Robots) Allowed(agent, url string) bool { return r.allowed(agent, url) }

// Decide is [Robots.Allowed] with the reason: the deciding line and rule.
func (r *Robots) Decide(agent, url string) Decision {
	return r.Group(agent).Decide(url)
}

// Sitemaps returns the Sitemap URLs of the file, in file order, without
// duplicates. They belong to no group.
func (r *Robots) Sitemaps() []string {
	f := r.compiled()
	if f == nil || !f.hasWords() {
		return nil
	}
	var out []string
	f.others(noGroup, func(o other) { out = append(out, f.otherValue(o)) })
	return out
}

// Others returns the lines before the first group whose key is none of
// user-agent, allow, disallow and sitemap, such as Host or Clean-param, in
// file order. They belong to no group; the lines of a group are its
// [Group.Others].
func (r *Robots) Others() []Other {
	f := r.compiled()
	if f == nil || !f.hasWords() {
		return nil
	}
	var out []Other
	f.others(preamble, func(o other) {
		out = append(out, Other{Line: int(o.line), Key: f.otherKey(o), Value: f.otherValue(o)})
	})
	return out
}

// CrawlDelay returns the Crawl-delay of the group that decides for agent,
// chosen as for Allowed. It reports false when that group has no valid
// Crawl-delay line.
func (r *Robots) CrawlDelay(agent string) (time.Duration, bool) {
	return r.Group(agent).CrawlDelay()
}
