// Package redirect holds what the module's HTTP clients share about
// following redirects.
package redirect

import (
	"net/http"
	"slices"
)

// Looped reports whether the redirect chain visited some URL twice: req
// is the next request, via the requests made so far, oldest first, as
// http.Client.CheckRedirect gets them.
func Looped(req *http.Request, via []*http.Request) bool {
	seen := make([]string, 0, len(via)+1)
	for _, r := range append(via, req) {
		u := r.URL.String()
		if slices.Contains(seen, u) {
			return true
		}
		seen = append(seen, u)
	}
	return false
}
