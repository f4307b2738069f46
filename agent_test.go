package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// checkSortNames fails unless sortNames orders the names of the User-agent
// values (one group each, in order) as findAgent searches their tokens
// (compareFold: by length, then bytes), names of one token by group.
func checkSortNames(t *testing.T, reason string, values []string) {
	t.Helper()
	b := builder{scratch: new(scratch)}
	for g, v := range values {
		tok := []byte(strings.ToLower(string(grammar.AgentToken([]byte(v)))))
		b.names = append(b.names, agentName{uint32(len(b.tokens)), uint32(len(tok)), uint32(g)})
		b.tokens = append(b.tokens, tok...)
	}
	tok := func(nm agentName) string { return string(b.tokens[nm.off : nm.off+nm.n]) }
	want := slices.Clone(b.names)
	slices.SortStableFunc(want, func(x, y agentName) int {
		if c := grammar.CompareFold(tok(x), tok(y)); c != 0 {
			return c
		}
		return int(x.group) - int(y.group)
	})
	keys := b.sortNames()
	if len(keys) != len(want) {
		t.Fatalf("%s: %d keys for %d names", reason, len(keys), len(want))
	}
	for k, key := range keys {
		if got := b.names[key&nameIdxMask]; got != want[k] {
			t.Errorf("%s: name %d is %q of group %d, want %q of group %d", reason, k, tok(got), got.group, tok(want[k]), want[k].group)
		}
	}
}

func TestSortNames(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, tt := range []struct {
		reason string
		values []string
	}{
		{"§4 shorter tokens first", []string{"googlebot", "bing", "a"}},
		{"§4 equal lengths by bytes", []string{"zeta", "beta", "alfa"}},
		{"§4 '-' before '_' before letters", []string{"a_b", "aab", "a-b", "a_a", "a-a"}},
		{"§4 case folds", []string{"GoogleBot", "googlebot", "Bing"}},
		{"§4 one token in several groups, in group order", []string{"bot", "other", "BOT", "bot"}},
		{"§4 empty tokens (\"*x\", \"/\") sort first", []string{"x", "*x", "/", ""}},
		{"§4 tokens alike in their first six bytes", []string{"googlebot-news", "googlebot-image", "googlebot-video", "googlebot-imagf", "googlebot-news"}},
		{"§4 tokens of 63 bytes and more tie on length", []string{long + "b", long[:63], long + "a", long[:64], long[:62] + "z", long + "a"}},
		{"§4 tokens past 63 bytes by length first, though their first bytes say otherwise", []string{strings.Repeat("a", 76), strings.Repeat("z", 66), long[:63], "z" + long}},
		{"§4 seven bytes: one past the key", []string{"abcdefh", "abcdefg", "abcdefg"}},
		{"no names", nil},
	} {
		checkSortNames(t, tt.reason, tt.values)
	}
	// Random tokens over few bytes, so that many share long prefixes.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		values := make([]string, rng.IntN(40))
		for i := range values {
			v := make([]byte, rng.IntN(10))
			for j := range v {
				v[j] = "ab-_B"[rng.IntN(5)]
			}
			values[i] = string(v)
		}
		checkSortNames(t, "random tokens", values)
	}
	// Random tokens about the 63 bytes a key's length holds.
	for range 100 {
		values := make([]string, rng.IntN(12))
		for i := range values {
			v := []byte(strings.Repeat("a", 58+rng.IntN(10)))
			for range 3 {
				v[rng.IntN(len(v))] = "az-"[rng.IntN(3)]
			}
			values[i] = string(v)
		}
		checkSortNames(t, "random long tokens", values)
	}
}

// TestLongAgentsFound holds that every agent a file names finds its group
// whatever its length: past the 63 bytes the sort key keeps of a length,
// tokens are still searched by length first (SPEC §4).
func TestLongAgentsFound(t *testing.T) {
	toks := []string{strings.Repeat("a", 76), strings.Repeat("z", 66), strings.Repeat("m", 63), "bot"}
	var body strings.Builder
	for i, tok := range toks {
		fmt.Fprintf(&body, "User-agent: %s\nDisallow: /%d\n\n", tok, i)
	}
	r := Parse([]byte(body.String()))
	for i, tok := range toks {
		for j := range toks {
			want := i != j
			if got := r.Allowed(tok, fmt.Sprintf("https://example.com/%d", j)); got != want {
				t.Errorf("agent %q, /%d: Allowed %v, want %v", tok, j, got, want)
			}
		}
	}
}

// TestNameCodeCoversTokenBytes pins the seam between the tokens a parse
// keeps (grammar.AgentToken, lowered) and the codes of their bytes in a
// sort key (nameCode): every byte a token may hold has a code, none is 0
// (which stands past a token's end), and the codes order the bytes as
// grammar.CompareFold does. A byte no token holds (a digit, '/', '*')
// ends the token before it (SPEC §4).
func TestNameCodeCoversTokenBytes(t *testing.T) {
	var held []byte
	for c := range 256 {
		if grammar.IsTokenByte(byte(c)) {
			held = append(held, grammar.Lower(byte(c)))
		} else if tok := grammar.AgentToken([]byte{'a', byte(c), 'b'}); string(tok) != "a" {
			t.Errorf("byte %#x: token of \"a%cb\" is %q, want \"a\"", c, c, tok)
		}
	}
	for i, x := range held {
		if nameCode[x] == 0 {
			t.Errorf("byte %q of a token has no code", x)
		}
		for _, y := range held[i+1:] {
			if (nameCode[x] < nameCode[y]) != (grammar.CompareFold([]byte{x}, []byte{y}) < 0) || (nameCode[x] == nameCode[y]) != (x == y) {
				t.Errorf("bytes %q and %q: codes %d and %d order them unlike CompareFold", x, y, nameCode[x], nameCode[y])
			}
		}
	}
}

// TestAgentLens holds compiledFile.lens to the file's tokens: an agent of a
// length no token has skips the search, so a missing bit would send a
// named agent to the "*" groups. Tokens of 63 bytes or more share bit 63.
// A Robots read back from its binary form sets the bits from its records.
func TestAgentLens(t *testing.T) {
	toks := []string{"bot", "Googlebot", strings.Repeat("m", 63), strings.Repeat("z", 66), strings.Repeat("a", 76)}
	var body strings.Builder
	body.WriteString("User-agent: *\nDisallow: /all\n\n")
	for i, tok := range toks {
		fmt.Fprintf(&body, "User-agent: %s\nDisallow: /%d\n\n", tok, i)
	}
	parsed := parse([]byte(body.String()))
	data, err := parsed.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var loaded Robots
	if err := loaded.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	const want = 1<<3 | 1<<9 | 1<<63 // "*" is the global list, no token
	for _, r := range []*Robots{parsed, &loaded} {
		if r.compiled().lens != want {
			t.Errorf("lens %#x, want %#x", r.compiled().lens, uint64(want))
		}
		for i, tok := range toks {
			if r.Allowed(tok, fmt.Sprintf("/%d", i)) || !r.Allowed(tok, "/all") {
				t.Errorf("agent %q does not find its own group", tok)
			}
		}
		// Lengths no token has: the "*" group, without a search.
		for _, agent := range []string{"", "ab", "Googlebot-News", strings.Repeat("q", 64)} {
			if r.Allowed(agent, "/all") {
				t.Errorf("agent %q: /all allowed, want the \"*\" group's answer", agent)
			}
		}
	}
}
