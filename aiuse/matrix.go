package aiuse

import (
	"strconv"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// Matrix is a site's AI access matrix for one URL: an answer for every
// operator of the crawler table that documents a use, and every use.
type Matrix struct {
	URL       string
	Operators []string
	Uses      []crawlers.Use
	// Cells holds the answers by operator, then by use, in the order of
	// Operators and Uses.
	Cells [][]Answer
}

// memoRoom is the room a matrix keeps for the facts of its tokens: more
// than the table's tokens that govern a use or fetch for one
// (TestMemoRoom).
const memoRoom = 32

// Matrix answers every operator and use for url (see [Site.Ask]).
func (s *Site) Matrix(url string) Matrix {
	var m Matrix
	s.MatrixInto(&m, url)
	return m
}

// MatrixInto is Matrix writing into m, whose cells it reuses when m was
// filled before: a tool that answers many URLs allocates its matrix once.
// After the first call, it allocates nothing.
func (s *Site) MatrixInto(m *Matrix, url string) {
	uses := crawlers.Uses
	if m.Cells == nil {
		ops := crawlers.UseOperators()
		m.Operators = ops
		m.Cells = make([][]Answer, len(ops))
		cells := make([]Answer, len(ops)*len(uses))
		for i := range m.Cells {
			m.Cells[i] = cells[i*len(uses) : (i+1)*len(uses)]
		}
	}
	m.URL, m.Uses = url, uses
	var buf [memoRoom]facts
	mm := memo{facts: buf[:0]}
	for i, op := range m.Operators {
		for j, u := range m.Uses {
			m.Cells[i][j] = s.ask(op, u, url, &mm)
		}
	}
}

// String describes the signal in one line, as "robots.txt line 4
// (Google-Extended): Disallow: /" or "Content-Signal header: use=reference
// (index the content, quote excerpts and link back)". Text from the site
// is quoted by the caller that prints it to a terminal.
func (s Signal) String() string {
	out := s.Kind.String()
	if s.Line > 0 {
		out += " line " + strconv.Itoa(int(s.Line))
	}
	if s.Kind == PageRobotsRules {
		out += " " + s.Label
	}
	if s.Token != "" {
		out += " (" + s.Token + ")"
	}
	switch {
	case s.Use != robotstxt.UseUnstated:
		return out + ": use=" + s.Use.String() + " (" + s.Use.Meaning() + ")"
	case s.Kind == RobotsRules && s.Line == 0 && s.Says == NotStated:
		return out + ": no rule matches"
	case s.Kind == RobotsRules && s.Line == 0:
		return out + ": " + s.Says.String()
	case s.Kind == RobotsRules && s.Allow:
		return out + ": Allow: " + s.Label
	case s.Kind == RobotsRules:
		return out + ": Disallow: " + s.Label
	case s.Kind == PageRobotsRules:
		return out + ": noindex"
	case s.Kind == ContentUsageLine || s.Kind == ContentUsageHeader:
		return out + ": " + s.Label + "=" + s.Says.word("y", "n")
	case s.Kind == ContentSignalLine || s.Kind == ContentSignalHeader:
		return out + ": " + s.Label + "=" + s.Says.word("yes", "no")
	}
	return out + ": " + s.Says.String()
}

// word returns yes for Allowed, no for NotAllowed, else the verdict's
// name: a preference as its vocabulary writes it.
func (v Verdict) word(yes, no string) string {
	switch v {
	case Allowed:
		return yes
	case NotAllowed:
		return no
	}
	return v.String()
}
