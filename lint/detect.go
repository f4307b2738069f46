package lint

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file tells what kind of body [Diagnose] was given when it is not a
// robots.txt at all: an HTML page, binary data or UTF-16 text.

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

// markup tells what kind of markup document data is, from its first
// non-blank line on, or markupNone. This is the rule for "an HTML page or
// other markup, not a robots.txt", which Diagnose, NotRobots and so every
// caller of NotRobots (fetch, the CLI, the audit) share. data is markup
// when
//
//   - past whitespace and HTML comments ("<!-- ... -->"), it starts with a
//     tag ("<p>", "<html ", "<xsl:stylesheet", "<urlset>"), a DOCTYPE or an
//     XML declaration ("<?xml"); or
//   - it starts with '<' and an HTML page's tag (<html, <head, <body,
//     <title, <meta, <!doctype html) is in its first 4 KiB.
//
// A comment alone is not markup: "<!-- managed by CMS -->" then rules is a
// robots.txt whose first line the parser skips (RFC 9309 §2.3.1.5 has
// crawlers use the rules they can parse), and its rules apply. Nor is a
// '<' that starts no tag: "<Disallow: /x" and "<https://h/sitemap.xml>"
// are lines in error. A document with an XML declaration that is no HTML
// page (a sitemap, a storage service's error) is markupXML; an element
// without one ("<urlset>") is taken for HTML. Only the first 4 KiB are read.
func markup(data []byte) markupKind {
	data = grammar.TrimSpace(data)
	if len(data) == 0 || data[0] != '<' {
		return markupNone
	}
	head := data[:min(len(data), 4096)]
	html := false
	for _, tag := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<meta"} {
		if containsFold(head, tag) {
			html = true
			break
		}
	}
	rest := head
	for {
		rest = grammar.TrimSpace(rest)
		if !bytes.HasPrefix(rest, []byte("<!--")) {
			break
		}
		end := bytes.Index(rest[4:], []byte("-->"))
		if end < 0 {
			rest = nil // a comment that runs past the head: nothing follows it
			break
		}
		rest = rest[4+end+3:]
	}
	switch {
	case html:
		return markupHTML
	case hasPrefixFold(rest, "<?xml"):
		return markupXML
	case hasPrefixFold(rest, "<!doctype") || startsTag(rest):
		return markupHTML
	}
	return markupNone
}

// markupKind is what [markup] finds.
type markupKind uint8

const (
	markupNone markupKind = iota
	markupHTML            // an HTML page, or a fragment of one
	markupXML             // an XML document that is no HTML page
)

// startsTag reports whether b starts with an element's start tag: '<',
// a name (an ASCII letter, then letters, digits, '-', '_', '.', and ':'
// before a letter, as in "xsl:stylesheet"), then '>', '/' or whitespace.
func startsTag(b []byte) bool {
	if len(b) < 3 || b[0] != '<' || !isLetter(b[1]) {
		return false
	}
	for i := 2; i < len(b); i++ {
		switch c := b[i]; {
		case isLetter(c) || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.':
		case c == ':' && i+1 < len(b) && isLetter(b[i+1]):
		default:
			return c == '>' || c == '/' || grammar.IsSpace(c)
		}
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// hasPrefixFold reports whether b starts with the lower-case ASCII prefix,
// in any case.
func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && grammar.EqualFold(b[:len(prefix)], prefix)
}

// containsFold reports whether b holds the lower-case ASCII s, in any
// case, without allocating.
func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if b[i] == '<' && grammar.EqualFold(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}

// looksBinary reports whether the start of data is binary data, not
// text: a gzip or zstd stream (by its magic number, as a compressed
// robots.txt served without Content-Encoding is), or a head of which 3% or
// more are control bytes other than whitespace (at least 16 of them, or a
// tenth of a short head), as in images, random bytes (a tenth of which are
// such bytes) and UTF-16 text without a byte order mark (half). Text has
// next to none: no robots.txt of the corpus has one in its first KiB; a
// few NULs in a text file are reported line by line instead.
func looksBinary(data []byte) bool {
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		return true
	}
	head := data[:min(len(data), 1024)] // random bytes: 108 ± 10 control bytes in 1024
	ctl := 0
	for _, c := range head {
		if c < ' ' && !grammar.IsSpace(c) || c == 0x7f {
			ctl++
		}
	}
	return len(head) >= 16 && (10*ctl > len(head) || ctl >= 16 && 100*ctl >= 3*len(head))
}

// NotRobots tells whether body is no robots.txt at all, from its first
// bytes: UTF-16 text, binary data (an image, random bytes, a compressed
// body served without Content-Encoding), or an HTML page or other markup
// (an XML sitemap, an error in XML). Markup is told by where the body
// starts: past whitespace and HTML comments, a tag, a DOCTYPE or an XML
// declaration; so "<!-- managed by CMS -->" followed by rules is a
// robots.txt, whose first line is skipped, and "<p>hello</p>" is not.
// It returns nil for a body that may be a robots.txt, and otherwise the
// finding that [Diagnose] makes about the whole file, whose cause is
// [ErrEncoding] or [ErrHTML]. It reads the first KiB, and 4 KiB from the
// first line with content, and the whole of a UTF-16 body only to say what
// it would hold as UTF-8; it allocates nothing for a robots.txt
// (TestNotRobotsAllocs): it is what a fetcher asks of every body, where
// Diagnose is for people.
func NotRobots(body []byte) error {
	if cause, msg := fileKind(body); cause != nil {
		return &Error{Line: 1, Severity: SeverityError, Err: cause, Msg: msg}
	}
	// An HTML page shows itself on the first line with content, after a
	// byte order mark (or the part of one the lexer skips) and blank lines,
	// as Diagnose finds it.
	text := body[bomPrefix(body):]
	start := 0
	for start < len(text) && grammar.IsSpace(text[start]) {
		start++
	}
	if k := markup(text[start:]); k != markupNone {
		return &Error{Line: lineOf(text[:start]), Severity: SeverityError, Err: ErrHTML, Msg: k.message()}
	}
	return nil
}

// fileKind returns the cause and message of the finding that data, the
// whole body, is UTF-16 or binary data, or a nil cause.
func fileKind(data []byte) (error, string) {
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return ErrEncoding, "file is UTF-16 (it starts with a UTF-16 byte order mark): robots.txt must be UTF-8, and none of its lines can be read" +
			meantAsUTF16(data[2:], data[0] == 0xfe)
	case looksBinary(data):
		return ErrEncoding, "file is binary data, not text (an image, or a compressed body): none of its lines can be read"
	}
	return nil, ""
}

// message is the finding's message on a body of this kind of markup.
func (k markupKind) message() string {
	if k == markupXML {
		return "this is an XML document, not a robots.txt: the server answered with another file (a sitemap, or an error in XML) instead of the robots.txt"
	}
	return "this is an HTML page, not a robots.txt: the server answered with a web page (an error page or a redirect) instead of the file"
}

// bomPrefix returns the length of the prefix of the UTF-8 byte order mark
// EF BB BF that data starts with, which the lexer skips.
func bomPrefix(data []byte) int {
	const bom = "\xef\xbb\xbf"
	n := 0
	for n < len(bom) && n < len(data) && data[n] == bom[n] {
		n++
	}
	return n
}

// lineOf returns the number of the line that starts after blank, a run of
// whitespace, as the lexer numbers lines: CR, LF and CR LF each end one.
func lineOf(blank []byte) int {
	line := 1
	for i := 0; i < len(blank); i++ {
		switch blank[i] {
		case '\r':
			line++
			if i+1 < len(blank) && blank[i+1] == '\n' {
				i++
			}
		case '\n':
			line++
		}
	}
	return line
}
