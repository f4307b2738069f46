package redirect

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestFollowsIsNetHTTPs holds Follows to what net/http's Client, which
// package fetch uses, follows: for every final status, 200 to 599, a
// response with a Location is followed exactly when Follows says so, and
// a package that reads recorded responses (audit) follows the same ones.
func TestFollowsIsNetHTTPs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/target" {
			w.WriteHeader(200)
			return
		}
		code, _ := strconv.Atoi(r.URL.Query().Get("s"))
		w.Header().Set("Location", "/target")
		w.WriteHeader(code)
	}))
	defer srv.Close()
	client := srv.Client()
	for code := 200; code <= 599; code++ { // a 1xx is no final answer
		resp, err := client.Get(srv.URL + "/robots.txt?s=" + strconv.Itoa(code))
		if err != nil {
			t.Fatalf("status %d: %v", code, err)
		}
		resp.Body.Close()
		followed := resp.Request.URL.Path == "/target"
		if followed != Follows(code) {
			t.Errorf("status %d: net/http follows it: %v, Follows: %v", code, followed, Follows(code))
		}
	}
}

// TestPast: five redirects are followed (RFC 9309 §2.3.1.2: at
// least five); the sixth is read as a 404.
func TestPast(t *testing.T) {
	for n := 0; n <= 8; n++ {
		status, past := Past(n)
		if past != (n > 5) || past && status != 404 || !past && status != 0 {
			t.Errorf("Past(%d) = %d, %v", n, status, past)
		}
	}
}
