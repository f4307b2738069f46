package lint

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/robotstxt-go/robotstxt"
)

// This file holds the public types of [Diagnose]: the causes of findings,
// their severities, and the report on each line. The reading itself is in
// lint.go, the wording of the advice in advice.go, and the checks
// on the whole body (HTML, binary, UTF-16) in detect.go.

// Causes of the findings of [Diagnose]. Match them with [errors.Is].
var (
	ErrNeverMatches  = errors.New("pattern can never match")                       // starts with neither '/' nor '*'
	ErrNoGroup       = errors.New("line before any user-agent line")               // a rule or other line that Parse drops
	ErrAgentReduced  = errors.New("user-agent value reduced to its product token") // "Googlebot/2.1" names Googlebot
	ErrAgentInvalid  = errors.New("user-agent value names no product token")       // "007bot", or empty
	ErrUnknownKey    = errors.New("unknown key")                                   // ignored by every crawler
	ErrDollar        = errors.New("'$' inside a pattern")                          // a literal; only a final '$' anchors
	ErrRawByte       = errors.New("pattern holds a byte crawlers send escaped")    // "/my docs/": sent as /my%20docs/
	ErrCrawlDelay    = errors.New("invalid or repeated crawl-delay")               // not a number, or not the group's first
	ErrEncoding      = errors.New("not UTF-8")                                     // bytes, UTF-16 or binary data
	ErrTooLarge      = errors.New("content past 500 KiB")                          // ignored by Google's crawler
	ErrHTML          = errors.New("HTML page served as robots.txt")                // an error page, a redirect page, or other markup (an XML sitemap)
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
	Num   int    // 1-based
	Text  string // the line as written, without its line break (and without a leading byte order mark)
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
	Robots   *robotstxt.Robots // the file as robotstxt.Parse reads it, from the same pass
	Lines    []Line            // one per line of the file
	Findings ErrorList         // in line order
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
