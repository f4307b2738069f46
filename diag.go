package robotstxt

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file explains a robots.txt file line by line (SPEC §9). It is apart
// from Parse so that a crawler never pays for it: Diagnose reads the lines
// with the same lexer and feeds them to the same builder as Parse, and
// watches what happens to each.

// maxBodySize is the number of bytes of a robots.txt body that Google's
// crawler reads (500 KiB, as fetch.maxBodySize); content past it is ignored.
// RFC 9309 §2.5 asks crawlers to read at least 500 KiB. Parse itself reads
// it all: the bound belongs to whoever reads the body from the network.
const maxBodySize = 500 << 10

// Causes of the findings of [Diagnose]. Match them with [errors.Is].
var (
	ErrNeverMatches  = errors.New("pattern can never match")                       // starts with neither '/' nor '*'
	ErrNoGroup       = errors.New("line before any user-agent line")               // a rule or other line that Parse drops
	ErrAgentReduced  = errors.New("user-agent value reduced to its product token") // "Googlebot/2.1" names Googlebot
	ErrAgentInvalid  = errors.New("user-agent value names no product token")       // "007bot", or empty
	ErrUnknownKey    = errors.New("unknown key")                                   // ignored by every crawler
	ErrDollar        = errors.New("'$' inside a pattern")                          // a literal; only a final '$' anchors
	ErrCrawlDelay    = errors.New("invalid or repeated crawl-delay")               // not a number, or not the group's first
	ErrEncoding      = errors.New("not UTF-8")                                     // bytes, UTF-16 or binary data
	ErrTooLarge      = errors.New("content past 500 KiB")                          // ignored by Google's crawler
	ErrHTML          = errors.New("HTML page served as robots.txt")                // an error page or a redirect page
	ErrAllowDisallow = errors.New("same pattern allowed and disallowed")           // in one group: allow wins
	ErrEmptyGroup    = errors.New("group without rules")                           // its agents may fetch everything
	ErrLineTooLong   = errors.New("line too long")                                 // cut at 16,663 bytes
	ErrNoColon       = errors.New("missing colon")                                 // "Disallow /x", read anyway
	ErrTypo          = errors.New("misspelled key accepted")                       // "Dissallow", "Disallowed", read anyway
	ErrNUL           = errors.New("NUL byte")                                      // ends the line's content
	ErrIgnoredLine   = errors.New("line is not a key and value")                   // text with neither ':' nor two tokens
	ErrSitemap       = errors.New("sitemap is not an absolute URL")                // or empty
	ErrNoindex       = errors.New("noindex or nofollow line")                      // read by no major search engine
	ErrGoogleIgnores = errors.New("line Google ignores")                           // crawl-delay: other crawlers read it
	ErrSiteClosed    = errors.New("whole site disallowed")                         // "User-agent: *" with "Disallow: /"
)

// Severity ranks a finding. A file with errors does not do what its author
// meant; warnings point at what some crawlers read differently or at
// likely mistakes; infos explain how a line was read.
type Severity uint8

const (
	SeverityInfo    Severity = iota // how a line was read, for the curious
	SeverityWarning                 // read differently by some crawlers, or a likely mistake
	SeverityError                   // the line does not do what it seems to
)

func (s Severity) String() string {
	switch s {
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText encodes s as its name, for JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Error is one finding of [Diagnose]: a problem on one line of the file.
type Error struct {
	Line     int // 1-based line where the problem is
	Severity Severity
	Err      error  // the cause, one of the ErrXxx values
	Msg      string // what was seen and what follows from it, lower case
}

// Error returns "robotstxt: line 7: warning: " followed by the message.
func (e *Error) Error() string {
	return "robotstxt: line " + strconv.Itoa(e.Line) + ": " + e.Severity.String() + ": " + e.Msg
}

// Unwrap returns the cause, for [errors.Is].
func (e *Error) Unwrap() error { return e.Err }

// Render formats e as a compiler does, with the file name the caller knows
// the file by: "robots.txt:7: warning: ...".
func (e *Error) Render(file string) string {
	return file + ":" + strconv.Itoa(e.Line) + ": " + e.Severity.String() + ": " + e.Msg
}

// ErrorList is a list of findings in line order. The zero value is an empty
// list ready to use.
type ErrorList []*Error

// Error returns the first finding's message and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// LineKind tells what a line was read as.
type LineKind uint8

const (
	LineBlank     LineKind = iota // nothing but whitespace
	LineComment                   // only a comment
	LineUserAgent                 // a user-agent line
	LineAllow                     // an allow rule
	LineDisallow                  // a disallow rule
	LineSitemap                   // a sitemap line
	LineOther                     // any other key: crawl-delay, host, unknown keys...
	LineInvalid                   // text that is not a key and value; ignored
)

var lineKindNames = [...]string{"blank", "comment", "user-agent", "allow", "disallow", "sitemap", "other", "invalid"}

func (k LineKind) String() string {
	if int(k) < len(lineKindNames) {
		return lineKindNames[k]
	}
	return "LineKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k as its name, for JSON.
func (k LineKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Line is what [Diagnose] saw on one line. A file that ends with a line
// break has no empty line after it.
type Line struct {
	Num   int // 1-based
	Kind  LineKind
	Key   string // as written, trimmed; "" for blank, comment and invalid lines
	Value string // as written, trimmed, without the comment
	Group int    // 1-based number of the group a user-agent, allow, disallow or other line belongs to; 0 for none

	Typo      bool // the key was recognised through a misspelling or as a longer word ("dissallow", "disallowed")
	NoColon   bool // key and value were separated by whitespace, not ':'
	Truncated bool // the line was longer than 16,663 bytes; the rest was dropped
	Comment   bool // a '#' started a comment
	NUL       bool // a NUL byte ended the line's content
	NonUTF8   bool // the line holds bytes that are not UTF-8
	PastLimit bool // some of the line lies past the first 512,000 bytes (500 KiB), which Google's crawler reads
}

// Counts sums up what Parse keeps of a file.
type Counts struct {
	Lines      int // lines in the file
	Blank      int // blank lines
	Comments   int // lines with only a comment
	Invalid    int // lines that are not a key and value
	UserAgents int // user-agent lines
	Groups     int // groups: runs of user-agent lines and the lines up to the next run
	Allow      int // allow rules that belong to a group and can match
	Disallow   int // disallow rules that belong to a group and can match
	NeverMatch int // rules of a group whose pattern can never match; Parse drops them
	Others     int // lines with other keys that belong to a group
	Outside    int // allow, disallow and other lines before the first user-agent line; Parse drops them
	Sitemaps   int // distinct non-empty sitemap URLs
}

// Report is what [Diagnose] found in a file.
type Report struct {
	Lines    []Line    // one per line of the file
	Findings ErrorList // in line order
	Counts   Counts
}

// Err returns the findings of severity error as an [ErrorList], or nil when
// there are none.
func (r *Report) Err() error {
	var l ErrorList
	for _, e := range r.Findings {
		if e.Severity == SeverityError {
			l = append(l, e)
		}
	}
	return l.Err()
}

// Diagnose reads data as [Parse] does and reports what it saw on every line
// and what looks wrong. Diagnose and Parse agree: the rules, groups and
// sitemaps that the report counts are those that Parse keeps.
func Diagnose(data []byte) *Report {
	if len(data) > maxFileLen {
		data = data[:maxFileLen] // as Parse does
	}
	d := diagnoser{data: data, text: string(data), b: builder{}, rep: &Report{}}
	d.run()
	return d.rep
}

// diagnoser holds the state of one Diagnose call.
type diagnoser struct {
	data []byte
	text string // data, copied once; Key and Value are slices of it
	b    builder
	rep  *Report

	groups      []diagGroup // parallel to b.groups
	fileLevel   bool        // HTML or UTF-16: per-line findings would be noise
	seenContent bool        // a line with content has gone by
	nonUTF8     []int       // lines with bytes that are not UTF-8
	delayNoted  bool        // the note that Google ignores crawl-delay is made
	scratch     []byte      // a normalised pattern, reused from rule to rule
}

// diagGroup is what the diagnostics keep per group.
type diagGroup struct {
	line      int      // first user-agent line
	agents    []string // the values of its user-agent lines, as written
	global    bool
	rules     int               // allow and disallow lines
	delayLine int               // the first valid crawl-delay
	closeLine int               // the first disallow rule that matches every URL, such as "Disallow: /"
	opens     bool              // an allow rule that can match
	patterns  map[string][2]int // normalised pattern → first disallow line, first allow line
}

func (d *diagnoser) run() {
	if bytes.HasPrefix(d.data, []byte{0xff, 0xfe}) || bytes.HasPrefix(d.data, []byte{0xfe, 0xff}) {
		d.fileLevel = true
		d.addFile(1, SeverityError, ErrEncoding, "file is UTF-16 (it starts with a UTF-16 byte order mark): robots.txt must be UTF-8, and none of its lines can be read"+
			meantAsUTF16(d.data[2:], d.data[0] == 0xfe))
	} else if looksBinary(d.data) {
		d.fileLevel = true
		d.addFile(1, SeverityError, ErrEncoding, "file is binary data, not text (an image, or a compressed body): none of its lines can be read")
	}
	lx := newLexer(d.data)
	cut := false // the content past maxBodySize has been reported
	for {
		start := lx.pos
		raw, ok := lx.next()
		if !ok {
			break
		}
		// The lexer numbers the empty text after a final line break as a
		// line; an editor shows none, and it holds nothing.
		if lx.done && len(raw) == 0 && lx.num > 1 {
			break
		}
		ln := Line{Num: lx.num, PastLimit: start+len(raw) > maxBodySize || start >= maxBodySize}
		if !cut && start+len(raw) > maxBodySize {
			cut = true
			where := "from this line on"
			if start < maxBodySize {
				where = fmt.Sprintf("from byte %d of this line on", maxBodySize-start+1)
			}
			d.addFile(ln.Num, SeverityWarning, ErrTooLarge, fmt.Sprintf(
				"the file is %d bytes: Google's crawler reads only the first %d (500 KiB) and ignores the rest, %s",
				len(d.data), maxBodySize, where))
		}
		if !d.seenContent && len(trimSpace(raw)) > 0 {
			d.seenContent = true
			if !d.fileLevel && looksLikeHTML(d.data[start:]) {
				d.fileLevel = true
				d.addFile(ln.Num, SeverityError, ErrHTML, "this is an HTML page, not a robots.txt: the server answered with a web page (an error page or a redirect) instead of the file")
			}
		}
		d.line(&ln, raw)
		d.rep.Lines = append(d.rep.Lines, ln)
	}
	d.finish()
}

// line reads one raw line into ln, as parse does, and checks it.
func (d *diagnoser) line(ln *Line, raw []byte) {
	if !utf8.Valid(raw) {
		ln.NonUTF8 = true
		d.nonUTF8 = append(d.nonUTF8, ln.Num)
	}
	key, value, flags, ok := splitLine(raw)
	ln.Truncated = flags&flagTruncated != 0
	ln.Comment = flags&flagComment != 0
	ln.NUL = flags&flagNUL != 0
	ln.NoColon = flags&flagNoColon != 0
	if ln.Truncated {
		d.add(ln.Num, SeverityWarning, ErrLineTooLong, fmt.Sprintf(
			"line is %d bytes long: only the first %d are read, the rest is dropped", len(raw), maxLineLen))
	}
	if ln.NUL {
		d.add(ln.Num, SeverityWarning, ErrNUL, "a NUL byte ends the line: the rest of it is ignored")
	}
	switch {
	case ok:
	case flags&flagIgnored != 0:
		ln.Kind = LineInvalid
		d.rep.Counts.Invalid++
		d.add(ln.Num, SeverityWarning, ErrIgnoredLine, "line ignored: it is neither blank, a comment, nor a key and value separated by ':'")
		return
	case ln.Comment:
		ln.Kind = LineComment
		d.rep.Counts.Comments++
		return
	default:
		ln.Kind = LineBlank
		d.rep.Counts.Blank++
		return
	}
	ln.Key, ln.Value = d.str(key), d.str(value)
	kind, typo := classifyKey(key)
	ln.Typo = typo || (kind != keyOther && !equalFold(key, canonicalKey[kind]))
	if ln.NoColon {
		d.add(ln.Num, SeverityWarning, ErrNoColon, fmt.Sprintf(
			"missing colon after %q: read as key and value separated by whitespace, which other crawlers may not accept", ln.Key))
	}
	if ln.Typo {
		d.add(ln.Num, SeverityWarning, ErrTypo, fmt.Sprintf(
			"key %q read as %s: write %q, as other crawlers may not accept it", ln.Key, canonicalKey[kind], canonicalKey[kind]))
	}

	nGroups := len(d.b.groups)
	d.b.line(uint32(ln.Num), kind, key, value)
	if len(d.b.groups) > nGroups {
		d.groups = append(d.groups, diagGroup{line: ln.Num})
	}
	if kind != keySitemap && d.b.current() >= 0 {
		ln.Group = d.b.current() + 1
	}
	switch kind {
	case keyUserAgent:
		ln.Kind = LineUserAgent
		d.rep.Counts.UserAgents++
		d.agent(ln, value)
	case keyAllow, keyDisallow:
		ln.Kind = LineDisallow
		if kind == keyAllow {
			ln.Kind = LineAllow
		}
		d.rule(ln, kind == keyAllow, value)
	case keySitemap:
		ln.Kind = LineSitemap
		d.sitemap(ln)
	default:
		ln.Kind = LineOther
		d.other(ln, key, value)
	}
}

// isAgentList reports whether rest, what follows the product token of a
// user-agent value, starts a list of names ("Googlebot, Bingbot") rather
// than going on with the same name ("MJ12bot").
func isAgentList(rest []byte) bool {
	return len(rest) > 0 && (isSpace(rest[0]) || rest[0] == ',' || rest[0] == ';' || rest[0] == '|')
}

// writtenName returns the name a user-agent value gives, as a person reads
// it: up to the first space, ',', ';', '/' or '('.
func writtenName(value string) string {
	if i := strings.IndexAny(value, " \t,;/("); i >= 0 {
		return value[:i]
	}
	return value
}

// canonicalKey is how each known key is written.
var canonicalKey = [...]string{
	keyOther:     "",
	keyUserAgent: "user-agent",
	keyAllow:     "allow",
	keyDisallow:  "disallow",
	keySitemap:   "sitemap",
}

func (d *diagnoser) agent(ln *Line, value []byte) {
	g := &d.groups[d.b.current()]
	g.agents = append(g.agents, ln.Value)
	if isGlobalAgent(value) {
		g.global = true
		if len(value) > 1 {
			d.add(ln.Num, SeverityInfo, ErrAgentReduced, fmt.Sprintf(
				"user-agent %q is read as \"*\": the text after '*' is ignored", ln.Value))
		}
		return
	}
	tok := agentToken(value)
	switch {
	case len(value) == 0:
		d.add(ln.Num, SeverityError, ErrAgentInvalid, "empty user-agent: the group applies to no crawler")
	case len(tok) == 0:
		d.add(ln.Num, SeverityError, ErrAgentInvalid, fmt.Sprintf(
			"user-agent %q names no crawler: a product token is made of letters, '-' and '_', and this one starts with %q, so the group applies to no crawler",
			ln.Value, firstRune(ln.Value)))
	case len(tok) < len(value) && value[len(tok)] == '/':
		d.add(ln.Num, SeverityInfo, ErrAgentReduced, fmt.Sprintf(
			"user-agent %q is read as %q: the version is ignored", ln.Value, tok))
	case len(tok) == len(value):
	case len(bytes.Trim(value[len(tok):], "*")) == 0:
		d.add(ln.Num, SeverityWarning, ErrAgentReduced, fmt.Sprintf(
			"user-agent %q is read as %q: '*' is no wildcard after a name, so this group is for %q only",
			ln.Value, tok, tok))
	case isAgentList(value[len(tok):]):
		d.add(ln.Num, SeverityWarning, ErrAgentReduced, fmt.Sprintf(
			"user-agent %q is read as %q: only the leading letters, '-' and '_' count; name one crawler per user-agent line",
			ln.Value, tok))
	default:
		// "MJ12bot", "AhrefsBot2": the name goes on past the token, so
		// the crawler that calls itself by the whole name is not matched.
		d.add(ln.Num, SeverityWarning, ErrAgentReduced, fmt.Sprintf(
			"user-agent %q is read as %q: Google reads the name up to the first character that is not a letter, '-' or '_' (here %q), so this group is for a crawler called %q, and a crawler called %q is not matched by it",
			ln.Value, tok, firstRune(ln.Value[len(tok):]), tok, writtenName(ln.Value)))
	}
}

func (d *diagnoser) rule(ln *Line, allow bool, value []byte) {
	if d.b.current() < 0 {
		d.rep.Counts.Outside++
		d.add(ln.Num, SeverityError, ErrNoGroup, fmt.Sprintf(
			"%s rule before any user-agent line belongs to no group and is ignored", ln.Kind))
		return
	}
	g := &d.groups[d.b.current()]
	g.rules++
	if len(value) > 0 && value[0] != '/' && value[0] != '*' {
		d.rep.Counts.NeverMatch++
		d.add(ln.Num, SeverityError, ErrNeverMatches, neverMatches(ln.Value))
	} else if allow {
		d.rep.Counts.Allow++
	} else {
		d.rep.Counts.Disallow++
	}
	if len(value) == 0 {
		return
	}
	switch {
	case value[0] != '/' && value[0] != '*':
	case allow:
		g.opens = true
	case g.closeLine == 0 && matchesAll(value):
		g.closeLine = ln.Num
	}
	if i := bytes.IndexByte(value[:len(value)-1], '$'); i >= 0 {
		d.add(ln.Num, SeverityWarning, ErrDollar, fmt.Sprintf(
			"'$' in the middle of %q matches a literal '$': only a '$' at the end of a pattern anchors it", ln.Value))
	}
	if g.patterns == nil {
		g.patterns = make(map[string][2]int)
	}
	d.scratch = appendEscaped(d.scratch[:0], value)
	seen := g.patterns[string(d.scratch)]
	this, other := 0, 1 // indexes into seen: disallow, allow
	if allow {
		this, other = 1, 0
	}
	if seen[other] != 0 && seen[this] == 0 {
		d.add(ln.Num, SeverityWarning, ErrAllowDisallow, fmt.Sprintf(
			"%q is both allowed and disallowed in this group (lines %d and %d): allow wins, so the disallow has no effect",
			ln.Value, seen[other], ln.Num))
	}
	if seen[this] == 0 {
		seen[this] = ln.Num
		g.patterns[string(d.scratch)] = seen
	}
}

func (d *diagnoser) sitemap(ln *Line) {
	v := ln.Value
	if v == "" {
		d.add(ln.Num, SeverityError, ErrSitemap,
			"empty sitemap line is ignored: search engines need the absolute URL of a sitemap, such as \"https://example.com/sitemap.xml\"")
		return
	}
	if !absoluteHTTP(v) {
		d.add(ln.Num, SeverityError, ErrSitemap, fmt.Sprintf(
			"sitemap %q is not an absolute http or https URL, so search engines ignore it; write it with scheme and host, such as %q",
			v, suggestSitemap(v)))
	}
}

// absoluteHTTP reports whether v starts with "http://" or "https://" and a
// host.
func absoluteHTTP(v string) bool {
	for _, scheme := range []string{"http://", "https://"} {
		if hasPrefixFold([]byte(v), scheme) {
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

// knownOtherKeys are keys that Parse keeps as other lines and that some
// crawlers use; they draw no unknown-key finding.
var knownOtherKeys = []string{
	"crawl-delay", "host", "clean-param", "request-rate", "visit-time", "noindex", "content-signal",
}

func (d *diagnoser) other(ln *Line, key, value []byte) {
	if d.b.current() < 0 {
		d.rep.Counts.Outside++
	} else {
		d.rep.Counts.Others++
	}
	known := slices.ContainsFunc(knownOtherKeys, func(k string) bool { return equalFold(key, k) })
	isDelay := equalFold(key, "crawl-delay")
	switch {
	case equalFold(key, "noindex") || equalFold(key, "nofollow"):
		what := strings.ToLower(ln.Key)
		instead := "to keep pages out of search results, send a noindex robots meta tag or X-Robots-Tag header with them, and do not disallow them, or crawlers never see it"
		if what == "nofollow" {
			instead = "put a nofollow robots meta tag on the pages, or rel=\"nofollow\" on the links"
		}
		d.add(ln.Num, SeverityError, ErrNoindex, fmt.Sprintf(
			"%s lines in robots.txt are read by no major search engine (Google stopped on 1 September 2019): %s", what, instead))
	case !known:
		msg := fmt.Sprintf("unknown key %q is ignored", ln.Key)
		if s := nearestKey(ln.Key); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		d.add(ln.Num, SeverityWarning, ErrUnknownKey, msg)
	case d.b.current() < 0:
		sev := SeverityInfo
		if isDelay {
			sev = SeverityWarning
		}
		d.add(ln.Num, sev, ErrNoGroup, fmt.Sprintf(
			"%s line before any user-agent line belongs to no group and is ignored", ln.Key))
	case !isDelay:
	case !validDelay(ln.Value):
		d.add(ln.Num, SeverityWarning, ErrCrawlDelay, fmt.Sprintf(
			"crawl-delay %q is ignored: it must be a number of seconds, such as 10 or 0.5", ln.Value))
	case d.groups[d.b.current()].delayLine != 0:
		d.add(ln.Num, SeverityWarning, ErrCrawlDelay, fmt.Sprintf(
			"crawl-delay ignored: the group already has one on line %d", d.groups[d.b.current()].delayLine))
	default:
		d.groups[d.b.current()].delayLine = ln.Num
		if !d.delayNoted {
			d.delayNoted = true
			d.add(ln.Num, SeverityInfo, ErrGoogleIgnores,
				"crawl-delay is ignored by Google; Bing, Yandex and other crawlers read it (noted once, at the first crawl-delay line)")
		}
	}
}

func validDelay(value string) bool {
	_, ok := parseDelay(value)
	return ok
}

// finish adds what only the whole file tells and sorts the findings.
func (d *diagnoser) finish() {
	if n := len(d.nonUTF8); n > 0 {
		msg := "line has bytes that are not UTF-8: robots.txt must be UTF-8; in patterns they are read as %-escapes, elsewhere as they are"
		if n > 1 {
			msg += fmt.Sprintf(" (%d lines have such bytes, this is the first)", n)
		}
		d.add(d.nonUTF8[0], SeverityWarning, ErrEncoding, msg)
	}
	for _, g := range d.groups {
		if g.rules > 0 {
			continue
		}
		if g.global && len(g.agents) == 1 {
			d.add(g.line, SeverityInfo, ErrEmptyGroup, "group for \"*\" has no allow or disallow rules: it allows everything")
			continue
		}
		d.add(g.line, SeverityWarning, ErrEmptyGroup, fmt.Sprintf(
			"group for %s has no allow or disallow rules: these crawlers may fetch everything, and the rules for \"*\" do not apply to them",
			quoteList(g.agents)))
	}
	d.closed()
	c := &d.rep.Counts
	c.Lines = len(d.rep.Lines)
	c.Groups = len(d.b.groups)
	c.Sitemaps = len(d.b.sitemaps)
	slices.SortStableFunc(d.rep.Findings, func(a, b *Error) int { return a.Line - b.Line })
}

// closed reports a file whose groups for "*" disallow every URL and allow
// none: the site is closed to every crawler that no other group names.
// Google merges the groups for "*", so they are taken together.
func (d *diagnoser) closed() {
	line, opens := 0, false
	var named []string
	for _, g := range d.groups {
		if !g.global {
			named = append(named, g.agents...)
			continue
		}
		opens = opens || g.opens
		if line == 0 || 0 < g.closeLine && g.closeLine < line {
			line = g.closeLine
		}
	}
	if line == 0 || opens {
		return
	}
	l := d.rep.Lines[line-1]
	rule := l.Key + ": " + l.Value
	if len(named) == 0 {
		d.add(line, SeverityWarning, ErrSiteClosed, fmt.Sprintf(
			"%q in the group for \"*\" closes the whole site to every crawler: search engines will crawl none of its pages", rule))
		return
	}
	have := "have"
	if len(named) == 1 {
		have = "has"
	}
	d.add(line, SeverityWarning, ErrSiteClosed, fmt.Sprintf(
		"%q in the group for \"*\" closes the whole site to every crawler that no other group names: only %s %s rules of their own",
		rule, quoteList(named), have))
}

// add records a finding about one line. Findings about single lines of an
// HTML or UTF-16 file are dropped: the file-level one says it all.
func (d *diagnoser) add(line int, sev Severity, err error, msg string) {
	if d.fileLevel {
		return
	}
	d.addFile(line, sev, err, msg)
}

func (d *diagnoser) addFile(line int, sev Severity, err error, msg string) {
	d.rep.Findings = append(d.rep.Findings, &Error{Line: line, Severity: sev, Err: err, Msg: msg})
}

// str returns b, a slice of d.data, as the same bytes of d.text. The lexer
// and splitLine only ever reslice data, so every slice reaches to the end of
// data's capacity and its offset is the difference of capacities. Should
// they ever copy, b is copied too.
func (d *diagnoser) str(b []byte) string {
	off := cap(d.data) - cap(b)
	if off < 0 || off+len(b) > len(d.text) || d.text[off:off+len(b)] != string(b) {
		return string(b)
	}
	return d.text[off : off+len(b)]
}

// meantAsUTF16 decodes data as UTF-16 (big-endian when be is set) and says
// what the file holds when saved as UTF-8, or "" when it holds no rules.
func meantAsUTF16(data []byte, be bool) string {
	const maxUnits = 1 << 20 // a UTF-16 robots.txt of 2 MiB is read far enough
	units := make([]uint16, 0, min(len(data)/2, maxUnits))
	for i := 0; i+1 < len(data) && len(units) < maxUnits; i += 2 {
		u := uint16(data[i]) | uint16(data[i+1])<<8
		if be {
			u = uint16(data[i])<<8 | uint16(data[i+1])
		}
		units = append(units, u)
	}
	text := []byte(string(utf16.Decode(units)))
	rep := Diagnose(text)
	n := rep.Counts
	if n.Allow+n.Disallow == 0 || rep.fileLevel() {
		return ""
	}
	first := ""
	for _, l := range rep.Lines {
		if (l.Kind == LineAllow || l.Kind == LineDisallow) && l.Group > 0 {
			first = fmt.Sprintf(", the first on line %d: %q", l.Num, l.Key+": "+l.Value)
			break
		}
	}
	return fmt.Sprintf("; saved as UTF-8 it would hold %s and %s%s",
		countOf(n.Groups, "group"), countOf(n.Allow+n.Disallow, "rule"), first)
}

// fileLevel reports whether r holds a finding about the whole file: an HTML
// page or bytes that are not text.
func (r *Report) fileLevel() bool {
	for _, e := range r.Findings {
		if e.Severity == SeverityError && (errors.Is(e, ErrHTML) || errors.Is(e, ErrEncoding)) {
			return true
		}
	}
	return false
}

func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// looksLikeHTML reports whether data, from its first non-blank line on,
// is an HTML page: it starts with '<' and an HTML tag is near the start.
func looksLikeHTML(data []byte) bool {
	data = trimSpace(data)
	if len(data) == 0 || data[0] != '<' {
		return false
	}
	head := bytes.ToLower(data[:min(len(data), 4096)])
	for _, tag := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<meta"} {
		if bytes.Contains(head, []byte(tag)) {
			return true
		}
	}
	return false
}

// looksBinary reports whether the start of data is mostly control
// characters other than whitespace, as in images, compressed bodies or
// UTF-16 text without a byte order mark.
func looksBinary(data []byte) bool {
	const sample = 1024
	head := data[:min(len(data), sample)]
	ctl := 0
	for _, c := range head {
		if c < ' ' && !isSpace(c) || c == 0x7f {
			ctl++
		}
	}
	// Text has next to none; a few NULs in a text file are reported line by
	// line instead.
	return len(head) >= 16 && 10*ctl > len(head)
}

func equalFold(b []byte, s string) bool { return len(b) == len(s) && hasPrefixFold(b, s) }

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
		return pathOf(v).String()
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

// matchesAll reports whether a pattern matches every URL: "/", "*", "/*".
func matchesAll(v []byte) bool {
	if len(v) > 0 && v[0] == '/' {
		v = v[1:]
	}
	return len(bytes.Trim(v, "*")) == 0
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
