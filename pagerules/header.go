package pagerules

import (
	"net/http"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file reads rule lists: the value of an X-Robots-Tag header line, the
// content of a robots meta tag, and the members of a Robots-Tag field. It
// allocates nothing unless a rule is not understood: the values it keeps
// are slices of the strings it is given.

// MaxFieldBytes is how much of each of the X-Robots-Tag and Robots-Tag
// fields is read, all its lines together. repext §3.1.1 asks for a limit of
// at least 8 KiB and has a rule cut by the limit, and all that follows,
// ignored; the rules before it count.
const MaxFieldBytes = 8 << 10

// AddHeader adds the rules of response header h that apply to agent: those
// of every X-Robots-Tag line, then those of every Robots-Tag line (the name
// draft-illyes-repext gives the field), for every crawler and for agent.
// agent is a product token such as "Googlebot", compared ignoring ASCII
// case; "" or "*" takes only the rules for every crawler. It allocates
// nothing for the values crawlers meet every day.
//
// An X-Robots-Tag line is a comma-separated list of rules; "name:" before a
// rule addresses it, and the rules after it on the line, to the crawler
// name (Google: "X-Robots-Tag: otherbot: noindex, nofollow"). A rule such
// as "max-snippet: 20" or "unavailable_after: 25 Jun 2010 15:00:00 PST" is
// a rule with a value, not an address.
func (r *Rules) AddHeader(h http.Header, agent string) {
	budget := MaxFieldBytes
	for i, v := range h.Values("X-Robots-Tag") {
		v, budget = withinBudget(v, budget)
		r.addList(v, agent, Origin{Source: FromHeader, N: i + 1}, true)
		if budget == 0 {
			break
		}
	}
	budget = MaxFieldBytes
	for i, v := range h.Values("Robots-Tag") {
		v, budget = withinBudget(v, budget)
		r.addRobotsTag(v, agent, i+1)
		if budget == 0 {
			break
		}
	}
}

// withinBudget returns the part of the line v that fits in budget bytes,
// without a list member cut at the limit, and the budget left.
func withinBudget(v string, budget int) (string, int) {
	if len(v) <= budget {
		return v, budget - len(v)
	}
	v = v[:budget]
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		return v[:i], 0
	}
	return "", 0
}

// addList adds the rules of the comma-separated list s that apply to
// agent. o says where s was written; o.Agent is whom the list addresses
// ("" for every crawler). When scoped, "name:" before a rule readdresses it
// and the rest of the list.
func (r *Rules) addList(s, agent string, o Origin, scoped bool) {
	for i := 0; i < len(s); {
		end := nextComma(s, i)
		elem := trimWS(s[i:end])
		if scoped {
			if name, rest, ok := agentPrefix(elem); ok {
				o.Agent = name
				elem = trimWS(rest)
			}
		}
		// An RFC 822 or RFC 850 date starts with a weekday and a comma:
		// "unavailable_after: Saturday, 25-Aug-07 15:00:00 EST".
		if end < len(s) && startsWithWeekday(elem) {
			end = nextComma(s, end+1)
			elem = trimWS(s[i:end])
			if scoped {
				if _, rest, ok := agentPrefix(elem); ok {
					elem = trimWS(rest)
				}
			}
		}
		i = end + 1
		if elem == "" || !addresses(o.Agent, agent) {
			continue
		}
		o.Text = elem
		name, val, hasVal := strings.Cut(elem, ":")
		r.add(trimWS(name), trimWS(val), hasVal, o)
	}
}

// addresses reports whether rules addressed to name apply to agent.
func addresses(name, agent string) bool {
	return name == "" || grammar.EqualFold(name, agent)
}

// nextComma returns the index of the first comma in s at or after i, or
// len(s).
func nextComma(s string, i int) int {
	if j := strings.IndexByte(s[i:], ','); j >= 0 {
		return i + j
	}
	return len(s)
}

// agentPrefix splits "googlebot: noindex" into the crawler's name and the
// rest. A rule name before the colon ("max-snippet: 20") is no crawler.
func agentPrefix(elem string) (name, rest string, ok bool) {
	name, rest, ok = strings.Cut(elem, ":")
	if !ok {
		return "", "", false
	}
	name = trimWS(name)
	if !robotstxt.ValidAgent(name) || isRuleName(name) {
		return "", "", false
	}
	return name, rest, true
}

// isRuleName reports whether name is a rule this package knows.
func isRuleName(name string) bool {
	if isDefault(name) || grammar.EqualFold(name, "none") {
		return true
	}
	_, ok := ruleNamed(name)
	return ok
}

// isDefault reports whether name is a rule that states the default: "all"
// (Google's), "index" or "follow" (the 1996 tags', which Google reads the
// same).
func isDefault(name string) bool {
	return grammar.EqualFold(name, "all") || grammar.EqualFold(name, "index") || grammar.EqualFold(name, "follow")
}

// ruleNamed returns the rule called name, ignoring ASCII case.
func ruleNamed(name string) (Rule, bool) {
	for x, n := range ruleNames {
		if grammar.EqualFold(n, name) {
			return Rule(x), true
		}
	}
	return 0, false
}

// startsWithWeekday reports whether elem is "unavailable_after: Day" with a
// day name and nothing after it: a date that goes on past the comma.
func startsWithWeekday(elem string) bool {
	i := strings.IndexByte(elem, ':')
	if i < 0 || !grammar.EqualFold(trimWS(elem[:i]), ruleNames[UnavailableAfter]) {
		// "googlebot: unavailable_after: Monday" has the rule after the name.
		_, rest, ok := agentPrefix(elem)
		if !ok {
			return false
		}
		return startsWithWeekday(trimWS(rest))
	}
	_, ok := weekday(trimWS(elem[i+1:]))
	return ok
}

// add states the rule name, with val when hasVal, written at o; a rule not
// understood goes to r.Unknown.
func (r *Rules) add(name, val string, hasVal bool, o Origin) {
	if !hasVal {
		switch {
		case isDefault(name):
			return // the defaults state nothing
		case grammar.EqualFold(name, "none"):
			r.state(NoIndex, value{}, o)
			r.state(NoFollow, value{}, o)
			return
		}
	}
	x, ok := ruleNamed(name)
	if !ok || hasVal != (x >= MaxSnippet) {
		r.unknown(o)
		return
	}
	var v value
	switch x {
	case MaxSnippet, MaxVideoPreview:
		v.n, ok = limit(val)
	case MaxImagePreview:
		v.p, ok = preview(val)
	case UnavailableAfter:
		v.t, ok = parseDate(val)
	}
	if !ok {
		r.unknown(o)
		return
	}
	r.state(x, v, o)
}

// MaxUnknown is how many rules that are not understood [Rules] keeps: a
// page of a million commas must not cost a million entries.
const MaxUnknown = 64

func (r *Rules) unknown(o Origin) {
	if len(r.Unknown) < MaxUnknown {
		r.Unknown = append(r.Unknown, Unknown{Origin: o})
	}
}

// limit parses the value of max-snippet or max-video-preview: a number of
// characters or seconds, or -1 for no limit. A number too large for an
// int32 is no limit either.
func limit(s string) (int, bool) {
	if s == "-1" {
		return -1, true
	}
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < 1<<31 {
			n = n*10 + int(c-'0')
		}
	}
	if n >= 1<<31 {
		return -1, true
	}
	return n, true
}

// preview parses the value of max-image-preview, ignoring ASCII case.
func preview(s string) (Preview, bool) {
	for p := PreviewNone; p <= PreviewLarge; p++ {
		if grammar.EqualFold(s, previewNames[p]) {
			return p, true
		}
	}
	return 0, false
}

// trimWS trims the white space around s: the SP and HTAB of a header
// (RFC 9110 §5.6.3), and the CR, LF and FF an HTML attribute may hold.
func trimWS(s string) string {
	for len(s) > 0 && isWS(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' }
