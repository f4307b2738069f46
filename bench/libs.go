package main

import (
	"net/url"

	"github.com/jimsmart/grobotstxt"
	"github.com/robotstxt-go/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

// question is one Allowed question: an agent and an absolute URL.
type question struct {
	agent, url string
	path       string // the path and query of url, cut beforehand (pass.go sets it); empty until then
	want       bool   // the reference parser's answer, when known
	known      bool
}

// newQuestion builds a question.
func newQuestion(agent, rawURL string, want bool) question {
	return question{agent: agent, url: rawURL, want: want, known: true}
}

// requestURI returns the path and query of rawURL the way a caller of a
// path-based API takes them: with net/url.
func requestURI(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return u.RequestURI()
	}
	return "/"
}

// library adapts one robots.txt library to the measurements: each is called
// through its natural API for "parse a file" and "may this agent fetch this
// URL".
type library struct {
	name string

	// parse parses a file into the object the library keeps. It is nil for
	// a library without a separate parse step.
	parse func(data []byte) (any, error)

	// open prepares a file for questions (untimed) and returns the object
	// the library keeps for it (nil for a library that keeps none) and the
	// function that answers one question (timed).
	open func(data []byte) (any, func(q *question) bool, error)

	// openPath is open for a library whose natural API takes a path: the
	// function it returns answers with the question's path, cut from its
	// URL beforehand (q.path), as a crawler that holds a parsed URL calls
	// it. Nil for the libraries that take a URL.
	openPath func(data []byte) (any, func(q *question) bool, error)
}

// Results of timed calls go to package-level sinks so that they are kept.
var (
	sinkBool bool
	sinkAny  any
)

var ours = library{
	name: "ours",
	parse: func(data []byte) (any, error) {
		return oursParse(data), nil
	},
	open: func(data []byte) (any, func(q *question) bool, error) {
		r := robotstxt.Parse(data)
		return r, func(q *question) bool { return r.Allowed(q.agent, q.url) }, nil
	},
}

// temotoLib is github.com/temoto/robotstxt: FromBytes, then TestAgent, which
// takes a path (not a URL) and the agent. The questions are absolute URLs, as
// a crawler has them, so the timed call takes the path from the URL with
// net/url first, as a caller of TestAgent must; openPath instead takes the
// path cut beforehand, for the pass's second temoto column. FromBytes returns an error
// (and no rules) for some files; those files are left out of its query and
// heap measurements.
var temotoLib = library{
	name: "temoto",
	parse: func(data []byte) (any, error) {
		return temoto.FromBytes(data)
	},
	open: func(data []byte) (any, func(q *question) bool, error) {
		r, err := temoto.FromBytes(data)
		if err != nil {
			return nil, nil, err
		}
		return r, func(q *question) bool { return r.TestAgent(requestURI(q.url), q.agent) }, nil
	},
	openPath: func(data []byte) (any, func(q *question) bool, error) {
		r, err := temoto.FromBytes(data)
		if err != nil {
			return nil, nil, err
		}
		return r, func(q *question) bool { return r.TestAgent(q.path, q.agent) }, nil
	},
}

// oursParse is ours's whole parse, what the parse rows time: Parse, and
// for a file whose compile Parse defers to its queries (at most 4 KiB, see
// the package documentation), the compile that a first Group makes;
// NoGroup does nothing else. The small-file rows time Parse and Allowed as
// a crawler calls them.
func oursParse(data []byte) *robotstxt.Robots {
	r := robotstxt.Parse(data)
	r.NoGroup()
	return r
}

// grobotstxtLib is github.com/jimsmart/grobotstxt, a port of Google's
// parser: AgentAllowed parses the whole body on every call, so it has no
// parsed object and no separate parse cost.
var grobotstxtLib = library{
	name: "grobotstxt",
	open: func(data []byte) (any, func(q *question) bool, error) {
		body := string(data)
		return nil, func(q *question) bool { return grobotstxt.AgentAllowed(body, q.agent, q.url) }, nil
	},
}

var libraries = []*library{&temotoLib, &grobotstxtLib, &ours}
