package verify

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestOriginIsRobotstxtOrigin is the seam between the origin a
// Signature-Agent names and robotstxt.Origin, the one spelling of an
// origin in this module: on random https URLs (case, default and other
// ports, IDNA hosts, IPv6, a trailing slash), every origin normalizeOrigin
// accepts is robotstxt.Origin's, so that "https://Bot.example:443" and
// "https://bot.example" name one agent.
func TestOriginIsRobotstxtOrigin(t *testing.T) {
	rng := rand.New(rand.NewPCG(6454, 9421))
	schemes := []string{"https", "HTTPS", "Https"}
	hosts := []string{"bot.example", "Bot.Example", "bücher.example", "xn--bcher-kva.example", "[2001:DB8::1]", "[2001:db8:0::1]", "192.0.2.1", "a_b.example", "example.com."}
	ports := []string{"", ":443", ":0443", ":8443", ":", ":80"}
	tails := []string{"", "/"}
	for range 5000 {
		s := schemes[rng.IntN(len(schemes))] + "://" + hosts[rng.IntN(len(hosts))] + ports[rng.IntN(len(ports))] + tails[rng.IntN(len(tails))]
		got, ok := normalizeOrigin(s)
		want, err := robotstxt.Origin(s)
		if !ok {
			if err == nil && strings.HasPrefix(want, "https://") {
				t.Errorf("normalizeOrigin(%q) refuses it; robotstxt.Origin = %q", s, want)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("normalizeOrigin(%q) = %q; robotstxt.Origin = %q, %v", s, got, want, err)
		}
	}
}
