package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/observe"
)

// This file explains a robots.txt file line by line (SPEC §9). It watches
// the parser's own loop over the lines (package observe): the parser reads
// each line once, and the checks here look at what it made of it.

// Diagnose reads data as [robotstxt.Parse] does, in the same pass, and
// reports what it saw on every line and what looks wrong. The rules, groups
// and sitemaps that the report counts are those of [Report.Robots], the file
// as Parse reads it.
func Diagnose(data []byte) *Report {
	d := newDiagnoser(data, nil)
	d.rep.Robots = d.run()
	return d.rep
}

// Summarize reads data as [Diagnose] does, with the same checks, and
// returns only the counts: those of the [Report], and how many findings of
// each cause and severity it holds. It builds no messages and no [Line]
// records, which makes it cheaper when only the numbers are wanted, as
// when linting many files: over the real corpus it took 0.54 to 0.61 of
// Diagnose's time and 0.18 of its bytes allocated, in two runs side by side
// on a shared 2-core machine (go test ./lint -run X -bench Lint -benchtime
// 3x -count 2). Summarize(data) equals Diagnose(data).Summary().
func Summarize(data []byte) Summary {
	_, s := ParseWithSummary(data)
	return s
}

// ParseWithSummary returns what robotstxt.Parse(data) and Summarize(data)
// return, from one pass over the lines: Summarize watches the parse that
// builds the rules. It costs less than the two calls, for a caller that
// wants the rules and the lint counts of many files (go test ./lint -run X
// -bench 'Lint/(ParseAndSummarize|ParseWithSummary)' -benchmem).
func ParseWithSummary(data []byte) (*robotstxt.Robots, Summary) {
	d := newDiagnoser(data, &Summary{})
	r := d.run()
	d.sum.Counts = d.rep.Counts
	return r, *d.sum
}

// newDiagnoser prepares the checks of data. A Report keeps its line
// records, whose keys and values are slices of one copy of data. A Summary
// keeps no string, so its text is data itself, viewed as a string for as
// long as the call lasts.
func newDiagnoser(data []byte, sum *Summary) *diagnoser {
	if len(data) > observe.MaxFileLen {
		data = data[:observe.MaxFileLen] // as Parse does
	}
	d := &diagnoser{data: data, rep: &Report{}, sum: sum, group: -1, patterns: patternLines{group: -1}}
	if sum == nil {
		d.text = string(data)
	} else {
		d.text = unsafe.String(unsafe.SliceData(data), len(data))
	}
	return d
}

// diagnoser holds the state of one Diagnose, Summarize or ParseWithSummary
// call.
type diagnoser struct {
	data []byte
	text string // data, copied once; Key and Value are slices of it
	rep  *Report

	group    int // the parser's current group after the last line, -1 before the first
	sitemaps int // sitemap lines the parser kept
	utf8OK   bool

	groups      []diagGroup  // one per group the parser opened, in order (observe.OpenedGroup)
	fileLevel   bool         // HTML or UTF-16: per-line findings would be noise
	seenContent bool         // a line with content has gone by
	nonUTF8     []int        // lines with bytes that are not UTF-8
	lines       int          // lines read so far
	sum         *Summary     // counting only (Summarize): no messages, no line records
	delayNoted  bool         // the note that Google ignores crawl-delay is made
	cut         bool         // the content past grammar.MaxBodySize has been reported
	usageRun    []int        // usage lines of the current group since its last user-agent line, while it has no rule
	usageSeen   []usageState // what the usage lines of the current group state, by path (see usage_gaps.go)
	scratch     []byte       // a normalised pattern, reused from rule to rule
	patterns    patternLines // the patterns of the group of the last rule
}

// diagGroup is what the diagnostics keep per group.
type diagGroup struct {
	line      int      // first user-agent line
	agents    []string // the values of its user-agent lines, as written (not kept by Summarize)
	nAgents   int      // its user-agent lines
	global    bool
	rules     int    // allow and disallow lines
	delayLine int    // the first valid crawl-delay
	closeLine int    // the first disallow rule that matches every URL, such as "Disallow: /"
	closeRule string // that rule's key and value, as "Disallow: /"
	opens     bool   // an allow rule that can match
}

// run checks the body as a whole, then each line as the parser reads it,
// then what only the whole file tells; it returns the parsed file.
func (d *diagnoser) run() *robotstxt.Robots {
	if utf16 := bytes.HasPrefix(d.data, []byte{0xff, 0xfe}) || bytes.HasPrefix(d.data, []byte{0xfe, 0xff}); utf16 || looksBinary(d.data) {
		d.fileLevel = true
		// The message is worked out only when it is kept.
		d.addFile(1, SeverityError, ErrEncoding, "%s", lazy(func() string { _, msg := fileKind(d.data); return msg }))
	}
	r := observe.Parse(d.data, d).(*robotstxt.Robots)
	d.finish(r)
	return r
}

// Line is the observer of the parse (observe.Observer): it checks one
// line as the parser has just read it.
func (d *diagnoser) Line(ev *observe.Line) {
	raw, start := ev.Raw, ev.Start
	if ev.Num == 1 {
		// The lines start after a byte order mark, or the part of one
		// the lexer skips: those bytes are not checked as UTF-8.
		d.utf8OK = utf8.Valid(d.data[start:])
	}
	// The lexer numbers the empty text after a final line break as a
	// line, and an empty file's empty text too; an editor shows none, and
	// it holds nothing.
	if len(raw) == 0 && start == len(d.data) && (ev.Num > 1 || len(d.data) == 0) {
		return
	}
	ln := Line{Num: ev.Num, PastLimit: start+len(raw) > grammar.MaxBodySize || start >= grammar.MaxBodySize}
	if d.sum == nil {
		ln.Text = d.str(raw)
	}
	if !d.cut && start+len(raw) > grammar.MaxBodySize {
		d.cut = true
		where := "from this line on"
		if start < grammar.MaxBodySize {
			where = fmt.Sprintf("from byte %d of this line on", grammar.MaxBodySize-start+1)
		}
		d.addFile(ln.Num, SeverityWarning, ErrTooLarge,
			"the file is %d bytes: Google's crawler reads only the first %d (500 KiB) and ignores the rest, %s",
			len(d.data), grammar.MaxBodySize, where)
	}
	if !d.seenContent && len(grammar.TrimSpace(raw)) > 0 {
		d.seenContent = true
		if !d.fileLevel {
			if k := markup(d.data[start:]); k != markupNone {
				d.fileLevel = true
				d.addFile(ln.Num, SeverityError, ErrHTML, "%s", k.message())
			}
		}
	}
	d.line(&ln, ev)
	d.lines++
	if d.sum == nil {
		d.rep.Lines = append(d.rep.Lines, ln)
	}
}

// line checks one line, as the parser read it, into ln.
func (d *diagnoser) line(ln *Line, ev *observe.Line) {
	if !d.utf8OK && !utf8.Valid(ev.Raw) {
		ln.NonUTF8 = true
		d.nonUTF8 = append(d.nonUTF8, ln.Num)
	}
	key, value, kind, flags := ev.Key, ev.Value, ev.Kind, ev.Flags
	ln.Truncated = flags&observe.Truncated != 0
	ln.Comment = flags&observe.Comment != 0
	ln.NUL = flags&observe.NUL != 0
	ln.NoColon = flags&observe.NoColon != 0
	if ln.Truncated {
		d.add(ln.Num, SeverityWarning, ErrLineTooLong,
			"line is %d bytes long: only the first %d are read, the rest is dropped", len(ev.Raw), grammar.MaxLineLen)
	}
	if ln.NUL {
		d.add(ln.Num, SeverityWarning, ErrNUL, "a NUL byte ends the line: the rest of it is ignored")
	}
	switch {
	case ev.Did != observe.NoKey:
	case flags&observe.Ignored != 0:
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
	// The key as Google's parser spells it: the canonical key, in any case.
	canon := grammar.Canonical[kind]
	ln.Typo = ev.Typo || kind != grammar.KeyOther && !grammar.EqualFold(key, canon)
	if ln.NoColon {
		d.add(ln.Num, SeverityWarning, ErrNoColon,
			"missing colon after %q: read as key and value separated by whitespace, which other crawlers may not accept", ln.Key)
	}
	if ln.Typo {
		d.add(ln.Num, SeverityWarning, ErrTypo,
			"key %q read as %s: write %q, as other crawlers may not accept it", ln.Key, canon, canon)
	}

	if ev.Did == observe.OpenedGroup {
		d.groups = append(d.groups, diagGroup{line: ln.Num})
		d.usageSeen = d.usageSeen[:0]
	}
	d.group = ev.Group
	if kind != grammar.KeySitemap && d.group >= 0 {
		ln.Group = d.group + 1
	}
	switch kind {
	case grammar.KeyUserAgent:
		ln.Kind = LineUserAgent
		d.rep.Counts.UserAgents++
		d.agent(ln, value)
		d.usageInAgents(ln, ev.Did == observe.JoinedGroup)
	case grammar.KeyAllow, grammar.KeyDisallow:
		if d.group >= 0 {
			d.usageRun = d.usageRun[:0] // the next user-agent line starts a group
		}
		ln.Kind = LineDisallow
		if kind == grammar.KeyAllow {
			ln.Kind = LineAllow
		}
		d.rule(ln, kind == grammar.KeyAllow, value)
	case grammar.KeySitemap:
		ln.Kind = LineSitemap
		if ev.Did == observe.Kept {
			d.sitemaps++
		}
		d.sitemap(ln)
	default:
		ln.Kind = LineOther
		d.other(ln, key, value)
	}
}

func (d *diagnoser) agent(ln *Line, value []byte) {
	g := &d.groups[d.group]
	g.nAgents++
	if d.sum == nil {
		g.agents = append(g.agents, ln.Value)
	}
	if grammar.IsGlobalAgent(value) {
		g.global = true
		if len(value) > 1 {
			d.add(ln.Num, SeverityInfo, ErrAgentReduced,
				"user-agent %q is read as \"*\": the text after '*' is ignored", ln.Value)
		}
		return
	}
	tok := grammar.AgentToken(value)
	switch {
	case len(value) == 0:
		d.add(ln.Num, SeverityError, ErrAgentInvalid, "empty user-agent: the group applies to no crawler")
	case len(tok) == 0:
		d.add(ln.Num, SeverityError, ErrAgentInvalid,
			"user-agent %q names no crawler: a product token is made of letters, '-' and '_', and this one starts with %q, so the group applies to no crawler",
			ln.Value, firstRune(ln.Value))
	case len(tok) < len(value) && value[len(tok)] == '/':
		d.add(ln.Num, SeverityInfo, ErrAgentReduced,
			"user-agent %q is read as %q: the version is ignored", ln.Value, tok)
	case len(tok) == len(value):
	case len(bytes.Trim(value[len(tok):], "*")) == 0:
		d.add(ln.Num, SeverityWarning, ErrAgentReduced,
			"user-agent %q is read as %q: '*' is no wildcard after a name, so this group is for %q only",
			ln.Value, tok, tok)
	case isAgentList(value[len(tok):]):
		d.add(ln.Num, SeverityWarning, ErrAgentReduced,
			"user-agent %q is read as %q: only the leading letters, '-' and '_' count; name one crawler per user-agent line",
			ln.Value, tok)
	default:
		// "MJ12bot", "AhrefsBot2": the name goes on past the token, so
		// the crawler that calls itself by the whole name is not matched.
		d.add(ln.Num, SeverityWarning, ErrAgentReduced,
			"user-agent %q is read as %q: Google reads the name up to the first character that is not a letter, '-' or '_' (here %q), so this group is for a crawler called %q, and a crawler called %q is not matched by it",
			ln.Value, tok, firstRune(ln.Value[len(tok):]), tok, writtenName(ln.Value))
	}
}

func (d *diagnoser) rule(ln *Line, allow bool, value []byte) {
	if d.group < 0 {
		d.rep.Counts.Outside++
		d.add(ln.Num, SeverityError, ErrNoGroup,
			"%s rule before any user-agent line belongs to no group and is ignored", ln.Kind)
		return
	}
	g := &d.groups[d.group]
	g.rules++
	if len(value) > 0 && value[0] != '/' && value[0] != '*' {
		d.rep.Counts.NeverMatch++
		v := ln.Value
		d.add(ln.Num, SeverityError, ErrNeverMatches, "%s", lazy(func() string { return neverMatches(v) }))
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
		g.closeLine, g.closeRule = ln.Num, ln.Key+": "+ln.Value
	}
	if i := grammar.IndexWireEscaped(value); i >= 0 {
		sev := SeverityWarning
		if j := grammar.EscapedByAll(value); j >= 0 {
			sev, i = SeverityError, j
		}
		d.add(ln.Num, sev, ErrRawByte, "%v", rawByte{ln.Value, value[i], sev})
	}
	if i := bytes.IndexByte(value[:len(value)-1], '$'); i >= 0 {
		d.add(ln.Num, SeverityWarning, ErrDollar,
			"'$' in the middle of %q matches a literal '$': only a '$' at the end of a pattern anchors it", ln.Value)
	}
	if d.patterns.group != d.group {
		d.patterns.start(d.group)
	}
	norm := value // most values are their own normalised pattern
	if grammar.NeedsEscape(value) {
		d.scratch = grammar.AppendEscaped(d.scratch[:0], value)
		norm = d.scratch
	}
	if other := d.patterns.add(norm, ln.Value, ln.Num, allow); other != 0 {
		d.add(ln.Num, SeverityWarning, ErrAllowDisallow,
			"%q is both allowed and disallowed in this group (lines %d and %d): allow wins, so the disallow has no effect",
			ln.Value, other, ln.Num)
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
		d.add(ln.Num, SeverityError, ErrSitemap,
			"sitemap %q is not an absolute http or https URL, so search engines ignore it; write it with scheme and host, such as %q",
			v, lazy(func() string { return suggestSitemap(v) }))
	}
}

// knownOtherKeys are keys that Parse keeps as other lines and that some
// crawlers use; they draw no unknown-key finding.
var knownOtherKeys = []string{
	grammar.CrawlDelayKey, "host", "clean-param", "request-rate", "visit-time", "noindex",
	grammar.ContentSignalKey, grammar.ContentUsageKey,
}

func (d *diagnoser) other(ln *Line, key, value []byte) {
	if d.group < 0 {
		d.rep.Counts.Outside++
	} else {
		d.rep.Counts.Others++
	}
	if d.usageLine(ln, key, value) {
		return
	}
	known := slices.ContainsFunc(knownOtherKeys, func(k string) bool { return grammar.EqualFold(key, k) })
	isDelay := grammar.IsCrawlDelay(key)
	switch {
	case grammar.EqualFold(key, "noindex") || grammar.EqualFold(key, "nofollow"):
		what := strings.ToLower(ln.Key)
		instead := "to keep pages out of search results, send a noindex robots meta tag or X-Robots-Tag header with them, and do not disallow them, or crawlers never see it"
		if what == "nofollow" {
			instead = "put a nofollow robots meta tag on the pages, or rel=\"nofollow\" on the links"
		}
		d.add(ln.Num, SeverityError, ErrNoindex,
			"%s lines in robots.txt are read by no major search engine (Google stopped on 1 September 2019): %s", what, instead)
	case !known && d.quiet():
		d.add(ln.Num, SeverityWarning, ErrUnknownKey, "") // counted only: nothing to format
	case !known:
		k := ln.Key
		d.add(ln.Num, SeverityWarning, ErrUnknownKey, "unknown key %q is ignored%s", k, lazy(func() string {
			if s := nearestKey(k); s != "" {
				return fmt.Sprintf("; did you mean %q?", s)
			}
			return ""
		}))
	case d.group < 0:
		sev := SeverityInfo
		if isDelay {
			sev = SeverityWarning
		}
		d.add(ln.Num, sev, ErrNoGroup,
			"%s line before any user-agent line belongs to no group and is ignored", ln.Key)
	case !isDelay:
	case !validDelay(ln.Value):
		d.add(ln.Num, SeverityWarning, ErrCrawlDelay,
			"crawl-delay %q is ignored: it must be a number of seconds, such as 10 or 0.5", ln.Value)
	case d.groups[d.group].delayLine != 0:
		d.add(ln.Num, SeverityWarning, ErrCrawlDelay,
			"crawl-delay ignored: the group already has one on line %d", d.groups[d.group].delayLine)
	default:
		d.groups[d.group].delayLine = ln.Num
		if !d.delayNoted {
			d.delayNoted = true
			d.add(ln.Num, SeverityInfo, ErrGoogleIgnores,
				"crawl-delay is ignored by Google; Bing, Yandex and other crawlers read it (noted once, at the first crawl-delay line)")
		}
	}
}

func validDelay(value string) bool {
	_, ok := grammar.ParseDelay(value)
	return ok
}

// finish adds what only the whole file tells and sorts the findings.
func (d *diagnoser) finish(r *robotstxt.Robots) {
	if n := len(d.nonUTF8); n > 0 {
		const msg = "line has bytes that are not UTF-8: robots.txt must be UTF-8; in patterns they are read as %%-escapes, elsewhere as they are"
		if n > 1 {
			d.add(d.nonUTF8[0], SeverityWarning, ErrEncoding, msg+" (%d lines have such bytes, this is the first)", n)
		} else {
			d.add(d.nonUTF8[0], SeverityWarning, ErrEncoding, msg)
		}
	}
	for _, g := range d.groups {
		if g.rules > 0 {
			continue
		}
		if g.global && g.nAgents == 1 {
			d.add(g.line, SeverityInfo, ErrEmptyGroup, "group for \"*\" has no allow or disallow rules: it allows everything")
			continue
		}
		d.add(g.line, SeverityWarning, ErrEmptyGroup,
			"group for %s has no allow or disallow rules: these crawlers may fetch everything, and the rules for \"*\" do not apply to them",
			lazy(func() string { return quoteList(g.agents) }))
	}
	d.closed()
	d.usageDisallowed(r)
	d.aiTokens(r)
	c := &d.rep.Counts
	c.Lines = d.lines
	c.Groups = len(d.groups)
	c.Sitemaps = d.sitemaps
	slices.SortStableFunc(d.rep.Findings, func(a, b *Error) int { return a.Line - b.Line })
}

// closed reports a file whose groups for "*" disallow every URL and allow
// none: the site is closed to every crawler that no other group names.
// Google merges the groups for "*", so they are taken together.
func (d *diagnoser) closed() {
	line, rule, opens := 0, "", false
	var named []string // empty for Summarize, which keeps no agents
	nNamed := 0
	for _, g := range d.groups {
		if !g.global {
			named = append(named, g.agents...)
			nNamed += g.nAgents
			continue
		}
		opens = opens || g.opens
		if line == 0 || 0 < g.closeLine && g.closeLine < line {
			line, rule = g.closeLine, g.closeRule
		}
	}
	if line == 0 || opens {
		return
	}
	if nNamed == 0 {
		d.add(line, SeverityWarning, ErrSiteClosed,
			"%q in the group for \"*\" closes the whole site to every crawler: search engines will crawl none of its pages", rule)
		return
	}
	have := "have"
	if nNamed == 1 {
		have = "has"
	}
	d.add(line, SeverityWarning, ErrSiteClosed,
		"%q in the group for \"*\" closes the whole site to every crawler that no other group names: only %s %s rules of their own",
		rule, lazy(func() string { return quoteList(named) }), have)
}

// add records a finding about one line. Findings about single lines of an
// HTML or UTF-16 file are dropped: the file-level one says it all.
// quiet reports whether findings are only counted, or not kept at all:
// a caller on a hot path may then leave out a message's arguments.
func (d *diagnoser) quiet() bool { return d.sum != nil || d.fileLevel }

func (d *diagnoser) add(line int, sev Severity, err error, format string, args ...any) {
	if d.fileLevel {
		return
	}
	d.addFile(line, sev, err, format, args...)
}

// addFile records a finding, or only counts it for Summarize: the message
// is built here and nowhere else, so that Summarize never builds one.
func (d *diagnoser) addFile(line int, sev Severity, err error, format string, args ...any) {
	if d.sum != nil {
		d.sum.add(err, sev)
		return
	}
	d.rep.Findings = append(d.rep.Findings, &Error{Line: line, Severity: sev, Err: err, Msg: fmt.Sprintf(format, args...)})
}

// str returns b, a slice of d.data, as the same bytes of d.text. The lexer
// and split only ever reslice data, so every slice reaches to the end of
// data's capacity and its offset is the difference of capacities. Should
// they ever copy, b is copied too.
func (d *diagnoser) str(b []byte) string {
	off := cap(d.data) - cap(b)
	if off < 0 || off+len(b) > len(d.text) || d.text[off:off+len(b)] != string(b) {
		return string(b)
	}
	return d.text[off : off+len(b)]
}

// matchesAll reports whether a pattern matches every URL: "/", "*", "/*".
func matchesAll(v []byte) bool {
	if len(v) > 0 && v[0] == '/' {
		v = v[1:]
	}
	return len(bytes.Trim(v, "*")) == 0
}
