package audit

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// EscapeTerminal writes the control characters of s (C0, DEL, C1, and the
// bytes that are not UTF-8) as Go escapes, so that text from a log cannot
// move the cursor, recolour or retitle a terminal.
func EscapeTerminal(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r == utf8.RuneError && n == 1) || r == '\\' {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// WriteLogTable writes the summary as a table for a terminal.
func WriteLogTable(w io.Writer, r *LogResult) error {
	fmt.Fprintf(w, "%-28s %9s %9s %10s %7s %8s %9s %8s %8s %8s\n", "crawler", "requests", "allowed", "violations", "grace",
		"fetches", "no-fetch", "delay", "verified", "forged")
	for _, c := range r.Crawlers {
		fmt.Fprintf(w, "%-28s %9d %9d %10d %7d %8d %9d %8d %8d %8d\n", EscapeTerminal(c.Crawler), c.Requests, c.Allowed, c.Violations,
			c.Grace, c.RobotsFetches, c.NoRobotsFetch, c.CrawlDelayBreach, c.Verified, c.Forged)
	}
	sec := r.Elapsed.Seconds()
	_, err := fmt.Fprintf(w, "%d lines, %d requests of no known crawler (not judged), %d lines that do not parse, %d rows, %.1f MB in %.2fs (%.0f lines/s)\n",
		r.Lines, r.Other, r.Malformed, r.Rows, float64(r.Bytes)/1e6, sec, float64(r.Lines)/sec)
	return err
}
