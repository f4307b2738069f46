package lint

import (
	"bytes"
	"errors"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/observe"
)

// This file holds the checks of [Diagnose] on Content-Usage and
// Content-Signal lines (see usage.go): values that state nothing, keys that
// are unknown or in the wrong case, paths that can never match, preferences
// on paths the group disallows, and signals before the first group.

// Causes of the findings on Content-Usage and Content-Signal lines.
var (
	ErrUsageValue      = errors.New("malformed usage preference")                  // states nothing, or less than it seems
	ErrUsageKey        = errors.New("unknown usage category")                      // ignored
	ErrUsageCase       = errors.New("usage key or value in the wrong case")        // Content-Usage is case-sensitive
	ErrUsagePath       = errors.New("usage path can never match")                  // it does not start with '/'
	ErrUsageDisallowed = errors.New("usage preference on a disallowed path")       // no preference applies there
	ErrUsageNoGroup    = errors.New("usage line before any user-agent line")       // read by some crawlers only
	ErrSignalPath      = errors.New("content-signal line with a path")             // the policy has no path form
	ErrUsageInAgents   = errors.New("usage line inside a run of user-agent lines") // the next user-agent line joins its group
	ErrUsageConflict   = errors.New("conflicting usage preferences")               // one path or one key stated twice, differently
)

// usageLine checks a line with key key, if it is a Content-Usage or
// Content-Signal line, and reports whether it was one.
func (d *diagnoser) usageLine(ln *Line, key, value []byte) bool {
	kind := grammar.UsageKeyKind(key)
	if kind == grammar.NotUsage {
		return false
	}
	name := usageName(kind == grammar.ContentSignal)
	if d.group < 0 {
		if kind == grammar.ContentUsage {
			d.add(ln.Num, SeverityWarning, ErrUsageNoGroup,
				"content-usage line before any user-agent line belongs to no group and is ignored: draft-ietf-aipref-attach-05 §3 makes it a rule of a group")
			return true
		}
		d.add(ln.Num, SeverityWarning, ErrUsageNoGroup,
			"content-signal line before any user-agent line: some crawlers apply it to every crawler, others ignore it; put it in the group for \"*\" (this package applies it to crawlers whose groups state no content-signal)")
	}
	path, pref, hasPath := grammar.SplitUsageValue(value)
	if !hasPath && d.usageBadPath(ln, name, pref) {
		return true
	}
	if hasPath && kind == grammar.ContentUsage && d.usageRawSpace(ln, path, pref) {
		return true
	}
	if hasPath && kind == grammar.ContentSignal {
		d.signalPath(ln, path, pref)
	}
	if d.group >= 0 {
		d.usageRun = append(d.usageRun, ln.Num)
	}
	if kind == grammar.ContentUsage {
		d.usagePrefs(ln, pref)
	} else {
		d.signals(ln, pref)
	}
	d.usageConflicts(ln, kind, path, pref, hasPath)
	if hasPath && bytes.IndexByte(path[:len(path)-1], '$') >= 0 {
		d.add(ln.Num, SeverityWarning, ErrDollar,
			"'$' inside the %s path %q matches a literal '$': only a final '$' anchors", name, path)
	}
	return true
}

// usageName is the key of a Content-Signal line (signal) or a Content-Usage
// line, as the findings write it.
func usageName(signal bool) string {
	if signal {
		return grammar.ContentSignalKey
	}
	return grammar.ContentUsageKey
}

// usageBadPath reports a value whose first word looks like a path that
// does not start with '/': it is read as a preference, which then states
// nothing (attach-05 §3.2: paths always start with '/').
func (d *diagnoser) usageBadPath(ln *Line, name string, value []byte) bool {
	first, ok := pathWord(value)
	if !ok {
		return false
	}
	d.add(ln.Num, SeverityError, ErrUsagePath,
		"%s path %q does not start with '/': it can never match, and the whole value is read as a preference, which states nothing; write %q",
		name, first, "/"+strings.TrimLeft(string(first), "/"))
	return true
}

// pathWord returns the first word of a usage value when more follows it
// and it looks like (a part of) a path rather than a member of a
// preference: no '=' or ',', and a '/', '*', '.' or '%'.
func pathWord(value []byte) ([]byte, bool) {
	sp := bytes.IndexAny(value, " \t")
	if sp < 0 {
		return nil, false
	}
	first := value[:sp]
	if bytes.IndexByte(first, '=') >= 0 || bytes.IndexByte(first, ',') >= 0 || !bytes.ContainsAny(first, "/*.%") {
		return nil, false
	}
	return first, true
}

// usagePrefs checks a Content-Usage preference (vocab-08 §6).
func (d *diagnoser) usagePrefs(ln *Line, pref []byte) {
	if len(pref) == 0 {
		d.add(ln.Num, SeverityWarning, ErrUsageValue, "content-usage line states no preference: write one, such as train-ai=n")
		return
	}
	if !parsesAsDictionary(pref) {
		if lower := bytes.ToLower(pref); !bytes.Equal(lower, pref) {
			if parsesAsDictionary(lower) {
				d.add(ln.Num, SeverityError, ErrUsageCase,
					"content-usage preference %q is case-sensitive and does not parse with upper-case keys: it states nothing; write %q", pref, lower)
				return
			}
		}
		d.add(ln.Num, SeverityError, ErrUsageValue,
			"content-usage preference %q is not a structured-field dictionary (RFC 9651): it states nothing; write keys and y or n, such as train-ai=n, search=y", pref)
		return
	}
	grammar.ParseSFDictionary(pref, func(key, token []byte, isToken bool) {
		known := false
		for _, label := range grammar.CategoryLabels {
			known = known || string(key) == label
		}
		switch {
		case !known:
			d.add(ln.Num, SeverityWarning, ErrUsageKey, "content-usage category %q is unknown and ignored; the categories are %s",
				key, lazy(func() string { return strings.Join(grammar.CategoryLabels[:], ", ") }))
		case isToken && (string(token) == grammar.UsageYes || string(token) == grammar.UsageNo):
		case isToken && (bytes.EqualFold(token, []byte(grammar.UsageYes)) || bytes.EqualFold(token, []byte(grammar.UsageNo))):
			d.add(ln.Num, SeverityError, ErrUsageCase,
				"content-usage value %s=%s states nothing: the values are y and n, in lower case", key, token)
		default:
			d.add(ln.Num, SeverityWarning, ErrUsageValue,
				"content-usage %s states nothing: its value must be y or n, as in %s=n", key, key)
		}
	})
}

// signals checks a Content-Signal value (Cloudflare's Content Signals
// Policy: search, ai-input and ai-train, each yes or no).
func (d *diagnoser) signals(ln *Line, value []byte) {
	if len(grammar.TrimOWS(value)) == 0 {
		d.add(ln.Num, SeverityWarning, ErrUsageValue, "content-signal line states no signal: write one, such as ai-train=no")
		return
	}
	grammar.EachSignalEntry(value, func(e grammar.SignalEntry) {
		if e.OK && bytes.EqualFold(e.Key, []byte(grammar.UseKey)) {
			d.signalUse(ln, e)
			return
		}
		known, exact := false, false
		for _, label := range grammar.SignalLabels {
			if bytes.EqualFold(e.Key, []byte(label)) {
				known, exact = true, string(e.Key) == label
			}
		}
		switch {
		case !e.OK:
			d.add(ln.Num, SeverityWarning, ErrUsageValue,
				"content-signal entry %q is not name=value and states nothing: write, for example, ai-train=no", e.Key)
		case !known:
			d.add(ln.Num, SeverityWarning, ErrUsageKey,
				"content-signal %q is unknown and ignored; the signals are %s", e.Key, strings.Join(grammar.SignalLabels[:], ", "))
		case !bytes.EqualFold(e.Value, []byte(grammar.SignalYes)) && !bytes.EqualFold(e.Value, []byte(grammar.SignalNo)):
			d.add(ln.Num, SeverityWarning, ErrUsageValue,
				"content-signal %s=%s states nothing: the values are yes and no", e.Key, e.Value)
		case !exact || string(e.Value) != grammar.SignalYes && string(e.Value) != grammar.SignalNo:
			d.add(ln.Num, SeverityWarning, ErrUsageCase,
				"content-signal %s=%s: the policy writes names and values in lower case, and some crawlers may compare them exactly; write %s=%s",
				e.Key, e.Value, bytes.ToLower(e.Key), bytes.ToLower(e.Value))
		}
	})
}

// signalUse checks the use=value entry of a Content-Signal value (the
// content-use level Cloudflare added on 2026-07-01): one of
// grammar.UseLabels, written in lower case.
func (d *diagnoser) signalUse(ln *Line, e grammar.SignalEntry) {
	for _, label := range grammar.UseLabels {
		if !bytes.EqualFold(e.Value, []byte(label)) {
			continue
		}
		if string(e.Key) != grammar.UseKey || string(e.Value) != label {
			d.add(ln.Num, SeverityWarning, ErrUsageCase,
				"content-signal %s=%s: the policy writes the key and its value in lower case, and some crawlers may compare them exactly; write %s=%s",
				e.Key, e.Value, grammar.UseKey, label)
		}
		return
	}
	d.add(ln.Num, SeverityWarning, ErrUsageValue,
		"content-signal %s=%s states nothing: the content-use levels are %s", e.Key, e.Value, strings.Join(grammar.UseLabels[:], ", "))
}

// usageDisallowed reports preferences on paths that the line's own group
// disallows: no preference applies to a URL that may not be fetched
// (attach-05 §3.1). A pattern with a '*' is judged by what comes before
// it. It runs once the whole file is read, on the file as Parse keeps it.
func (d *diagnoser) usageDisallowed(r *robotstxt.Robots) {
	observe.UsageLines(r, func(line, group int, path string, signal bool) {
		if star := strings.IndexByte(path, '*'); star >= 0 {
			path = path[:star]
		}
		if path == "" {
			return
		}
		allowed, by := observe.DecideInGroup(r, group, path)
		if allowed {
			return
		}
		name := usageName(signal)
		d.add(line, SeverityWarning, ErrUsageDisallowed,
			"%s on %s: line %d of the same group disallows %s, and no preference applies to a URL that may not be fetched (draft-ietf-aipref-attach-05 §3.1)",
			name, path, by, path)
	})
}

// parsesAsDictionary reports whether pref parses as a structured-field
// Dictionary (RFC 9651), as a Content-Usage preference must to state
// anything.
func parsesAsDictionary(pref []byte) bool {
	return grammar.ParseSFDictionary(pref, func(key, token []byte, isToken bool) {})
}
