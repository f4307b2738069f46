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

// groupOf returns the group that decides for a, as crawlers.GroupFor
// answers for a crawler as it documents its behaviour (AdsBot ignores "*"),
// and whether the file names one of a's tokens.
func groupOf(r *robotstxt.Robots, a *Agent) (robotstxt.Group, bool) {
	own := false
	for _, t := range a.Tokens {
		own = own || r.NamesAgent(t)
	}
	g, _ := crawlers.GroupFor(r, a.Tokens)
	return g, own
}

// decide answers one path or URL for a group; a DisallowAll file has no
// groups, and its zero Group still answers.
func decide(r *robotstxt.Robots, g robotstxt.Group, url string) robotstxt.Decision {
	if r.Kind() == robotstxt.DisallowAll {
		return robotstxt.Decision{}
	}
	return g.Decide(url)
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
