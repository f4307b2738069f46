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
