package robotstxt

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// TestScanValueInside holds scanValue to grammar.NeedsEscape and a search
// for '*' for values read from inside a longer slice, as the parse passes
// them: a value shorter than a word is read with the bytes after it, and
// those, '%', '*' and high bytes among them, must not count. Every length
// up to 40 is covered, on both sides of each word.
func TestScanValueInside(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 5))
	alphabet := []byte("/a%*Ee9\x80\xff$")
	for range 50000 {
		n := rng.IntN(41)
		buf := make([]byte, n+rng.IntN(40))
		for i := range buf {
			buf[i] = alphabet[rng.IntN(len(alphabet))]
			if i < n && rng.IntN(4) > 0 {
				buf[i] = 'a'
			}
		}
		value := buf[:n]
		escape, star := scanValue(value)
		if want := grammar.NeedsEscape(value); escape != want {
			t.Fatalf("scanValue(%q) with %q after it: escape = %v, NeedsEscape says %v", value, buf[n:], escape, want)
		}
		if want := bytes.IndexByte(value, '*') >= 0; star != want {
			t.Fatalf("scanValue(%q) with %q after it: star = %v, want %v", value, buf[n:], star, want)
		}
	}
}
