package audit

import (
	"slices"
	"strings"

	"github.com/robotstxt-go/robotstxt"
)

// questions are what is asked of every capture.
type questions struct {
	agents []Agent
	paths  []string // as given
	asked  []string // as asked (asRecorded)
}

func newQuestions(agents []Agent, paths []string) *questions {
	q := &questions{agents: agents, paths: paths}
	for _, p := range paths {
		q.asked = append(q.asked, asRecorded(p))
	}
	return q
}

// noLint is the lint of a row without findings: an empty list, never
// null, so that every format and every run writes it alike.
var noLint = []Lint{}

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
		Input: c.Input, Offset: c.Offset, InMember: c.InMember, URL: c.URL, Origin: origin, Date: c.Date,
		Status: int32(c.Status), FinalURL: rs.final, FinalStatus: int32(rs.finalStatus), Hops: int32(rs.hops),
		Rules: rulesName(rs.rules), Verdicts: row.Verdicts[:0], Lint: noLint,
	}
	if rs.captures > 0 {
		row.Captures = &rs.captures
	}
	if rs.lint != nil {
		row.LintErrors, row.LintWarnings = &rs.lint.errors, &rs.lint.warnings
		if rs.lint.kinds != nil {
			row.Lint = rs.lint.kinds // not changed by anyone
		}
	}
	// Every agent that the file does not name, that has one token and
	// that obeys "*" is answered by the same group: its answers are
	// worked out for the first such agent and copied for the others.
	var (
		delay  float64
		shared struct {
			done     bool
			label    string
			verdicts []Verdict
			delay    float64
			hasDelay bool
		}
	)
	for i := range q.agents {
		a := &q.agents[i]
		row.Agent, row.Operator, row.Purpose = a.Name(), a.Operator, a.Purpose
		row.Verdicts = row.Verdicts[:0]
		row.CrawlDelay = nil
		row.OwnGroup, row.Documented = false, ""
		if rs.rules == nil {
			row.Label = LabelUnknown
			for _, p := range q.paths {
				row.Verdicts = append(row.Verdicts, Verdict{Path: p})
			}
		} else {
			g, own, documented := groupOf(rs.rules, a)
			row.OwnGroup, row.Documented = own, documented
			// The group is the file's "*" group.
			isShared := len(a.Tokens) == 1 && !own && documented == ""
			if isShared && shared.done {
				row.Label = shared.label
				row.Verdicts = append(row.Verdicts, shared.verdicts...)
				if shared.hasDelay {
					delay = shared.delay
					row.CrawlDelay = &delay
				}
			} else {
				row.Label = label(rs.rules, g)
				for j, p := range q.asked {
					row.Verdicts = append(row.Verdicts, verdict(g, q.paths[j], p))
				}
				if d, ok := g.CrawlDelay(); ok {
					delay = d.Seconds()
					row.CrawlDelay = &delay
				}
				if isShared {
					shared.done, shared.label = true, row.Label
					shared.verdicts = slices.Clone(row.Verdicts)
					shared.delay, shared.hasDelay = delay, row.CrawlDelay != nil
				}
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// usageString writes the Content-Usage preferences a file states, in the
// core's order of categories.
func usageString(u *robotstxt.Usage) string {
	return statedString(u.ContentUsage[:], func(i int) string { return robotstxt.Category(i).String() })
}

// signalString writes the Content-Signal preferences a file states.
func signalString(u *robotstxt.Usage) string {
	return statedString(u.ContentSignal[:], func(i int) string { return robotstxt.Signal(i).String() })
}

// statedString writes "name=y, name=n" for the preferences a file states
// (on a line, as yes or no), in order; name(i) names the i-th. Each value
// is spelt by Pref.String, as robotstxt check spells it.
func statedString(states []robotstxt.Stated, name func(int) string) string {
	var b strings.Builder
	for i, st := range states {
		if st.Line > 0 && (st.Pref == robotstxt.PrefYes || st.Pref == robotstxt.PrefNo) {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(name(i) + "=" + st.Pref.String())
		}
	}
	return b.String()
}

// urlRows answers one URL for every agent.
func (q *questions) urlRows(u, robotsURL string, rs *resolved, row *URLRow, emit func(*URLRow) error) error {
	asked := asRecorded(u)
	for i := range q.agents {
		a := &q.agents[i]
		*row = URLRow{URL: u, RobotsURL: robotsURL, Agent: a.Name(), Rules: RulesUnknown}
		if rs != nil {
			row.Input, row.Offset, row.InMember, row.Status = rs.c.Input, rs.c.Offset, rs.c.InMember, int32(rs.c.Status)
			if rs.captures > 0 {
				row.Captures = &rs.captures
			}
			row.Rules = rulesName(rs.rules)
			if rs.rules != nil {
				g, _, documented := groupOf(rs.rules, a)
				v := verdict(g, u, asked)
				row.Allowed, row.Line, row.Rule = v.Allowed, v.Line, v.Rule
				row.ContentUsage, row.ContentSignal, row.Documented = v.ContentUsage, v.ContentSignal, documented
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}
