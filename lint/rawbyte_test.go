package lint

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// TestRawByteNeverMatchesSent pins the seam between Diagnose and
// NormalizeURL: a pattern that Diagnose reports with ErrRawByte never
// decides for a URL in the form crawlers send it, and the form it suggests,
// NormalizeURL of the pattern, decides for the URL that the raw pattern
// was meant for. Patterns and URLs are random, over an alphabet heavy in
// the bytes NormalizeURL escapes.
func TestRawByteNeverMatchesSent(t *testing.T) {
	// No '%' and no byte from 0x80 up: NormalizeURL then maps each byte on
	// its own, and the matcher escapes none of the pattern's bytes.
	const alphabet = "/ab*$ \"<>\\^`{|}"
	rounds := 20000
	if longTests() {
		rounds = 200000
	}
	rng := rand.New(rand.NewPCG(1, 17))
	word := func(n int) string {
		var b strings.Builder
		for range 1 + rng.IntN(n) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	reported, suggested := 0, 0
	for range rounds {
		pattern := "/" + strings.Trim(word(6), " ")
		raw := "https://example.com/" + word(8)
		body := "User-agent: *\nDisallow: " + pattern + "\n"
		var rawByte bool
		for _, f := range Diagnose([]byte(body)).Findings {
			rawByte = rawByte || errors.Is(f, ErrRawByte)
		}
		if want := strings.ContainsAny(pattern, grammar.WireEscaped); rawByte != want {
			t.Fatalf("Diagnose(%q): ErrRawByte %v, want %v", body, rawByte, want)
		}
		if !rawByte {
			continue
		}
		reported++
		sent := robotstxt.NormalizeURL(raw)
		if d := robotstxt.Parse([]byte(body)).Decide("foobot", sent); d.Line == 2 {
			t.Fatalf("pattern %q, reported as never matching, decides for %q (sent for %q)", pattern, sent, raw)
		}
		// The raw pattern matches the raw URL exactly when the suggested
		// pattern matches the URL as sent: a '*' or '$' does not change
		// this, since NormalizeURL maps each byte on its own here.
		rawHit := robotstxt.Parse([]byte(body)).Decide("foobot", raw).Line == 2
		fixed := "User-agent: *\nDisallow: " + robotstxt.NormalizeURL(pattern) + "\n"
		if got := robotstxt.Parse([]byte(fixed)).Decide("foobot", sent).Line == 2; got != rawHit {
			t.Fatalf("pattern %q matches %q: %v; suggested %q matches %q: %v", pattern, raw, rawHit, robotstxt.NormalizeURL(pattern), sent, got)
		}
		if rawHit {
			suggested++
		}
	}
	if reported < rounds/4 || suggested < rounds/100 {
		t.Fatalf("%d of %d patterns reported, %d suggestions matched: the generator misses the cases", reported, rounds, suggested)
	}
	t.Logf("%d of %d patterns reported; %d suggestions decided for the URL sent", reported, rounds, suggested)
}
