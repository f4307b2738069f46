package audit

import (
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// The labels of a capture × agent; see the package documentation.
const (
	LabelFull    = "full"
	LabelPartial = "partial"
	LabelNone    = "none"
	LabelUnknown = "unknown"
)

// The rules a capture resolves to.
const (
	RulesParsed      = "parsed"
	RulesAllowAll    = "allow-all"
	RulesDisallowAll = "disallow-all"
	RulesUnknown     = "unknown"
)

// rulesName names a Robots' kind; nil is unknown.
func rulesName(r *robotstxt.Robots) string {
	if r == nil {
		return RulesUnknown
	}
	switch r.Kind() {
	case robotstxt.AllowAll:
		return RulesAllowAll
	case robotstxt.DisallowAll:
		return RulesDisallowAll
	}
	return RulesParsed
}

// groupOf returns the group that decides for a, as its operator documents
// it: a crawler of package crawlers' table through Crawler.Group
// (Googlebot-Image obeys Googlebot's group when none names it, AdsBot
// ignores "*"), several tokens through crawlers.GroupFor, any other token
// through the core's Group. own reports whether the file names one of a's
// tokens; documented is "" when the group is the one the core selects for
// a's tokens alone, else how it differs ("obeys Googlebot", "ignores *").
func groupOf(r *robotstxt.Robots, a *Agent) (g robotstxt.Group, own bool, documented string) {
	for _, t := range a.Tokens {
		own = own || r.NamesAgent(t)
	}
	switch {
	case a.crawler != nil:
		// Follows is asked once, and its token selects the group as
		// Crawler.Group selects it (TestGroupOfIsCrawlersGroup).
		f := a.crawler.Follows(r)
		g = crawlers.GroupOf(r, f)
		switch f {
		case a.crawler.Token:
		case "":
			documented = "ignores *"
		default:
			documented = "obeys " + f
		}
	case len(a.Tokens) == 1:
		g = r.Group(a.Tokens[0])
	default:
		var note string
		g, note = crawlers.GroupFor(r, a.Tokens)
		if note != "" {
			documented = "ignores *"
		}
	}
	return g, own, documented
}

// verdict answers one path or URL, asked in the form given, for a group.
func verdict(g robotstxt.Group, path, asked string) Verdict {
	u := g.Usage(asked)
	d := u.Decision
	return Verdict{Path: path, Allowed: boolPtr(d.Allowed), Line: int32(d.Line), Rule: d.Rule,
		ContentUsage: usageString(&u), ContentSignal: signalString(&u)}
}

// witnesses returns the paths that stand for a rule's pattern in the label:
// the pattern with '*' and a final '$' removed ("/" when nothing is left),
// and the same followed by "~".
func witnesses(pattern string) [2]string {
	w := strings.TrimSuffix(pattern, "$")
	w = strings.ReplaceAll(w, "*", "")
	if w == "" || w[0] != '/' {
		w = "/" + w
	}
	return [2]string{w, w + "~"}
}

// label computes the label of a group as the package documentation
// defines it.
func label(r *robotstxt.Robots, g robotstxt.Group) string {
	if r == nil {
		return LabelUnknown
	}
	switch r.Kind() {
	case robotstxt.DisallowAll:
		return LabelFull
	case robotstxt.AllowAll:
		return LabelNone
	}
	root := witnesses("/")
	full := !g.Decide(root[0]).Allowed && !g.Decide(root[1]).Allowed
	none := g.Decide(root[0]).Allowed
	for _, ru := range g.Rules() {
		if ru.Allow && !full || !ru.Allow && !none {
			continue // this rule can no longer change the label
		}
		for _, w := range witnesses(ru.Pattern) {
			allowed := g.Decide(w).Allowed
			if ru.Allow && allowed {
				full = false // an Allow rule opens something
			}
			if !ru.Allow && !allowed {
				none = false // a Disallow rule keeps something out
			}
		}
		if !full && !none {
			break
		}
	}
	switch {
	case full:
		return LabelFull
	case none:
		return LabelNone
	}
	return LabelPartial
}
