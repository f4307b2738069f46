package audit

import (
	"net/netip"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file judges the requests of an access log against a site's robots.txt
// history: which crawler sent a request, and whether the robots.txt it could
// hold allowed it.

// Identifier says whether a request that claims to come from a crawler does.
// It is called for each request whose User-Agent names a known crawler, from
// several goroutines at once, so it must be safe for concurrent use (and
// should cache: a log holds many requests from one address). The verdict is
// one of the Identity constants, or "" when it cannot tell (counted as
// unknown). Without an Identifier, identity is not checked.
// [VerifierIdentifier] makes a *verify.Verifier one.
type Identifier interface {
	Identify(ip netip.Addr, userAgent string, t time.Time) string
}

// IdentifierFunc is a function that is an Identifier.
type IdentifierFunc func(ip netip.Addr, userAgent string, t time.Time) string

// Identify calls f.
func (f IdentifierFunc) Identify(ip netip.Addr, userAgent string, t time.Time) string {
	return f(ip, userAgent, t)
}

// Identity verdicts. A request whose verdict is IdentityForged is counted
// under "forged NAME" (its own crawler in the summary), not under the
// crawler it claims to be.
const (
	IdentityVerified     = "verified"     // a method the crawler's operator documents matched
	IdentityForged       = "forged"       // every method the operator documents was checked, and none matched
	IdentityUnknown      = "unknown"      // none matched and one could not be checked (offline, a DNS failure)
	IdentityUnverifiable = "unverifiable" // the operator publishes no way to check
	IdentityUnclaimed    = "unclaimed"    // the request claims no crawler the verifier knows
)

// The verdicts of a judged request.
const (
	VerdictAllowed   = "allowed"   // the version live at its time allows it
	VerdictGrace     = "grace"     // the version live now disallows it, a version in force in the last 24 h allows it
	VerdictViolation = "violation" // every version in force disallows it
)

// logJudge holds what judging needs: the history, the crawlers, and each
// version's group and Crawl-delay for each crawler.
type logJudge struct {
	hist    *RobotsHistory
	agents  []Agent
	groups  [][]robotstxt.Group // [version][agent]
	delays  [][]int64           // [version][agent] Crawl-delay in nanoseconds, -1 for none
	byToken map[string]int32    // lower-case token → agent
	listed  []listedName        // names that are no product token, matched in the User-Agent
	fetch   []int32             // agent → the agent whose robots.txt fetch it shares
	id      Identifier
}

type listedName struct {
	lower string
	agent int32
}

// googleOperator is the operator whose crawlers share one robots.txt fetch
// in this audit (see newLogJudge).
const googleOperator = "Google"

// newLogJudge prepares the judging of requests from agents against h.
//
// The robots.txt fetch a request is checked against is shared by the
// crawlers of package crawlers' table run by Google: they are clients of
// one crawling infrastructure (https://developers.google.com/crawling/docs/crawlers-fetchers/overview-google-crawlers),
// and a request by Googlebot-Image after a robots.txt fetch by Googlebot is
// not counted as one without a fetch. Every other crawler has its own.
func newLogJudge(h *RobotsHistory, agents []Agent, id Identifier) *logJudge {
	j := &logJudge{hist: h, agents: agents, byToken: map[string]int32{}, id: id}
	firstGoogle := int32(-1)
	for i := range agents {
		a := &agents[i]
		ai := int32(i)
		for _, t := range a.Tokens {
			k := grammar.LowerString(t)
			if _, ok := j.byToken[k]; !ok {
				j.byToken[k] = ai
			}
		}
		if a.Listed != "" {
			j.listed = append(j.listed, listedName{grammar.LowerString(a.Listed), ai})
		}
		f := ai
		if a.crawler != nil && a.crawler.Operator == googleOperator {
			if firstGoogle < 0 {
				firstGoogle = ai
			}
			f = firstGoogle
		}
		j.fetch = append(j.fetch, f)
	}
	for vi := range h.Versions {
		r := h.Versions[vi].Rules
		gs := make([]robotstxt.Group, len(agents))
		ds := make([]int64, len(agents))
		for ai := range agents {
			gs[ai], _, _ = groupOf(r, &agents[ai])
			ds[ai] = -1
			if d, ok := gs[ai].CrawlDelay(); ok {
				ds[ai] = int64(d)
			}
		}
		j.groups = append(j.groups, gs)
		j.delays = append(j.delays, ds)
	}
	return j
}

// uaCache remembers which crawler each User-Agent names, for one worker:
// a log holds few distinct headers. It is emptied when it holds maxUAs.
type uaCache struct {
	m map[string]uaEntry
}

type uaEntry struct {
	agent int32
	ua    string // the header, owned by the cache
}

const maxUAs = 1 << 14

// classify returns the crawler a User-Agent header names (-1 for none) and
// the header as a string the caller may keep. The crawler is the one whose
// token robotstxt.ProductToken reads from the header; failing that, one
// whose name as an agent set lists it (when that is no product token, as
// "AI2Bot") appears in the header, compared without regard to ASCII case.
func (j *logJudge) classify(c *uaCache, ua string) (int32, string) {
	if e, ok := c.m[ua]; ok {
		return e.agent, e.ua
	}
	agent := int32(-1)
	if tok := robotstxt.ProductToken(ua); tok != "" {
		if a, ok := j.byToken[grammar.LowerString(tok)]; ok {
			agent = a
		}
	}
	if agent < 0 && len(j.listed) > 0 {
		l := grammar.LowerString(ua)
		for _, n := range j.listed {
			if strings.Contains(l, n.lower) {
				agent = n.agent
				break
			}
		}
	}
	if c.m == nil || len(c.m) >= maxUAs {
		c.m = make(map[string]uaEntry, 256)
	}
	own := strings.Clone(ua)
	c.m[own] = uaEntry{agent, own}
	return agent, own
}

// The kinds of logEvent.
const (
	evJudged  = iota // a GET or HEAD judged against the history
	evRobots         // a request for /robots.txt
	evMethod         // neither GET nor HEAD: counted, not judged
	evUnknown        // before the first version: counted, not judged
)

// logEvent is a crawler's request, judged as far as it can be without
// knowing the requests before it.
type logEvent struct {
	line      int64
	nanos     int64
	zone      int32
	status    int32
	agent     int32
	kind      uint8
	forged    bool
	context   bool // before LogConfig.Since
	verdict   string
	decLine   int32 // the deciding line in the version live at the time
	decRule   string
	live      int32 // the version live at the time
	allowedBy int32 // for grace: the latest version in force that allows it
	ip        string
	method    string
	target    string
	ua        string
	identity  string
}

// isRobotsTarget reports whether a request target asks for /robots.txt (a
// query does not change which file it is).
func isRobotsTarget(target string) bool {
	if i := strings.IndexByte(target, '?'); i >= 0 {
		target = target[:i]
	}
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		// absolute form (RFC 9112 §3.2.2)
		rest := target[strings.Index(target, "//")+2:]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			target = rest[i:]
		} else {
			target = "/"
		}
	}
	return target == "/robots.txt"
}

// event judges a crawler's request (agent >= 0) as far as it can alone.
func (j *logJudge) event(rec *logRecord, agent int32, ua string, line int64, ev *logEvent) {
	// One allocation holds the strings the event keeps.
	s := rec.ip + rec.method + rec.target
	*ev = logEvent{
		line: line, nanos: rec.nanos, zone: rec.zone, status: rec.status, agent: agent,
		ip: s[:len(rec.ip)], method: s[len(rec.ip) : len(rec.ip)+len(rec.method)], target: s[len(rec.ip)+len(rec.method):],
		ua: ua, live: -1, allowedBy: -1,
	}
	if j.id != nil {
		ip, _ := netip.ParseAddr(ev.ip)
		ev.identity = j.id.Identify(ip, ua, time.Unix(0, rec.nanos))
		if ev.identity == "" {
			ev.identity = IdentityUnknown // it cannot tell
		}
		ev.forged = ev.identity == IdentityForged
	}
	switch {
	case isRobotsTarget(rec.target):
		ev.kind = evRobots
		return
	case rec.method != "GET" && rec.method != "HEAD":
		ev.kind = evMethod
		return
	}
	first, live := j.hist.window(rec.nanos)
	if live < 0 {
		ev.kind = evUnknown
		return
	}
	ev.kind = evJudged
	ev.live = int32(live)
	asked := asRecorded(ev.target)
	d := j.groups[live][agent].Decide(asked)
	ev.decLine, ev.decRule = int32(d.Line), d.Rule
	if d.Allowed {
		ev.verdict = VerdictAllowed
		return
	}
	ev.verdict = VerdictViolation
	for v := live - 1; v >= first; v-- {
		if j.groups[v][agent].Allowed(asked) {
			ev.verdict, ev.allowedBy = VerdictGrace, int32(v)
			return
		}
	}
}
