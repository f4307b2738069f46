package robotstxt

// This file reads the Content-Usage response header, which states usage
// preferences for the content of one response as a Content-Usage line of
// robots.txt does for the URLs its path matches.

// ParseContentUsage reads the value of a Content-Usage HTTP response header
// (draft-ietf-aipref-attach-05 §2) and returns its preferences by Category.
// The value is read as a Content-Usage line's preference is
// (draft-ietf-aipref-vocab-08 §6.5): an RFC 9651 Dictionary, whose members
// with a label of the vocabulary and the Token y or n state allow or
// disallow, the last member with a label counting; unknown labels and other
// values state nothing. ok is false when the value does not parse, and then
// nothing is stated. A response with several Content-Usage lines is read as
// one value, the lines joined with ", " (RFC 9110 §5.3).
func ParseContentUsage(value string) (prefs [NumCategories]Pref, ok bool) {
	bits, ok := parseUsagePrefs([]byte(value))
	if !ok {
		return prefs, false
	}
	for c := range prefs {
		prefs[c] = prefAt(bits, c)
	}
	return prefs, true
}

// ParseContentSignal reads the value of a Content-Signal HTTP response
// header and returns the signals it states, by Signal, and its content-use
// level. The header is sent with the grammar of the robots.txt line and no
// path (Cloudflare's Markdown for Agents sends it, as do libraries that
// follow the Content Signals Policy), so it is read exactly as a
// Content-Signal line's value is: comma-separated key=value entries,
// compared ignoring case, the last entry for a key counting; anything else
// states nothing. A response with several Content-Signal lines is read as
// one value, the lines joined with ", " (RFC 9110 §5.3).
func ParseContentSignal(value string) (signals [NumSignals]Pref, use Use) {
	bits := parseSignals([]byte(value))
	for s := range signals {
		signals[s] = prefAt(bits, s)
	}
	return signals, Use(prefAt(bits, useSlot))
}
