package lint

import (
	"slices"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file tells, from a report, which user-agent lines decide for an
// agent: the lines a tool highlights to show which group applied.

// AgentLines returns the numbers of the user-agent lines whose groups
// decide for agent, as [robotstxt.Robots.Group] selects them: the lines that name
// agent, compared as in [robotstxt.Robots.Allowed]; or, when none does, the lines that
// name "*", and then global is true. It returns no lines when no group
// applies: every URL is then allowed. The groups are those of the lines'
// [Line.Group], and the parsed file [Report.Robots] chooses them
// ([robotstxt.Group.Numbers]); a Report without it has none.
func (r *Report) AgentLines(agent string) (lines []int, global bool) {
	groups := r.Robots.Group(agent).Numbers()
	global = len(groups) > 0 && !r.Robots.NamesAgent(agent)
	for _, l := range r.Lines {
		if l.Kind != LineUserAgent {
			continue
		}
		if _, in := slices.BinarySearch(groups, l.Group); !in {
			continue
		}
		// Of the lines of those groups, the ones that name what chose
		// them: "*", or agent (a line for "*" names no token, not even
		// the empty one).
		v := []byte(l.Value)
		if star := grammar.IsGlobalAgent(v); star == global && (star || grammar.EqualFold(agent, grammar.AgentToken(v))) {
			lines = append(lines, l.Num)
		}
	}
	return lines, global
}
