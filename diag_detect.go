package robotstxt

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
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
