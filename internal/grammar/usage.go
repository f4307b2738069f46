package grammar

import "bytes"

// This file holds how Content-Usage (draft-ietf-aipref-attach-05 §3, with
// the vocabulary of draft-ietf-aipref-vocab-08) and Content-Signal
// (Cloudflare's Content Signals Policy) lines are read: their keys, the
// split of a value into path and preference, the labels and values of the
// two vocabularies, and the entries of a Content-Signal value. A new
// revision of the drafts changes this file, package robotstxt's
// usage_vocab.go and their tests.

// UsageKind tells the two lines apart.
type UsageKind uint8

const (
	NotUsage UsageKind = iota
	ContentUsage
	ContentSignal
)

// UsageKeyKind reports which of the two lines key names, ignoring ASCII
// case. It rejects other keys by their length first: it runs for every line
// with a key the parser does not know.
func UsageKeyKind(key []byte) UsageKind {
	switch {
	case len(key) == len(ContentUsageKey) && HasPrefixFold(key, ContentUsageKey):
		return ContentUsage
	case len(key) == len(ContentSignalKey) && HasPrefixFold(key, ContentSignalKey):
		return ContentSignal
	}
	return NotUsage
}

// SplitUsageValue splits the value of a Content-Usage line into its path
// and its preference (draft-ietf-aipref-attach-05 §3.2): a value that starts
// with '/' has a path, up to the first SP or HTAB, and the preference
// follows the whitespace; any other value is all preference. The same split
// serves Content-Signal lines.
func SplitUsageValue(value []byte) (path, pref []byte, hasPath bool) {
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

// CategoryLabels are the labels of §6.1 of the vocabulary, in the order of
// the categories of §4 (robotstxt.Category). They are case-sensitive
// (§6.1, §6.5.1).
var CategoryLabels = [...]string{"train-ai", "ai-use", "search"}

// The values of a Content-Usage preference (vocab-08 §6.2): the Tokens y
// (allow) and n (disallow), case-sensitive.
const (
	UsageYes = "y"
	UsageNo  = "n"
)

// The preferences a statement can make about one category, as the values
// of robotstxt.Pref (PrefUnknown, PrefYes, PrefNo, PrefNotCrawlable).
const (
	PrefUnknown = iota
	PrefYes
	PrefNo
	PrefNotCrawlable
)

// CombinePrefs combines two statements about one category as vocab-08 §5.1
// says: a disallow wins, then an allow; otherwise the preference is
// unknown. robotstxt.Usage.Combined and package pagerules (robots.txt and
// the Content-Usage header) both combine with it.
func CombinePrefs[P ~uint8](a, b P) P {
	switch {
	case a == PrefNo || b == PrefNo:
		return PrefNo
	case a == PrefYes || b == PrefYes:
		return PrefYes
	}
	return PrefUnknown
}

// SignalLabels are the names of the signals of the Content Signals Policy,
// in the order of robotstxt.Signal.
var SignalLabels = [...]string{"search", "ai-input", "ai-train"}

// The values of a signal. The policy writes them in lower case; they are
// compared ignoring ASCII case, as nothing says otherwise.
const (
	SignalYes = "yes"
	SignalNo  = "no"
)

// SignalEntry is one entry of a Content-Signal value.
type SignalEntry struct {
	Key, Value []byte
	OK         bool // it has the form key=value
}

// EachSignalEntry calls f for each comma-separated entry of a
// Content-Signal value, whitespace around keys and values removed. Empty
// entries are skipped.
func EachSignalEntry(value []byte, f func(SignalEntry)) {
	for len(value) > 0 {
		entry := value
		if i := bytes.IndexByte(value, ','); i >= 0 {
			entry, value = value[:i], value[i+1:]
		} else {
			value = nil
		}
		entry = TrimOWS(entry)
		if len(entry) == 0 {
			continue
		}
		eq := bytes.IndexByte(entry, '=')
		if eq < 0 {
			f(SignalEntry{Key: entry})
			continue
		}
		f(SignalEntry{Key: TrimOWS(entry[:eq]), Value: TrimOWS(entry[eq+1:]), OK: true})
	}
}

// TrimOWS trims optional whitespace, SP and HTAB, from both ends of b.
func TrimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// EachUsageMember calls f, in order, for each member of a Content-Usage
// preference whose key is a label of CategoryLabels (vocab-08 §6.5): i is
// the label's index, and v is 'y' or 'n' for the Token y or n, or 0 for
// any other value, which states nothing. The last call for a label is what
// the preference states for it (§6.5.1). It reports false when the
// preference is no Dictionary; then it states nothing, whatever f was
// called with. The parser and lint both read preferences through it.
func EachUsageMember(pref []byte, f func(i int, v byte)) bool {
	return ParseSFDictionary(pref, func(key, token []byte, isToken bool) {
		for i, label := range CategoryLabels {
			if string(key) != label {
				continue
			}
			var v byte
			switch {
			case isToken && string(token) == UsageYes:
				v = 'y'
			case isToken && string(token) == UsageNo:
				v = 'n'
			}
			f(i, v)
		}
	})
}

// UseKey is the key of the content-use level of a Content-Signal value,
// and UseLabels its values, from the least reuse to the most, in the order
// of robotstxt.Use less one (Cloudflare added the key to its Content
// Signals Policy on 2026-07-01, with the example
// "search=yes,ai-train=no,use=reference"; contentsignals.org):
// immediate, interact with the content but store and reuse none of it;
// reference, index, excerpt and link back; full, summarise and reproduce.
const UseKey = "use"

// UseLabels are the values of the use key; see UseKey.
var UseLabels = [...]string{"immediate", "reference", "full"}

// SignalUse returns the content-use level a Content-Signal value states:
// 1 + the index in UseLabels of the value of its last use=value entry, or
// 0 when there is none or that entry's value is none of UseLabels. Key and
// value are compared ignoring case, and the last entry counts, as for the
// signals.
func SignalUse(value []byte) (level int) {
	EachSignalEntry(value, func(e SignalEntry) {
		if !e.OK || !bytes.EqualFold(e.Key, []byte(UseKey)) {
			return
		}
		level = 0
		for i, label := range UseLabels {
			if bytes.EqualFold(e.Value, []byte(label)) {
				level = i + 1
			}
		}
	})
	return level
}

// EachSignalMember calls f, in order, for each key=value entry of a
// Content-Signal value whose key is a name of SignalLabels, compared
// ignoring case: i is the name's index, and v is 'y' or 'n' for yes or no
// (case ignored), or 0 for any other value, which states nothing. The last
// call for a name is what the value states for it. The parser and lint
// both read signals through it.
func EachSignalMember(value []byte, f func(i int, v byte)) {
	EachSignalEntry(value, func(e SignalEntry) {
		if !e.OK {
			return
		}
		for i, label := range SignalLabels {
			if !bytes.EqualFold(e.Key, []byte(label)) {
				continue
			}
			var v byte
			switch {
			case bytes.EqualFold(e.Value, []byte(SignalYes)):
				v = 'y'
			case bytes.EqualFold(e.Value, []byte(SignalNo)):
				v = 'n'
			}
			f(i, v)
		}
	})
}
