package robotstxt

import (
	"sort"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file answers what a robots.txt file says a crawler may use a page
// for, next to whether it may fetch it: the Content-Usage lines of the IETF
// AI Preferences drafts and the Content-Signal lines of Cloudflare's
// Content Signals Policy (the revisions are named in usage_vocab.go).
//
// Both are scoped like Allow and Disallow: the groups that decide for the
// agent are the ones that decide its Allow and Disallow answer, and among
// their lines of one kind the one whose path pattern matches with the
// longest pattern states the preferences (attach-05 §3.1). Lines of equal
// length that all match are combined category by category as vocab-08
// §5.1 says: a disallow wins over an allow. A line with no path applies to
// every path, as "/" does. A Content-Signal line before the first group
// applies to every crawler whose groups have no Content-Signal line for the
// URL.

// Pref is what a robots.txt file states about one category of use of one
// URL.
type Pref uint8

const (
	// PrefUnknown: no line states a preference for the category (the
	// vocabulary's "unknown", vocab-08 §5).
	PrefUnknown Pref = grammar.PrefUnknown
	// PrefYes: the use is allowed (y, or yes).
	PrefYes Pref = grammar.PrefYes
	// PrefNo: the use is disallowed (n, or no).
	PrefNo Pref = grammar.PrefNo
	// PrefNotCrawlable: the group disallows fetching the URL, and no
	// usage preference applies to a URL that may not be fetched
	// (attach-05 §3.1). It is never stated by a line.
	PrefNotCrawlable Pref = grammar.PrefNotCrawlable
)

// String returns "unknown", "y", "n" or "not crawlable".
func (p Pref) String() string {
	switch p {
	case PrefUnknown:
		return "unknown"
	case PrefYes:
		return "y"
	case PrefNo:
		return "n"
	case PrefNotCrawlable:
		return "not crawlable"
	}
	return "invalid"
}

// Stated is a preference and the line that stated it, or 0 when none did.
type Stated struct {
	Pref Pref
	Line int
}

// Usage is what a robots.txt file says about the use of one URL by one
// crawler: the Allow and Disallow answer, and the preferences of the
// Content-Usage and of the Content-Signal lines, each as stated, category
// by category. The two vocabularies are kept apart; [Usage.Combined] merges
// them for a crawler that wants one answer.
type Usage struct {
	// Decision is the Allow and Disallow answer, as [Group.Decide] gives
	// it. When it disallows, every preference is PrefNotCrawlable.
	Decision Decision

	// ContentUsage holds the Content-Usage preferences, by Category.
	ContentUsage [NumCategories]Stated
	// UsageLine is the line of the longest Content-Usage pattern that
	// matches the URL (the first of them, when several tie), or 0 when
	// none matches. It states nothing when its value did not parse.
	UsageLine int

	// ContentSignal holds the Content-Signal preferences, by Signal.
	ContentSignal [NumSignals]Stated
	// SignalLine is the line of the longest Content-Signal pattern that
	// matches, as UsageLine.
	SignalLine int
	// ContentUse is the content-use level the Content-Signal lines of
	// SignalLine's path state with their use key, and UseLine the first
	// line that states it (0 when none does). It is UseUnstated when the
	// URL may not be fetched.
	ContentUse Use
	UseLine    int
}

// Pref returns the Content-Usage preference for category c.
func (u Usage) Pref(c Category) Pref {
	if c >= NumCategories {
		return PrefUnknown
	}
	return u.ContentUsage[c].Pref
}

// Signal returns the Content-Signal preference for signal s.
func (u Usage) Signal(s Signal) Pref {
	if s >= NumSignals {
		return PrefUnknown
	}
	return u.ContentSignal[s].Pref
}

// Combined returns one answer for category c from both vocabularies: the
// Content-Usage preference for c and the Content-Signal preference of the
// signal that covers the same use (ai-train for train-ai, ai-input for
// ai-use, search for search), combined as vocab-08 §5.1 combines
// statements of preference: a disallow wins, then an allow, otherwise
// unknown. The signals and the categories are close but not equal (see
// usage_vocab.go); a crawler that must tell them apart reads ContentUsage
// and ContentSignal. It returns PrefNotCrawlable when the URL may not be
// fetched.
func (u Usage) Combined(c Category) Pref {
	if c >= NumCategories {
		return PrefUnknown
	}
	if !u.Decision.Allowed {
		return PrefNotCrawlable
	}
	p := u.ContentUsage[c].Pref
	for s, cat := range signalCategory {
		if cat == c {
			p = grammar.CombinePrefs(p, u.ContentSignal[s].Pref)
		}
	}
	return p
}

// Usage reports what the file says about the use of url by agent, next to
// whether agent may fetch it; agent and url are taken as by
// [Robots.Allowed]. It allocates nothing but the compiled file, as
// [Robots.Group].
func (r *Robots) Usage(agent, url string) Usage { return r.Group(agent).Usage(url) }

// Usage reports what the file says about the use of url; see
// [Robots.Usage]. It allocates nothing.
func (g Group) Usage(url string) Usage {
	u := Usage{Decision: g.Decide(url)}
	if !u.Decision.Allowed {
		for i := range u.ContentUsage {
			u.ContentUsage[i].Pref = PrefNotCrawlable
		}
		for i := range u.ContentSignal {
			u.ContentSignal[i].Pref = PrefNotCrawlable
		}
		return u
	}
	if g.r == nil {
		return u
	}
	base, n := g.r.numUsage()
	if n == 0 {
		return u
	}
	p := pathOf(url)
	var cu, cs usageBest
	for i := uint32(0); i < g.n; i++ {
		g.r.usageOfGroup(base, n, g.id(i), p, &cu, &cs)
	}
	if !cs.found {
		g.r.usageOfGroup(base, n, preamble, p, nil, &cs)
	}
	u.UsageLine = cu.fill(u.ContentUsage[:])
	u.SignalLine = cs.fill(u.ContentSignal[:])
	if cs.found {
		u.ContentUse, u.UseLine = Use(prefAt(cs.prefs, useSlot)), int(cs.lines[useSlot])
	}
	return u
}

// usageBest is the longest match so far among the lines of one kind.
type usageBest struct {
	found    bool
	priority int
	line     uint32
	prefs    uint16
	lines    [maxUsagePrefs]uint32
}

// fill writes what b states into out and returns its line.
func (b *usageBest) fill(out []Stated) int {
	if !b.found {
		return 0
	}
	for i := range out {
		out[i] = Stated{Pref: prefAt(b.prefs, i), Line: int(b.lines[i])}
	}
	return int(b.line)
}

// add takes a line of priority pri that matches.
func (b *usageBest) add(u usageRec, pri int, count int) {
	if !b.found || pri > b.priority {
		*b = usageBest{found: true, priority: pri, line: u.line, prefs: u.prefs}
		for i := range count {
			if prefAt(u.prefs, i) != PrefUnknown {
				b.lines[i] = u.line
			}
		}
		return
	}
	if pri < b.priority {
		return
	}
	// Equal paths: combined category by category (vocab-08 §5.1); the
	// line of a preference is the first line that states it.
	b.line = min(b.line, u.line)
	for i := range count {
		old, got := prefAt(b.prefs, i), prefAt(u.prefs, i)
		p := grammar.CombinePrefs(old, got)
		if u.signal && i == useSlot {
			p = Pref(leastUse(Use(old), Use(got)))
		}
		switch {
		case p != old:
			b.lines[i] = u.line
		case got == p && p != PrefUnknown:
			b.lines[i] = min(b.lines[i], u.line)
		}
		b.prefs = withPref(b.prefs, i, p)
	}
}

// useSlot is where a Content-Signal record keeps its content-use level,
// after the signals' preferences.
const useSlot = int(NumSignals)

// leastUse combines two content-use levels stated for the same path: the
// least reuse wins, and a stated level wins over none.
func leastUse(a, b Use) Use {
	switch {
	case a == UseUnstated:
		return b
	case b == UseUnstated:
		return a
	}
	return min(a, b)
}

// usageOfGroup adds the usage records of group id that match p to cu
// (Content-Usage) and cs (Content-Signal); a nil one is skipped. The
// records of a group are found by binary search: most groups have none.
func (r *compiledFile) usageOfGroup(base, n, id uint32, p urlPath, cu, cs *usageBest) {
	first := uint32(sort.Search(int(n), func(j int) bool { return r.usageGroup(base, uint32(j)) >= id }))
	for i := first; i < n; i++ {
		u := r.usageAt(base, i)
		if u.group != id {
			return
		}
		best, count := cu, int(NumCategories)
		if u.signal {
			best, count = cs, useSlot+1
		}
		if best == nil || !matchPath(r.usagePattern(u), u.anchored, p) {
			continue
		}
		pri := int(u.n)
		if u.anchored {
			pri++
		}
		best.add(u, pri, count)
	}
}
