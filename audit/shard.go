package audit

import (
	"context"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/redirect"
	"github.com/robotstxt-go/robotstxt/lint"
)

// targetBudget is how many body bytes of redirect targets a worker keeps
// parsed at once; more take further passes over the input.
const targetBudget = 64 << 20

// resolved is a robots.txt capture with the rules it stands for. A direct
// capture (not a redirect) is emitted before its rules are read: its rules
// are FromStatus of its own status and body (see read), which the workers
// of Run compute in parallel.
type resolved struct {
	direct      bool
	c           *Capture
	final       string // where a redirect chain ended, or ""
	finalStatus int
	hops        int
	rules       *robotstxt.Robots // nil: unknown
	lint        *lintCounts       // nil unless the rules were parsed from a body
	captures    int32             // captures of the origin in the inputs, 0 when not counted
}

type lintCounts struct {
	kinds            []Lint
	errors, warnings int32
}

// lintOf turns a Summary into the lint counts of a row: by cause and
// severity, in the order of the cause's text, then of the severity's name.
func lintOf(s lint.Summary) *lintCounts {
	lc := &lintCounts{errors: int32(s.Errors), warnings: int32(s.Warnings)}
	if len(s.Findings) == 0 {
		return lc
	}
	lc.kinds = make([]Lint, len(s.Findings))
	for i, f := range s.Findings {
		kind := "other"
		if f.Err != nil {
			kind = f.Err.Error()
		}
		lc.kinds[i] = Lint{Kind: kind, Severity: f.Severity.String(), Count: int32(f.Count)}
	}
	sort.Slice(lc.kinds, func(i, j int) bool {
		if lc.kinds[i].Kind != lc.kinds[j].Kind {
			return lc.kinds[i].Kind < lc.kinds[j].Kind
		}
		return lc.kinds[i].Severity < lc.kinds[j].Severity
	})
	return lc
}

// rulesOf reads a capture as RFC 9309 §2.3.1 says (FromStatus), with lint
// counts for a parsed body. A body that is parsed is read once for both.
func rulesOf(c *Capture, withLint bool) (*robotstxt.Robots, *lintCounts) {
	if withLint && robotstxt.FromStatus(c.Status, nil).Kind() == robotstxt.Parsed {
		r, s := lint.ParseWithSummary(c.Body)
		return r, lintOf(s)
	}
	return robotstxt.FromStatus(c.Status, c.Body), nil
}

// read computes the rules of a direct capture.
func (rs *resolved) read(lint bool) {
	if rs.direct {
		rs.rules, rs.lint = rulesOf(rs.c, lint)
		rs.direct = false
	}
}

// isRedirect reports whether a capture is a redirect the chain follows, as
// package fetch follows it (redirect.Follows): 300, 304 and the other 3xx
// codes that net/http does not follow are answers.
func isRedirect(status int) bool { return redirect.Follows(status) }

type hop struct {
	loc    string // urlKey of the Location, "" when there is none
	status int
}

// scanShard reads one input as rd says and calls emit for each robots.txt
// capture whose URL want accepts (all when want is nil): first the
// captures that are not redirects in record order (direct: unless the
// capture is its own, the body is the reader's until emit returns), then
// the redirects, resolved.
func scanShard(ctx context.Context, name string, count *atomic.Int64, rd reading, want func(string) bool, lint bool, emit func(*resolved), report func(Problem)) error {
	hops := map[string]hop{}
	var sources []*Capture
	note := func(c *Capture) {
		if c.Oversize {
			report(Problem{Input: c.Input, Offset: c.Offset, Kind: ProblemOversize, Detail: "body longer than " + strconv.Itoa(maxBody) + " bytes; answered on the first " + strconv.Itoa(maxBody)})
		}
		if p, ok := bodyNote(c); ok {
			report(p)
		}
	}
	err := scanInput(ctx, name, count, rd, nil, func(c *Capture) {
		robots := isRobotsURL(c.URL)
		if isRedirect(c.Status) {
			if _, ok := hops[c.URL]; !ok {
				loc, _ := resolveLocation(c.URL, c.Location)
				hops[c.URL] = hop{loc: loc, status: c.Status}
			}
			if robots && (want == nil || want(c.URL)) {
				s := *c
				s.Body = nil
				sources = append(sources, &s)
			}
			return
		}
		if !robots || want != nil && !want(c.URL) {
			return
		}
		note(c)
		emit(&resolved{c: c, direct: true, finalStatus: c.Status})
	}, report)
	if err != nil || len(sources) == 0 {
		return err
	}

	// Follow each redirect through the table to a URL that is not a
	// redirect (or a dead end), then look those URLs up in further passes.
	out := make([]*resolved, len(sources))
	pending := map[string][]int{} // terminal URL -> sources
	for i, s := range sources {
		rs := &resolved{c: s}
		out[i] = rs
		cur := s.URL
		for {
			h, ok := hops[cur]
			if !ok {
				pending[cur] = append(pending[cur], i)
				rs.final = cur
				break
			}
			if h.loc == "" { // a redirect without a usable Location
				rs.final, rs.finalStatus, rs.rules = cur, h.status, robotstxt.FromStatus(h.status, nil)
				break
			}
			if status, past := redirect.Past(rs.hops + 1); past { // one redirect too many
				rs.final, rs.finalStatus, rs.rules = cur, h.status, robotstxt.FromStatus(status, nil)
				break
			}
			rs.hops++
			cur = h.loc
		}
	}
	done := make([]bool, len(out))
	flush := func() {
		for i, rs := range out {
			if !done[i] && (rs.rules != nil || rs.finalStatus == -1) {
				if rs.finalStatus == -1 {
					rs.finalStatus = 0 // not captured
				}
				done[i] = true
				emit(rs)
			}
		}
	}
	flush()
	for len(pending) > 0 {
		seen := map[string]bool{}
		used := 0
		// want is called by the readers while emit changes pending: it
		// reads a copy of pending's keys.
		targets := make(map[string]bool, len(pending))
		for k := range pending {
			targets[k] = true
		}
		err := scanInput(ctx, name, nil, rd, func(k string) bool { return targets[k] }, func(c *Capture) {
			if seen[c.URL] || isRedirect(c.Status) {
				return
			}
			seen[c.URL] = true
			if used > 0 && used+len(c.Body) > targetBudget {
				return // next pass
			}
			used += len(c.Body)
			r, lc := rulesOf(c, lint)
			for _, i := range pending[c.URL] {
				out[i].finalStatus, out[i].rules, out[i].lint = c.Status, r, lc
			}
			delete(pending, c.URL)
		}, func(Problem) {}) // problems were reported by the first pass
		if err != nil {
			return err
		}
		for k, idx := range pending {
			if !seen[k] { // not captured in this input
				for _, i := range idx {
					out[i].finalStatus = -1
				}
				delete(pending, k)
			}
		}
		flush()
	}
	return nil
}
