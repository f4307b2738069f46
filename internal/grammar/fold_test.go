package grammar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFold holds the one ASCII fold to the standard library's on ASCII
// text, where both must agree, and pins where they must not: the Kelvin
// sign and the long s fold to "k" and "s" in Unicode, never here (robots.txt
// compares product tokens and keys ignoring ASCII case only).
func TestFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 28))
	const alphabet = "aAbBkKsSzZ-_09:/ *"
	word := func() string {
		b := make([]byte, rng.IntN(6))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		a, b := word(), word()
		if got, want := EqualFold(a, b), strings.EqualFold(a, b); got != want {
			t.Fatalf("EqualFold(%q, %q) = %v, strings.EqualFold says %v", a, b, got, want)
		}
		lb := strings.ToLower(b)
		if got, want := CompareFold(a, lb) == 0, strings.EqualFold(a, lb); got != want {
			t.Fatalf("CompareFold(%q, %q) == 0 is %v, want %v", a, lb, got, want)
		}
		if got, want := HasPrefixFold(a, lb), len(a) >= len(lb) && strings.EqualFold(a[:len(lb)], lb); got != want {
			t.Fatalf("HasPrefixFold(%q, %q) = %v, want %v", a, lb, got, want)
		}
		if got := LowerString(a); got != strings.ToLower(a) {
			t.Fatalf("LowerString(%q) = %q", a, got)
		}
	}
	if EqualFold("\u212aBot", "kbot") || EqualFold("\u017fitemap", "sitemap") || HasPrefixFold("\u017fitemap", "sitemap") {
		t.Error(`the Kelvin sign is no "k" and the long s no "s" to robots.txt`)
	}
}
