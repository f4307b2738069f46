package crawlers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestLookupAgreesWithParser is the seam between Lookup and the parser's
// own comparison of agents: for spellings of each token with the case of
// random letters changed, a Unicode letter that folds to an ASCII one put
// in, or a byte added, Lookup finds the crawler exactly when a file with a
// group for the token names that spelling.
func TestLookupAgreesWithParser(t *testing.T) {
	fold := map[byte]string{'s': "\u017f", 'k': "\u212a", 'K': "\u212a", 'S': "\u017f"}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range table {
		file := robotstxt.Parse([]byte("User-agent: " + c.Token + "\nDisallow: /\n"))
		for range 200 {
			b := []byte(c.Token)
			for i := range b {
				if r.IntN(2) == 0 && ('a' <= b[i]|0x20 && b[i]|0x20 <= 'z') {
					b[i] ^= 0x20
				}
			}
			v := string(b)
			switch r.IntN(4) {
			case 0:
				if i := strings.IndexAny(v, "sSkK"); i >= 0 {
					v = v[:i] + fold[v[i]] + v[i+1:]
				}
			case 1:
				v += string(rune("x-_/ "[r.IntN(5)]))
			}
			got, ok := Lookup(v)
			found := ok && got.Token == c.Token
			if named := file.NamesAgent(v); found != named {
				t.Errorf("Lookup(%q) finds %s: %v; the parser says a group for %q names it: %v", v, c.Token, found, c.Token, named)
			}
		}
	}
}
