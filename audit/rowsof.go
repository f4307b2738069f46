package audit

import (
	"github.com/robotstxt-go/robotstxt"
)

// questions are what is asked of every capture.
type questions struct {
	agents []Agent
	paths  []string // as given
	asked  []string // as asked: normalised
}

func newQuestions(agents []Agent, paths []string) *questions {
	q := &questions{agents: agents, paths: paths}
	for _, p := range paths {
		q.asked = append(q.asked, robotstxt.NormalizeURL(p))
	}
	return q
}

var (
	yes = true
	no  = false
)

func boolPtr(b bool) *bool {
	if b {
		return &yes
	}
	return &no
}

// rows calls emit with the row of each agent for a capture. The row and its
// slices are reused: emit must not keep them.
func (q *questions) rows(rs *resolved, row *Row, emit func(*Row) error) error {
	c := rs.c
	origin, _ := robotstxt.Origin(c.URL)
	*row = Row{
		Input: c.Input, Offset: c.Offset, URL: c.URL, Origin: origin, Date: c.Date,
		Status: int32(c.Status), FinalURL: rs.final, FinalStatus: int32(rs.finalStatus), Hops: int32(rs.hops),
		Rules: rulesName(rs.rules), Verdicts: row.Verdicts[:0], Lint: row.Lint[:0],
	}
	if rs.lint != nil {
		row.LintErrors, row.LintWarnings = &rs.lint.errors, &rs.lint.warnings
		row.Lint = append(row.Lint, rs.lint.kinds...)
	}
	var delay float64
	globalLabel := "" // the label of the "*" group, shared by every agent the file does not name
	for i := range q.agents {
		a := &q.agents[i]
		row.Agent, row.Operator, row.Purpose = a.Name(), a.Operator, a.Purpose
		row.Verdicts = row.Verdicts[:0]
		row.CrawlDelay = nil
		row.OwnGroup = false
		if rs.rules == nil {
			row.Label = LabelUnknown
			for _, p := range q.paths {
				row.Verdicts = append(row.Verdicts, Verdict{Path: p})
			}
		} else {
			g, own := groupOf(rs.rules, a)
			row.OwnGroup = own
			shared := len(a.Tokens) == 1 && !own && !a.IgnoresGlobal
			switch {
			case shared && globalLabel != "":
				row.Label = globalLabel
			case shared:
				row.Label = label(rs.rules, g)
				globalLabel = row.Label
			default:
				row.Label = label(rs.rules, g)
			}
			for j, p := range q.asked {
				d := decide(rs.rules, g, p)
				row.Verdicts = append(row.Verdicts, Verdict{Path: q.paths[j], Allowed: boolPtr(d.Allowed), Line: int32(d.Line), Rule: d.Rule})
			}
			if d, ok := g.CrawlDelay(); ok {
				delay = d.Seconds()
				row.CrawlDelay = &delay
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// urlRows answers one URL for every agent.
func (q *questions) urlRows(u, robotsURL string, rs *resolved, row *URLRow, emit func(*URLRow) error) error {
	asked := robotstxt.NormalizeURL(u)
	for i := range q.agents {
		a := &q.agents[i]
		*row = URLRow{URL: u, RobotsURL: robotsURL, Agent: a.Name(), Rules: RulesUnknown}
		if rs != nil {
			row.Input, row.Offset, row.Status = rs.c.Input, rs.c.Offset, int32(rs.c.Status)
			row.Rules = rulesName(rs.rules)
			if rs.rules != nil {
				g, _ := groupOf(rs.rules, a)
				d := decide(rs.rules, g, asked)
				row.Allowed, row.Line, row.Rule = boolPtr(d.Allowed), int32(d.Line), d.Rule
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}
