package grammar

// Lower folds an ASCII upper-case letter to lower case and leaves every
// other byte as it is: robots.txt keys and product tokens are compared
// ignoring ASCII case only ("K", the Kelvin sign, is not "k"). Every
// case-insensitive comparison of the repository is built on it.
func Lower(c byte) byte {
	// Without a branch: which bytes of an agent are upper case follows no
	// pattern a branch predictor learns. c-'A' is below 26 exactly for an
	// upper-case letter; taking 26 from it then wraps, and sets bit 5 of
	// what is left after shifting, 0x20, the bit that folds the letter.
	return c | byte((uint32(c-'A')-26)>>26&0x20)
}

// HasPrefixFold reports whether b starts with prefix, which is lower case,
// ignoring ASCII case.
func HasPrefixFold[T string | []byte](b T, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if Lower(b[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// EqualFold reports whether a and b are equal when both are folded with
// [Lower].
func EqualFold[T, U string | []byte](a T, b U) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if Lower(a[i]) != Lower(b[i]) {
			return false
		}
	}
	return true
}

// CompareFold orders a, folded with [Lower], against tok, which is already
// lower case: shorter first, then bytewise. Ordering by length first
// settles most comparisons without reading the bytes. It allocates nothing.
func CompareFold[T, U string | []byte](a T, tok U) int {
	if len(a) != len(tok) {
		return len(a) - len(tok)
	}
	for i := 0; i < len(tok); i++ {
		if x, t := Lower(a[i]), tok[i]; x != t {
			return int(x) - int(t)
		}
	}
	return 0
}

// LowerString folds s with [Lower], returning s itself when it has no
// upper-case ASCII letter.
func LowerString(s string) string {
	i := 0
	for i < len(s) && Lower(s[i]) == s[i] {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		b[i] = Lower(b[i])
	}
	return string(b)
}
