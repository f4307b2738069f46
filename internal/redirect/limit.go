package redirect

// This file holds what a chain of redirects means for a robots.txt fetch.
// Package fetch follows a chain over the network and package audit through
// the captures of an archive; both ask these functions.

// Max is how many consecutive redirects a robots.txt fetch follows: RFC
// 9309 §2.3.1.2 has crawlers follow at least five.
const Max = 5

// Follows reports whether a response with the status is a redirect that a
// fetch follows to its Location: 301, 302, 303, 307 and 308 (RFC 9110
// §15.4), the ones net/http's Client follows. 300 (Multiple Choices), 304
// (Not Modified) and the other 3xx codes are final answers, which
// robotstxt.FromStatus reads as unreachable.
func Follows(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// Past reports whether a fetch that has met n consecutive redirects stops
// at the nth instead of following it (n > Max), and then the status the
// fetch is read as, by robotstxt.FromStatus: 404. RFC 9309 §2.3.1.2 lets
// a crawler take a robots.txt behind more than five redirects as
// unavailable, and §2.3.1.3 reads an unavailable robots.txt as a 4xx
// answer: everything is allowed. A redirect loop is such a chain.
func Past(n int) (status int, past bool) {
	if n > Max {
		return 404, true
	}
	return 0, false
}
