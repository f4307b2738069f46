package lint

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file holds the findings on usage lines that seem to say one thing
// and are read as another: a Content-Signal line with a path, a usage line
// inside a run of User-agent lines, preferences that conflict, and a
// Content-Usage path cut at a raw space.

// signalPath reports a Content-Signal line with a path. The Content
// Signals Policy writes no path: a crawler that follows it reads the whole
// value as comma-separated signals, and the first, "/blog/ ai-train", is
// none it knows.
func (d *diagnoser) signalPath(ln *Line, path, pref []byte) {
	d.add(ln.Num, SeverityWarning, ErrSignalPath,
		"content-signal path %q: the Content Signals Policy has no path form, so a crawler that follows it reads %q as one signal it does not know, which states nothing (this package applies the line to %s and below only); state signals for the whole site, or a path's preferences in a content-usage line",
		path, lazy(func() string { return firstSignal(path, pref) }), path)
}

// firstSignal is the first signal name a policy reader sees in a
// Content-Signal value with a path.
func firstSignal(path, pref []byte) string {
	v := string(path)
	if len(pref) > 0 {
		v += " " + string(pref)
	}
	if i := bytes.IndexAny([]byte(v), ",="); i >= 0 {
		v = v[:i]
	}
	return v
}

// usageInAgents reports, at a user-agent line, the usage lines between it
// and the previous user-agent line of the same group: they do not end the
// run of user-agent lines (RFC 9309 §2.2.4, as Google's parser groups
// lines), so when joined the line's crawlers join their group, and the
// preferences apply to them too.
func (d *diagnoser) usageInAgents(ln *Line, joined bool) {
	if joined {
		for _, u := range d.usageRun {
			d.add(u, SeverityWarning, ErrUsageInAgents,
				"usage line between user-agent lines: it does not end the group, so user-agent %q on line %d joins the same group, and crawlers apply this line and the group's rules to it too; put the usage lines after the group's rules, or start the next group after a rule",
				ln.Value, ln.Num)
		}
	}
	d.usageRun = d.usageRun[:0]
}

// usageState is what the usage lines of one kind of the current group
// state for one path.
type usageState struct {
	signal bool
	path   string          // normalised; "/" for a line without a path
	pref   map[string]byte // label → 'y' or 'n'
	line   map[string]int  // label → the line that stated it
}

// usageConflicts reports what a usage line states twice: a key stated
// twice in the line with different values (the last counts: RFC 9651
// §4.2.2 for Content-Usage, the package's reading for Content-Signal), and
// a preference for a path that an earlier line of the group states
// otherwise (lines on one path combine, a disallow winning: vocab-08 §5.1).
func (d *diagnoser) usageConflicts(ln *Line, kind grammar.UsageKind, path, pref []byte, hasPath bool) {
	signal := kind == grammar.ContentSignal
	name := usageName(signal)
	// The line's own preferences, read as the parser reads them: the last
	// member of a key counts, and a value other than yes or no states
	// nothing (v == 0).
	var labels []string
	own := map[string]byte{}
	state := func(i int, v byte) {
		label := grammar.CategoryLabels[i]
		if signal {
			label = grammar.SignalLabels[i]
		}
		if old, ok := own[label]; ok && old != v {
			read := "nothing for " + label
			if v != 0 {
				read = label + "=" + prefWord(signal, v)
			}
			d.add(ln.Num, SeverityWarning, ErrUsageConflict,
				"%s states %s twice in one line: only the last counts, so crawlers read %s", name, label, read)
		}
		if _, ok := own[label]; !ok {
			labels = append(labels, label)
		}
		own[label] = v
	}
	if signal {
		grammar.EachSignalMember(pref, state)
	} else {
		var members [][2]int
		if grammar.EachUsageMember(pref, func(i int, v byte) { members = append(members, [2]int{i, int(v)}) }) {
			for _, m := range members {
				state(m[0], byte(m[1]))
			}
		}
	}
	// A label whose last member states nothing takes no part in the lines'
	// combining.
	labels = slices.DeleteFunc(labels, func(label string) bool { return own[label] == 0 })
	if len(labels) == 0 {
		return
	}
	norm := "/"
	if hasPath {
		norm = string(grammar.AppendEscaped(nil, path))
	}
	var st *usageState
	for i := range d.usageSeen {
		if s := &d.usageSeen[i]; s.signal == signal && s.path == norm {
			st = s
		}
	}
	if st == nil {
		d.usageSeen = append(d.usageSeen, usageState{signal: signal, path: norm, pref: map[string]byte{}, line: map[string]int{}})
		st = &d.usageSeen[len(d.usageSeen)-1]
	}
	for _, label := range labels {
		v := own[label]
		old, ok := st.pref[label]
		switch {
		case !ok:
			st.pref[label], st.line[label] = v, ln.Num
		case old != v:
			d.add(ln.Num, SeverityWarning, ErrUsageConflict,
				"%s on %s: line %d states %s=%s and this line %s=%s; lines on one path combine, a disallow winning (draft-ietf-aipref-vocab-08 §5.1), so crawlers read %s",
				name, norm, st.line[label], label, prefWord(signal, old), label, prefWord(signal, v), lazy(func() string { return label + "=" + prefWord(signal, 'n') }))
			if old == 'y' {
				st.line[label] = ln.Num // the disallow that wins
			}
			st.pref[label] = 'n'
		}
	}
}

// prefWord writes a preference as the kind of line writes it.
func prefWord(signal bool, v byte) string {
	switch {
	case signal && v == 'y':
		return grammar.SignalYes
	case signal:
		return grammar.SignalNo
	case v == 'y':
		return grammar.UsageYes
	}
	return grammar.UsageNo
}

// usageRawSpace reports a Content-Usage path cut at a raw space: the path
// ends at the first space (attach-05 §3.2), so "/my docs/ train-ai=n" is
// the path "/my" and the preference "docs/ train-ai=n", which does not
// parse and states nothing.
func (d *diagnoser) usageRawSpace(ln *Line, path, pref []byte) bool {
	first, ok := pathWord(pref)
	if !ok {
		return false
	}
	d.add(ln.Num, SeverityError, ErrRawByte,
		"content-usage path %q ends at the space after it: crawlers read the path %q and the preference %q, which states nothing; write the space as %%20: %q",
		lazy(func() string { return string(path) + " " + string(first) }), path, pref, lazy(func() string { return fmt.Sprintf("%s%%20%s", path, first) }))
	return true
}
