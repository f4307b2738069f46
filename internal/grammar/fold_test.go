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

// TestCompareFoldOrder holds CompareFold to its definition, byte by byte:
// shorter first, then the first byte where a folded with Lower and tok
// differ. The inputs meet every byte value, letters at the edges of 'A'-'Z'
// and 'a'-'z', and lengths up to 19.
func TestCompareFoldOrder(t *testing.T) {
	byBytes := func(a, tok string) int {
		if len(a) != len(tok) {
			return len(a) - len(tok)
		}
		for i := range len(a) {
			if x, y := Lower(a[i]), tok[i]; x != y {
				return int(x) - int(y)
			}
		}
		return 0
	}
	sign := func(c int) int { return min(max(c, -1), 1) }
	rng := rand.New(rand.NewPCG(3, 31))
	const edges = "@AZ[`az{\x00\x7f\x80\xc1\xdb\xff-_"
	for range 50000 {
		n := rng.IntN(20)
		a := make([]byte, n)
		for i := range a {
			if rng.IntN(2) == 0 {
				a[i] = edges[rng.IntN(len(edges))]
			} else {
				a[i] = byte(rng.IntN(256))
			}
		}
		// tok: a folded, then maybe one byte changed, so that most pairs
		// agree up to some byte.
		var tok []byte
		for _, c := range a {
			tok = append(tok, Lower(c))
		}
		if n > 0 && rng.IntN(4) > 0 {
			tok[rng.IntN(n)] = edges[rng.IntN(len(edges))]
		}
		if got, want := sign(CompareFold(string(a), string(tok))), sign(byBytes(string(a), string(tok))); got != want {
			t.Fatalf("CompareFold(%q, %q) has sign %d, want %d", a, tok, got, want)
		}
		if got, want := sign(CompareFold(a, tok)), sign(byBytes(string(a), string(tok))); got != want {
			t.Fatalf("CompareFold([]byte(%q), []byte(%q)) has sign %d, want %d", a, tok, got, want)
		}
	}
}
