package lint

import "github.com/robotstxt-go/robotstxt/internal/grammar"

// This file tells, from a report, which user-agent lines decide for an
// agent: the lines a tool highlights to show which group applied.

// AgentLines returns the numbers of the user-agent lines whose groups
// decide for agent, as [robotstxt.Robots.Group] selects them: the lines that name
// agent, compared as in [robotstxt.Robots.Allowed]; or, when none does, the lines that
// name "*", and then global is true. It returns no lines when no group
// applies: every URL is then allowed. The groups are those of the lines'
// [Line.Group].
func (r *Report) AgentLines(agent string) (lines []int, global bool) {
	var star []int
	for _, l := range r.Lines {
		if l.Kind != LineUserAgent {
			continue
		}
		v := []byte(l.Value)
		switch {
		case grammar.IsGlobalAgent(v):
			star = append(star, l.Num)
		case grammar.EqualFold(agent, grammar.AgentToken(v)):
			lines = append(lines, l.Num)
		}
	}
	if len(lines) > 0 {
		return lines, false
	}
	return star, len(star) > 0
}
