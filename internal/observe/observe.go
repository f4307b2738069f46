// Package observe is the parser's line seam: package robotstxt's one loop
// over the lines of a file reports each line, as it handles it, to an
// optional Observer. Package lint is built on it, as Google's
// reporting_robots is built on its parser's handler. Parse never observes
// (its loop tests for an observer once a line and finds none); the
// functions below run the same loop with one.
//
// The package holds no parsing of its own. Its function variables are set
// by package robotstxt when it is initialised, so that the core exports
// nothing for its diagnostics; a package that imports package robotstxt
// (as lint does) finds them set.
package observe

import "github.com/robotstxt-go/robotstxt/internal/grammar"

// Line is one line of a file as the parser handled it. It is valid only
// during the call to [Observer.Line]; its slices point into the data given
// to the parse.
type Line struct {
	Num   int    // 1-based
	Start int    // offset of the line's first byte in the data
	Raw   []byte // the line as the lexer cut it, without its line break

	// Key and Value are the line's key and value, trimmed and without the
	// comment; nil when the line holds no key (Did is NoKey).
	Key, Value []byte
	Kind       grammar.Key // what the key was recognised as
	Typo       bool        // recognised through a misspelling Google's parser accepts
	Flags      Flags       // what the lexer did to the line

	Did   Did // what the parser kept of the line
	Group int // 0-based index of the parser's current group after the line, -1 before the first
}

// Flags describe what the lexer did to a line.
type Flags uint8

const (
	Truncated Flags = 1 << iota // longer than the 16,663 bytes kept; the rest was dropped
	NUL                         // a NUL byte ended the content
	Comment                     // a '#' started a comment
	NoColon                     // key and value were separated by whitespace
	Ignored                     // no key and value could be found
)

// Did is what the parser kept of a line.
type Did uint8

const (
	NoKey       Did = iota // a blank line, a comment, or text that is not a key and value
	Dropped                // a key and value the parser keeps nothing of
	OpenedGroup            // a User-agent line that started a group
	JoinedGroup            // a User-agent line that joined the group its run of User-agent lines started
	Kept                   // a rule, sitemap or other line kept in the parsed file
)

// Observer watches the lines of a parse.
type Observer interface {
	Line(*Line)
}

// Parse parses data as robotstxt.Parse does, in the same loop, reporting
// every line to o, and returns the *robotstxt.Robots.
var Parse func(data []byte, o Observer) any

// UsageLines calls f, in line order, for each Content-Usage and
// Content-Signal line that r (a *robotstxt.Robots) keeps in a group (not
// those before the first group), with its 0-based group, its path pattern
// as stored (normalised, without a final '$') and whether it is a
// Content-Signal line.
var UsageLines func(r any, f func(line, group int, pattern string, signal bool))

// DecideInGroup answers for url as the rules of group of r (a
// *robotstxt.Robots) alone would: whether it is allowed, and the deciding
// line.
var DecideInGroup func(r any, group int, url string) (allowed bool, line int)

// MaxFileLen is the number of bytes of the data that a parse reads (see
// robotstxt.Parse); the rest is not looked at.
const MaxFileLen = 256 << 20

// MatchPath returns what robotstxt.Allowed matches of rawURL: its path,
// params and query.
var MatchPath func(rawURL string) string
