package main

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/lint"
)

// This file holds what the commands share about findings and errors: how
// many findings of one kind are shown, which findings check and fetch print
// before their answers, and how a bad URL is explained.

// A kind of finding is its severity and cause: thousands of patterns that
// can never match are one kind.
type findingKind struct {
	sev   lint.Severity
	cause error
}

func kindOf(e *lint.Error) findingKind { return findingKind{e.Severity, e.Err} }

// Findings of a kind beyond summaryOver are summarised: the first
// summaryKeep are shown, then one line with the count and the line range.
const (
	summaryKeep = 5
	summaryOver = 10
)

// shown is one line of findings to print: a finding, or, when more is
// positive, the summary of more findings of e's kind on lines e.Line to
// last.
type shown struct {
	e    *lint.Error
	more int
	last int
}

// summarize returns the findings to show, in line order: all of them when
// all is set, else at most summaryKeep of a kind with more than summaryOver
// findings, followed by a summary where the next one would be.
func summarize(findings lint.ErrorList, all bool) []shown {
	if all {
		return summarizeN(findings, len(findings), len(findings))
	}
	return summarizeN(findings, summaryKeep, summaryOver)
}

// summarizeN returns the findings to show, in line order: all of a kind
// with at most over findings, else the first keep of it followed by a
// summary where the next one would be.
func summarizeN(findings lint.ErrorList, keep, over int) []shown {
	count := map[findingKind]int{}
	last := map[findingKind]int{}
	for _, e := range findings {
		count[kindOf(e)]++
		last[kindOf(e)] = e.Line
	}
	seen := map[findingKind]int{}
	var out []shown
	for _, e := range findings {
		k := kindOf(e)
		seen[k]++
		switch n := seen[k]; {
		case count[k] <= over || n <= keep:
			out = append(out, shown{e: e})
		case n == keep+1:
			out = append(out, shown{e: e, more: count[k] - keep, last: last[k]})
		}
	}
	return out
}

// render formats s as a compiler does, for the file name; hint says how to
// see the findings that a summary leaves out.
func (s shown) render(name, hint string) string {
	if s.more == 0 {
		return s.e.Render(name)
	}
	what := s.e.Severity.String() + "s"
	return fmt.Sprintf("%s:%d: %s: and %d more %s of this kind (%v), on lines %d to %d (%s)",
		name, s.e.Line, s.e.Severity, s.more, what, s.e.Err, s.e.Line, s.last, hint)
}

// json returns s for JSON: a finding, or a summary whose message counts
// the findings left out and names their lines.
func (s shown) json() findingJSON {
	j := findingJSON{s.e.Line, s.e.Severity.String(), s.e.Err.Error(), s.e.Msg, 0, 0}
	if s.more > 0 {
		j.More, j.Last = s.more, s.last
		j.Message = fmt.Sprintf("and %d more %ss of this kind (%v), on lines %d to %d", s.more, s.e.Severity, s.e.Err, s.e.Line, s.last)
	}
	return j
}

// findingsOf returns the findings and summaries to show, for JSON.
func findingsOf(l []shown) []findingJSON {
	out := make([]findingJSON, 0, len(l))
	for _, s := range l {
		out = append(out, s.json())
	}
	return out
}

// unreadable reports whether rep found that the file is no robots.txt at
// all: an HTML page, UTF-16 text or binary data, of which crawlers read no
// rules.
func unreadable(rep *lint.Report) bool {
	for _, e := range rep.Findings {
		if e.Severity == lint.SeverityError && (errors.Is(e, lint.ErrHTML) || errors.Is(e, lint.ErrEncoding)) {
			return true
		}
	}
	return false
}

// answerFindings returns the findings that check and fetch print before
// their answers: the errors, which change what the file means, and content
// past 500 KiB, which crawlers ignore.
func answerFindings(rep *lint.Report) lint.ErrorList {
	var l lint.ErrorList
	for _, e := range rep.Findings {
		if e.Severity == lint.SeverityError || errors.Is(e, lint.ErrTooLarge) {
			l = append(l, e)
		}
	}
	return l
}

// describeURLError explains why a URL has no robots.txt or cannot be
// fetched, without repeating the package's "robotstxt: " prefix, and with
// the URL that was likely meant.
func describeURLError(err error) string {
	var ue *robotstxt.URLError
	if !errors.As(err, &ue) {
		return strings.TrimPrefix(err.Error(), "robotstxt: ")
	}
	switch {
	case errors.Is(err, robotstxt.ErrRelativeURL):
		msg := fmt.Sprintf("%q is not an absolute URL (it has no scheme)", ue.URL)
		if fix := withScheme(ue.URL); fix != "" {
			msg += fmt.Sprintf("; did you mean %q?", fix)
		}
		return msg
	case errors.Is(err, fetch.ErrUnsupportedScheme):
		return fmt.Sprintf("%q: only http and https URLs can be fetched", ue.URL)
	}
	return fmt.Sprintf("%q: %v", ue.URL, ue.Err)
}

// withScheme returns u with a scheme when u starts with a host name, such
// as "localhost:8081/x" or "example.com/page", or "".
func withScheme(u string) string {
	host, _, _ := strings.Cut(u, "/")
	name, port, hasPort := strings.Cut(host, ":")
	if name == "" || strings.Trim(grammar.LowerString(name), "abcdefghijklmnopqrstuvwxyz0123456789.-") != "" ||
		hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return ""
	}
	switch {
	case name == "localhost" || hasPort && !strings.Contains(name, "."):
		return "http://" + u
	case strings.Contains(name, ".") && !strings.HasPrefix(name, ".") && !strings.HasSuffix(name, "."):
		return "https://" + u
	}
	return ""
}

// checkableURL returns an error when u is neither an absolute URL nor a
// path, so that check does not answer for text that is no URL.
func checkableURL(u string) error {
	if strings.HasPrefix(u, "/") {
		return nil
	}
	if _, err := robotstxt.Origin(u); err != nil {
		msg := fmt.Sprintf("%q is neither an absolute URL nor a path starting with '/'", u)
		if fix := withScheme(u); fix != "" {
			msg += fmt.Sprintf("; did you mean %q?", fix)
		}
		return errors.New(msg)
	}
	return nil
}

// networkCause returns the cause of a failed request without the method and
// URL that net/http puts in front of it: the robots.txt URL is shown apart.
func networkCause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return strings.TrimPrefix(err.Error(), "robotstxt: ")
}
