package robotstxt

import "github.com/robotstxt-go/robotstxt/internal/grammar"

// This file reads Content-Usage and Content-Signal lines into usage records
// while a file is parsed (see usage.go for what they answer and layout.go
// for how they are stored). The lines stay among the others as well, so
// that Others and the diagnostics see them as before, and they change no
// group: a run of User-agent lines goes on across them, as across any line
// Google's parser does not know (RFC 9309 §2.2.4 agrees), so no Allow or
// Disallow answer depends on them.

// parseUsagePrefs returns the preferences a Content-Usage preference
// states, by Category (vocab-08 §6.5): the value is parsed as a Dictionary;
// a key that is a label of the vocabulary with the Token y or n states
// allow or disallow; the last member with a key counts (§6.5.1); any other
// value, and unknown keys, state nothing. ok is false when the value does
// not parse, and then nothing is stated.
func parseUsagePrefs(pref []byte) (prefs uint16, ok bool) {
	ok = grammar.EachUsageMember(pref, func(c int, v byte) {
		prefs = withPref(prefs, c, memberPref(v))
	})
	if !ok {
		return 0, false
	}
	return prefs, true
}

// parseSignals returns the signals a Content-Signal value states, by
// Signal. The policy gives no grammar beyond its examples
// ("search=yes, ai-train=no"), so the reading is lenient: entries are
// separated by commas, a key and its value by '=', both compared ignoring
// case; a known signal with yes or no states it, the last entry for a
// signal counts, and anything else states nothing. The content-use level
// of the use key is kept after the signals (useSlot).
func parseSignals(value []byte) (prefs uint16) {
	grammar.EachSignalMember(value, func(s int, v byte) {
		prefs = withPref(prefs, s, memberPref(v))
	})
	return withPref(prefs, useSlot, Pref(grammar.SignalUse(value)))
}

// memberPref is the Pref of a member's value as the grammar's member
// readers give it: 'y', 'n', or 0 for a value that states nothing.
func memberPref(v byte) Pref {
	switch v {
	case 'y':
		return PrefYes
	case 'n':
		return PrefNo
	}
	return PrefUnknown
}

// addUsage keeps a Content-Usage or Content-Signal line of group (or
// preamble) as a usage record. Its pattern is normalised as an Allow or
// Disallow pattern is (attach-05 §3.1: "the same percent-encoding rules");
// a line without a path applies to every path, as "/" does.
func (b *builder) addUsage(num uint32, kind grammar.UsageKind, value []byte, group uint32) {
	path, pref, hasPath := grammar.SplitUsageValue(value)
	if !hasPath {
		path = []byte("/")
	}
	u := usageRec{line: num, group: group, signal: kind == grammar.ContentSignal}
	if u.signal {
		u.prefs = parseSignals(pref)
	} else {
		u.prefs, _ = parseUsagePrefs(pref)
	}
	u.off = uint32(len(b.text))
	b.text = grammar.AppendEscaped(b.text, path)
	n := len(b.text) - int(u.off)
	if n > 0 && b.text[len(b.text)-1] == '$' {
		u.anchored = true
		b.text = b.text[:len(b.text)-1]
		n--
	}
	u.n = uint16(n)
	b.usage = append(b.usage, u)
}

// usageScratch is the builder's part of the scratch space for usage
// records.
type usageScratch struct {
	usage []usageRec // in line order; those before the first group first
}

func (s *usageScratch) resetUsage()    { s.usage = s.usage[:0] }
func (s *usageScratch) usageSize() int { return 24 * cap(s.usage) }

// sortUsage puts the usage records in the order of the others: by group,
// those before the first group (group preamble) last, each group's in line
// order.
func (b *builder) sortUsage() {
	n := 0
	for n < len(b.usage) && b.usage[n].group == preamble {
		n++
	}
	if n == 0 || n == len(b.usage) {
		return
	}
	pre := append([]usageRec(nil), b.usage[:n]...)
	copy(b.usage, b.usage[n:])
	copy(b.usage[len(b.usage)-n:], pre)
}
