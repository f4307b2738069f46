package verify

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// TestClaimSeam: the crawler a verdict names is the one robotstxt.ProductToken
// and crawlers.Lookup find for the header, for every published header of the
// table; and a crawler is Unverifiable exactly when its row documents no
// method.
func TestClaimSeam(t *testing.T) {
	v := New(Config{})
	for _, c := range crawlers.All() {
		if c.UserAgent == "" {
			continue
		}
		want, ok := crawlers.Lookup(robotstxt.ProductToken(c.UserAgent))
		d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Header: http.Header{"User-Agent": {c.UserAgent}}})
		if !ok || d.Crawler != want.Token || d.Operator != want.Operator {
			t.Errorf("%q: verdict names %q (%s), ProductToken and Lookup %q", c.UserAgent, d.Crawler, d.Operator, want.Token)
		}
		if (d.Status == Unverifiable) != !c.Verify.Documented() {
			t.Errorf("%s: %v, documented methods %+v", c.Token, d.Status, c.Verify)
		}
	}
}

// capture is a RoundTripper that keeps the request it is given.
type capture struct{ req *http.Request }

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	c.req = r
	return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
}

// TestSignerVerifierSeam: for targets with ports, IPv6 hosts, upper case,
// paths and queries, and a Host header set apart from the URL, what the
// Signer signs is what the Verifier rebuilds from the request as a server
// receives it (Middleware's rebuild: scheme from TLS, Host, request target).
func TestSignerVerifierSeam(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	for _, tt := range []struct{ url, host string }{
		{"https://site.example/", ""},
		{"https://Site.EXAMPLE/Path?Q=1&r", ""},
		{"https://site.example:8443/a%20b/c?x=%2F", ""},
		{"http://site.example:80/x", ""},
		{"https://[2001:db8::1]:8443/x", ""},
		{"https://[2001:db8::1]/x", ""},
		{"https://203.0.113.9/x", "site.example"},
	} {
		tr := &capture{}
		c := &http.Client{Transport: NewSigner(tr, e.key, e.srv.URL)}
		req, _ := http.NewRequest("GET", tt.url, nil)
		req.Host = tt.host
		req.Header.Set("User-Agent", chatgptUA)
		if _, err := c.Do(req); err != nil {
			t.Fatal(err)
		}
		sent := tr.req
		host := sent.Host
		if host == "" {
			host = sent.URL.Host
		}
		target := &url.URL{Scheme: sent.URL.Scheme, Host: host, Path: sent.URL.Path, RawPath: sent.URL.RawPath, RawQuery: sent.URL.RawQuery}
		d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: sent.Method, URL: target, Header: sent.Header})
		if d.Status != Verified {
			t.Errorf("%s (Host %q): %v %q", tt.url, tt.host, d.Status, d.Evidence)
		}
	}
}
