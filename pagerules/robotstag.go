package pagerules

import (
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file reads the Robots-Tag field of draft-illyes-repext §3.1.1: a
// Structured Field List whose members are product tokens, or "*" for every
// crawler, each with its rules as Parameters:
//
//	Robots-Tag: *;nosnippet, ExampleBot;noindex
//
// gives every crawler nosnippet, and ExampleBot noindex as well. A rule
// with a value is written "max-snippet=20" or, with a String,
// unavailable_after="25 Jun 2010 15:00:00 PST". The reader is lenient as
// the rest of the package is: a member it cannot read is skipped, and its
// rules are not applied.

// addRobotsTag adds the rules of the Robots-Tag line v (the n-th) that
// apply to agent.
func (r *Rules) addRobotsTag(v, agent string, n int) {
	for i := 0; i < len(v); {
		end := nextOutsideQuotes(v, i, ',')
		r.addRobotsTagMember(trimWS(v[i:end]), agent, n)
		i = end + 1
	}
}

// addRobotsTagMember adds the rules of one List member.
func (r *Rules) addRobotsTagMember(m, agent string, n int) {
	end := nextOutsideQuotes(m, 0, ';')
	item := unquote(trimWS(m[:end]))
	if item == "" {
		return
	}
	o := Origin{Source: FromRobotsTag, N: n}
	if item != "*" {
		if !robotstxt.ValidAgent(item) || !grammar.EqualFold(item, agent) {
			return
		}
		o.Agent = item
	}
	for i := end + 1; i < len(m); {
		e := nextOutsideQuotes(m, i, ';')
		param := trimWS(m[i:e])
		i = e + 1
		if param == "" {
			continue
		}
		key, val, hasVal := strings.Cut(param, "=")
		key, val = trimWS(key), trimWS(val)
		switch {
		case hasVal && val == "?1": // Boolean true, the same as no value
			hasVal = false
		case hasVal && val == "?0": // Boolean false states nothing
			continue
		}
		o.Text = param
		r.add(key, unquote(val), hasVal, o)
	}
}

// nextOutsideQuotes returns the index of the first sep in s at or after i
// that is not inside a String ("..." with \" escapes), or len(s).
func nextOutsideQuotes(s string, i int, sep byte) int {
	quoted := false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == sep:
			return i
		}
	}
	return len(s)
}

// unquote returns the content of the String s, or s when it is no String.
// Escapes are left in: no rule value needs them.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}
