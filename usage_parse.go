package robotstxt

import "bytes"

// This file reads Content-Usage and Content-Signal lines into usage records
// while a file is parsed (see usage.go for what they answer and layout.go
// for how they are stored). The lines stay among the others as well, so
// that Others and the diagnostics see them as before, and they change no
// group: a run of User-agent lines goes on across them, as across any line
// Google's parser does not know (RFC 9309 §2.2.4 agrees), so no Allow or
// Disallow answer depends on them.

// usageKind tells the two lines apart.
type usageKind uint8

const (
	notUsage usageKind = iota
	kindContentUsage
	kindContentSignal
)

// usageKeyKind reports which of the two lines key names, ignoring ASCII
// case. It rejects other keys by their length first: it runs for every line
// with a key Parse does not know.
func usageKeyKind(key []byte) usageKind {
	switch {
	case len(key) == len(contentUsageKey) && hasPrefixFold(key, contentUsageKey):
		return kindContentUsage
	case len(key) == len(contentSignalKey) && hasPrefixFold(key, contentSignalKey):
		return kindContentSignal
	}
	return notUsage
}

// splitUsageValue splits the value of a Content-Usage line into its path
// and its preference (draft-ietf-aipref-attach-05 §3.2): a value that starts
// with '/' has a path, up to the first SP or HTAB, and the preference
// follows the whitespace; any other value is all preference. The same split
// serves Content-Signal lines.
func splitUsageValue(value []byte) (path, pref []byte, hasPath bool) {
	if len(value) == 0 || value[0] != '/' {
		return nil, value, false
	}
	end := bytes.IndexAny(value, " \t")
	if end < 0 {
		return value, nil, true
	}
	pref = value[end:]
	for len(pref) > 0 && (pref[0] == ' ' || pref[0] == '\t') {
		pref = pref[1:]
	}
	return value[:end], pref, true
}

// parseUsagePrefs returns the preferences a Content-Usage preference
// states, by Category (vocab-08 §6.5): the value is parsed as a Dictionary;
// a key that is a label of the vocabulary with the Token y or n states
// allow or disallow; the last member with a key counts (§6.5.1); any other
// value, and unknown keys, state nothing. ok is false when the value does
// not parse, and then nothing is stated.
func parseUsagePrefs(pref []byte) (prefs uint16, ok bool) {
	ok = parseSFDictionary(pref, func(key, token []byte, isToken bool) {
		for c, label := range categoryLabels {
			if string(key) != label {
				continue
			}
			p := PrefUnknown
			switch {
			case isToken && string(token) == usageYes:
				p = PrefYes
			case isToken && string(token) == usageNo:
				p = PrefNo
			}
			prefs = withPref(prefs, c, p)
		}
	})
	if !ok {
		return 0, false
	}
	return prefs, true
}

// signalEntry is one entry of a Content-Signal value.
type signalEntry struct {
	key, value []byte
	ok         bool // it has the form key=value
}

// eachSignalEntry calls f for each comma-separated entry of a
// Content-Signal value, whitespace around keys and values removed. Empty
// entries are skipped.
func eachSignalEntry(value []byte, f func(signalEntry)) {
	for len(value) > 0 {
		entry := value
		if i := bytes.IndexByte(value, ','); i >= 0 {
			entry, value = value[:i], value[i+1:]
		} else {
			value = nil
		}
		entry = trimOWS(entry)
		if len(entry) == 0 {
			continue
		}
		eq := bytes.IndexByte(entry, '=')
		if eq < 0 {
			f(signalEntry{key: entry})
			continue
		}
		f(signalEntry{key: trimOWS(entry[:eq]), value: trimOWS(entry[eq+1:]), ok: true})
	}
}

func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// parseSignals returns the signals a Content-Signal value states, by
// Signal. The policy gives no grammar beyond its examples
// ("search=yes, ai-train=no"), so the reading is lenient: entries are
// separated by commas, a key and its value by '=', both compared ignoring
// ASCII case; a known signal with yes or no states it, the last entry for a
// signal counts, and anything else states nothing.
func parseSignals(value []byte) (prefs uint16) {
	eachSignalEntry(value, func(e signalEntry) {
		if !e.ok {
			return
		}
		for s, label := range signalLabels {
			if !bytes.EqualFold(e.key, []byte(label)) {
				continue
			}
			p := PrefUnknown
			switch {
			case bytes.EqualFold(e.value, []byte(signalYes)):
				p = PrefYes
			case bytes.EqualFold(e.value, []byte(signalNo)):
				p = PrefNo
			}
			prefs = withPref(prefs, s, p)
		}
	})
	return prefs
}

// addUsage keeps a Content-Usage or Content-Signal line of group (or
// preamble) as a usage record. Its pattern is normalised as an Allow or
// Disallow pattern is (attach-05 §3.1: "the same percent-encoding rules");
// a line without a path applies to every path, as "/" does.
func (b *builder) addUsage(num uint32, kind usageKind, value []byte, group uint32) {
	path, pref, hasPath := splitUsageValue(value)
	if !hasPath {
		path = []byte("/")
	}
	u := usageRec{line: num, group: group, signal: kind == kindContentSignal}
	if u.signal {
		u.prefs = parseSignals(pref)
	} else {
		u.prefs, _ = parseUsagePrefs(pref)
	}
	u.off = uint32(len(b.text))
	b.text = appendEscaped(b.text, path)
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
