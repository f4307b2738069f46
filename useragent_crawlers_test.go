package robotstxt_test

import (
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// TestProductTokenCrawlers reads the header of every crawler of the
// crawlers table: the header its operator publishes must give the token
// its robots.txt groups use, so that a crawler configured with its own
// published header obeys robots.txt under its own name (issue 17 item 5).
// The table and ProductToken are thus checked as one fact.
func TestProductTokenCrawlers(t *testing.T) {
	n := 0
	for _, c := range crawlers.All() {
		if c.UserAgent == "" {
			continue
		}
		n++
		if got := robotstxt.ProductToken(c.UserAgent); got != c.Token {
			t.Errorf("ProductToken(%q) = %q, want %q (%s, %s)", c.UserAgent, got, c.Token, c.Operator, c.Source)
		}
	}
	if n < 15 {
		t.Errorf("only %d headers in the crawlers table", n)
	}
}
