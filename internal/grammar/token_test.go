package grammar

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestAppendLowerToken holds AppendLowerToken to AgentToken and Lower, byte
// by byte, over random values of token bytes, their neighbours in ASCII
// ('@', '[', '`', '{', ',', '.', '^') and high bytes, at every length up to
// 40, read from inside a longer slice whose rest holds token bytes (which
// must not count) or at the very end of their slice.
func TestAppendLowerToken(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	alphabet := []byte("aZzA-_@[`{,.^/ \t\x00\x7f\x80\xc1\xda\xe1\xfa\xff")
	for range 50000 {
		n := rng.IntN(41)
		buf := make([]byte, n+rng.IntN(12))
		for i := range buf {
			buf[i] = alphabet[rng.IntN(len(alphabet))]
			if i < n && rng.IntN(3) > 0 {
				buf[i] = "abcXYZ-_"[rng.IntN(8)]
			}
		}
		value := buf[:n]
		prefix := []byte("ua:")
		dst := append(make([]byte, 0, len(prefix)+n+8), prefix...)
		got := AppendLowerToken(dst, value)
		want := []byte("ua:")
		for _, c := range AgentToken(value) {
			want = append(want, Lower(c))
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendLowerToken(%q, %q) = %q, want %q", prefix, value, got, want)
		}
	}
}

// TestTokenIs holds TokenIs to AgentToken folded by Lower and compared by
// CompareFold, as the compiled file compares an agent with its tokens,
// over random values and agents of token bytes, their neighbours in ASCII
// and high bytes, both up to 12 bytes long, so that agents and tokens of
// equal length are frequent.
func TestTokenIs(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 6))
	alphabet := []byte("aAbB-_@[`{/ \t*\x80\xc1")
	word := func() []byte {
		b := make([]byte, rng.IntN(13))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(3) > 0 {
				b[i] = "abAB-_"[rng.IntN(6)]
			}
		}
		return b
	}
	equal := 0
	for range 200000 {
		value, agent := word(), string(word())
		var tok []byte
		for _, c := range AgentToken(value) {
			tok = append(tok, Lower(c))
		}
		want := CompareFold(agent, tok) == 0
		if want {
			equal++
		}
		if got := TokenIs(value, agent); got != want {
			t.Fatalf("TokenIs(%q, %q) = %v, want %v", value, agent, got, want)
		}
	}
	if equal < 1000 {
		t.Fatalf("only %d of the values named their agent: the test draws too few", equal)
	}
}

// TestTrimLeftSpace holds TrimLeftSpace and LeadingSpace, which pass over
// eight spaces at a time, to a walk a byte at a time over random lines of
// whitespace and other bytes, of every length up to 40, so that the words
// of spaces end at every offset.
func TestTrimLeftSpace(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 5))
	alphabet := []byte(" \t\n\v\f\r\x00\x1f!<a\x85\xa0")
	for range 50000 {
		b := make([]byte, rng.IntN(41))
		for i := range b {
			b[i] = ' '
			if rng.IntN(6) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		want := b
		for len(want) > 0 && IsSpace(want[0]) {
			want = want[1:]
		}
		if got := TrimLeftSpace(b); len(got) != len(want) {
			t.Fatalf("TrimLeftSpace(%q) = %q, want %q", b, got, want)
		}
		if got := LeadingSpace(b); got != len(b)-len(want) {
			t.Fatalf("LeadingSpace(%q) = %d, want %d", b, got, len(b)-len(want))
		}
	}
}

// TestIsTokenByte holds the table IsTokenByte reads to the bytes of a
// product token as RFC 9309 §2.2.1 spells them: [A-Za-z_-].
func TestIsTokenByte(t *testing.T) {
	for c := range 256 {
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
		if got := IsTokenByte(byte(c)); got != want {
			t.Errorf("IsTokenByte(%#x) = %v, want %v", c, got, want)
		}
	}
}
