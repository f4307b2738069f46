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

// looksLikeHTML reports whether data, from its first non-blank line on,
// is an HTML page: it starts with '<' and an HTML tag is near the start.
func looksLikeHTML(data []byte) bool {
	data = grammar.TrimSpace(data)
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
// body served without Content-Encoding) or an HTML page. It returns nil for
// a body that may be a robots.txt, and otherwise the finding that
// [Diagnose] makes about the whole file, whose cause is [ErrEncoding] or
// [ErrHTML]. It reads the first KiB, and 4 KiB from the first line with
// content, and the whole of a UTF-16 body only to say what it would hold as
// UTF-8; it allocates nothing for a robots.txt (TestNotRobotsAllocs): it
// is what a fetcher asks of every body, where Diagnose is for people.
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
	if start < len(text) && looksLikeHTML(text[start:]) {
		return &Error{Line: lineOf(text[:start]), Severity: SeverityError, Err: ErrHTML, Msg: htmlMessage}
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

const htmlMessage = "this is an HTML page, not a robots.txt: the server answered with a web page (an error page or a redirect) instead of the file"

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
