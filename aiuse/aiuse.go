// Package aiuse answers the question a site's signals about AI are read
// for: may operator O use this page for purpose P? It reads every place a
// site states it, with the line or header that said so:
//
//   - robots.txt groups: the group of the crawler that fetches the page
//     for the use (GPTBot for OpenAI's training), and the group of a
//     control token that fetches nothing but governs a use of what the
//     operator's other crawlers fetch (Google-Extended: Gemini training
//     and grounding of pages Googlebot fetched);
//   - the Content-Usage lines of those groups (draft-ietf-aipref-attach-05
//     §3, vocabulary draft-ietf-aipref-vocab-08) and their Content-Signal
//     lines (Cloudflare's Content Signals Policy), as [robotstxt.Usage]
//     reads them;
//   - when a page's response is given ([ReadPage]): its Content-Usage and
//     Content-Signal headers, and the noindex of its X-Robots-Tag header
//     and robots meta tags (package pagerules) for a search use.
//
// Which token governs which use is the crawler table's (package crawlers,
// [crawlers.GovernsFor]), each fact with its operator's page.
//
// # How an answer is made
//
// Each signal says yes, no or nothing about the use; the answer is:
//
//   - [NotCrawlable] when robots.txt disallows the URL to a crawler that
//     fetches the page for the use: no preference applies to a URL that
//     may not be fetched (attach-05 §3.1);
//   - else [NotAllowed] when any signal says no: a disallow wins
//     (vocab-08 §5.1);
//   - else [Allowed] when any says yes;
//   - else [NotStated];
//   - and [NoToken] when the operator documents no token for the use.
//
// The signal that decided is the first one, in the order above, that says
// what the answer is.
//
// # Choices where the sources are silent
//
//   - robots.txt speaks of a use only through a group that names the
//     governing token: a rule of that group that allows the URL says yes,
//     one that disallows it says no. An allow by the `*` group, or by no
//     rule, says nothing of the use: the crawler may fetch, and the site
//     has stated nothing about what it may do with the page. A disallow
//     by the `*` group still binds the token (it is a token like any
//     other): no, or not crawlable for a crawler that fetches.
//   - The vocabularies' categories per use: training reads train-ai and
//     ai-train; search reads search only (vocab-08 §4.3: the search
//     preference governs a search use, whatever the others say); AI input
//     reads ai-use and ai-input; a fetch a user asks for passes the page
//     to a model as input, so it reads ai-use and ai-input too.
//   - The usage lines of the governing token's group and of the groups of
//     the crawlers that fetch for it are all read: both address the
//     operator's use of what was fetched.
//   - Content-Signal's use= level (immediate, reference, full) is reported
//     with its meaning and decides nothing: the policy defines no mapping
//     from a level onto training, search or input.
//   - An operator that says robots.txt may not apply to a crawler
//     (ChatGPT-User, Perplexity-User) is answered from the site's signals
//     all the same: they are what the site wants. The answer notes it.
package aiuse

import (
	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// Verdict is the answer for one operator, use and URL.
type Verdict uint8

// The verdicts.
const (
	NotStated    Verdict = iota // no signal says yes or no
	Allowed                     // a signal says yes and none says no
	NotAllowed                  // a signal says no
	NotCrawlable                // robots.txt disallows the URL to a crawler that fetches it for the use
	NoToken                     // the operator documents no token for the use
)

// String returns "not stated", "allowed", "not allowed", "not crawlable"
// or "no token".
func (v Verdict) String() string {
	switch v {
	case NotStated:
		return "not stated"
	case Allowed:
		return "allowed"
	case NotAllowed:
		return "not allowed"
	case NotCrawlable:
		return "not crawlable"
	case NoToken:
		return "no token"
	}
	return "invalid"
}

// Kind says where a signal was read.
type Kind uint8

// The places a signal is read from.
const (
	RobotsRules         Kind = iota + 1 // an Allow or Disallow answer of a group
	ContentUsageLine                    // a Content-Usage line of robots.txt
	ContentSignalLine                   // a Content-Signal line of robots.txt
	ContentUsageHeader                  // the page's Content-Usage header
	ContentSignalHeader                 // the page's Content-Signal header
	PageRobotsRules                     // the page's X-Robots-Tag header or robots meta tags
)

// String names the place.
func (k Kind) String() string {
	switch k {
	case RobotsRules:
		return "robots.txt"
	case ContentUsageLine:
		return "robots.txt Content-Usage"
	case ContentSignalLine:
		return "robots.txt Content-Signal"
	case ContentUsageHeader:
		return "Content-Usage header"
	case ContentSignalHeader:
		return "Content-Signal header"
	case PageRobotsRules:
		return "page robots rules"
	}
	return "invalid"
}

// Signal is one statement a site makes that bears on the answer.
type Signal struct {
	Kind Kind
	// Says is what it says of the use: Allowed, NotAllowed, NotCrawlable
	// (a fetching crawler's robots.txt disallow) or NotStated.
	Says Verdict
	// Allow reports, for robots.txt rules, that the deciding rule is an
	// Allow rule.
	Allow bool
	// Use is a Content-Signal's content-use level, reported with what it
	// means and deciding nothing; UseUnstated for other kinds.
	Use robotstxt.Use
	// Line is the robots.txt line that states it, or 0: no rule matched,
	// or a header or meta tag.
	Line int32
	// Token is the token whose group was read (robots.txt kinds), or for
	// page robots rules the crawler they were read for.
	Token string
	// Label is the vocabulary's label read ("train-ai", "ai-train"), the
	// deciding rule's value as written ("/private/"; Allow says which
	// kind), "use" for a content-use level, or for page robots rules where
	// the noindex was written ("X-Robots-Tag line 1", "meta tag 2").
	Label string
}

// maxSignals bounds the signals of one answer: robots.txt rules for the
// token and its fetcher, two usage lines for each, two headers, two
// content-use levels, the page's rules.
const maxSignals = 12

// Answer is the answer for one operator, use and URL, with every signal
// that spoke and the one that decided.
type Answer struct {
	Operator string
	Use      crawlers.Use
	// Governs is the token that governs the use and the crawlers that
	// fetch for it; its Token is "" when the verdict is NoToken.
	Governs crawlers.Governs
	Verdict Verdict
	// Decided is the index in Signals of the signal that decided, or -1
	// when none did (NotStated, NoToken).
	Decided int
	signals [maxSignals]Signal
	n       int
}

// Signals returns the signals that spoke, in the order they were read:
// robots.txt, its usage lines, the page's headers, the page's robots
// rules. Signals that say nothing are listed too when they were present
// (an allow by `*`, a usage line that states nothing for the use).
func (a *Answer) Signals() []Signal { return a.signals[:a.n] }

// Decider returns the signal that decided, and false when none did.
func (a *Answer) Decider() (Signal, bool) {
	if a.Decided < 0 {
		return Signal{}, false
	}
	return a.signals[a.Decided], true
}

func (a *Answer) add(s Signal) {
	if a.n < maxSignals {
		a.signals[a.n] = s
		a.n++
	}
}

// Site is what a site states: its robots.txt and, when a page's response
// was read, that page's signals.
type Site struct {
	// Robots is the site's robots.txt as [robotstxt.FromStatus] reads it;
	// nil stands for no robots.txt (allow all).
	Robots *robotstxt.Robots
	// Page is the response of the page asked about, or nil.
	Page *Page
}

// categories gives, per use, the Content-Usage category and the
// Content-Signal signal that state it (see the package doc).
func categories(u crawlers.Use) (robotstxt.Category, robotstxt.Signal, bool) {
	switch u {
	case crawlers.UseTraining:
		return robotstxt.TrainAI, robotstxt.SignalAITrain, true
	case crawlers.UseSearch:
		return robotstxt.Search, robotstxt.SignalSearch, true
	case crawlers.UseAIInput, crawlers.UseUserFetch:
		return robotstxt.AIUse, robotstxt.SignalAIInput, true
	}
	return 0, 0, false
}

// Ask answers whether operator op may use the page at url for use u, from
// what site states. url is taken as by [robotstxt.Robots.Allowed]. Once
// the site's robots.txt is compiled (after its first question), Ask
// allocates nothing.
func (s *Site) Ask(op string, u crawlers.Use, url string) Answer {
	var buf [4]facts // a token and its fetchers
	return s.ask(op, u, url, &memo{facts: buf[:0]})
}

// facts is what robots.txt says for one token about one URL: the token
// whose group decides for it, whether a group names that token, and the
// group's answer with its usage lines.
type facts struct {
	token, follows string
	named          bool
	usage          robotstxt.Usage
}

// memo keeps the facts of the tokens asked about for one URL, so that a
// token that governs several uses, or fetches for several, is read once.
// Its slice has the room for every token asked (the caller's array), so
// that it never allocates.
type memo struct {
	facts []facts
}

// factsOf returns the facts for token about url, from m when it has them.
func (s *Site) factsOf(token, url string, m *memo) *facts {
	for i := range m.facts {
		if m.facts[i].token == token {
			return &m.facts[i]
		}
	}
	if len(m.facts) == cap(m.facts) {
		m.facts = m.facts[:0] // more tokens than room: start again (TestMemoRoom)
	}
	m.facts = m.facts[:len(m.facts)+1]
	f := &m.facts[len(m.facts)-1]
	var grp robotstxt.Group
	f.token = token
	f.follows, grp, f.named = crawlers.Deciding(s.Robots, token)
	f.usage = grp.Usage(url)
	return f
}

func (s *Site) ask(op string, u crawlers.Use, url string, m *memo) Answer {
	a := Answer{Operator: op, Use: u, Decided: -1}
	g, ok := crawlers.GovernsFor(op, u)
	if !ok {
		a.Verdict = NoToken
		return a
	}
	a.Governs = g
	cat, sig, _ := categories(u)
	fetchers := g.Fetchers()
	control := len(g.FetchedBy) > 0

	// robots.txt: may the fetching crawlers fetch the URL, and what does
	// the governing token's group say of it?
	crawlable := true
	for _, f := range fetchers {
		crawlable = a.rules(s.factsOf(f, url, m), true) && crawlable
	}
	var tok *facts
	if control {
		tok = s.factsOf(g.Token, url, m)
		a.rules(tok, false)
	}
	if crawlable {
		// The usage lines of the token's group and of its fetchers'.
		if control {
			a.usageLines(tok, cat, sig)
			for _, f := range fetchers {
				a.usageLines(s.factsOf(f, url, m), cat, sig)
			}
		} else {
			a.usageLines(s.factsOf(g.Token, url, m), cat, sig)
		}
		if s.Page != nil {
			s.Page.signals(&a, u, fetchers, cat, sig)
		}
	}
	a.decide()
	return a
}

// rules adds what robots.txt's Allow and Disallow rules say for a token
// (f) about the URL: for a crawler that fetches, a disallow makes the URL
// not crawlable; for a control token, it says no. It reports whether the
// URL may be fetched.
func (a *Answer) rules(f *facts, fetches bool) bool {
	d := f.usage.Decision
	sg := Signal{Kind: RobotsRules, Token: f.token, Line: int32(d.Line), Label: d.Rule, Allow: d.Allow}
	if f.follows != "" && f.follows != f.token {
		sg.Token = f.follows
	}
	switch {
	case !d.Allowed && fetches:
		sg.Says = NotCrawlable
	case !d.Allowed:
		sg.Says = NotAllowed
	case f.named && d.Line > 0:
		sg.Says = Allowed
	}
	a.add(sg)
	return d.Allowed
}

// usageLines adds what the Content-Usage and Content-Signal lines of a
// token's deciding group (f) say of the URL for category cat and signal
// sig, and the content-use level.
func (a *Answer) usageLines(f *facts, cat robotstxt.Category, sig robotstxt.Signal) {
	us := &f.usage
	if !us.Decision.Allowed {
		return // the rules' signal says it: no preference applies
	}
	if st := us.ContentUsage[cat]; st.Line > 0 || st.Pref != robotstxt.PrefUnknown {
		a.add(Signal{Kind: ContentUsageLine, Token: f.token, Line: int32(st.Line), Says: prefSays(st.Pref), Label: cat.String()})
	}
	if st := us.ContentSignal[sig]; st.Line > 0 || st.Pref != robotstxt.PrefUnknown {
		a.add(Signal{Kind: ContentSignalLine, Token: f.token, Line: int32(st.Line), Says: prefSays(st.Pref), Label: sig.String()})
	}
	if us.ContentUse != robotstxt.UseUnstated {
		a.add(Signal{Kind: ContentSignalLine, Token: f.token, Line: int32(us.UseLine), Label: "use", Use: us.ContentUse})
	}
}

// prefSays is what a usage preference says of a use.
func prefSays(p robotstxt.Pref) Verdict {
	switch p {
	case robotstxt.PrefYes:
		return Allowed
	case robotstxt.PrefNo:
		return NotAllowed
	case robotstxt.PrefNotCrawlable:
		return NotCrawlable
	}
	return NotStated
}

// decide sets the verdict from the signals (see the package doc).
func (a *Answer) decide() {
	for _, want := range [...]Verdict{NotCrawlable, NotAllowed, Allowed} {
		for i := range a.n {
			if a.signals[i].Says == want {
				a.Verdict, a.Decided = want, i
				return
			}
		}
	}
	a.Verdict, a.Decided = NotStated, -1
}
