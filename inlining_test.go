package robotstxt

import (
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestInlining pins the functions that Parse's loop over lines and the
// answer of Allowed call once a line, a byte or a rule, and that must
// stay small enough for the compiler to inline: a change that pushes one
// over the budget costs every parse, and shows here before it shows in a
// benchmark. (net/netip keeps such a list for the same reason.)
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(goBin, "build", "-gcflags=-m", ".", "./internal/grammar").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	got := map[string]bool{}
	re := regexp.MustCompile(`: can inline (\S+)`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		name := m[1]
		if i := strings.IndexByte(name, '['); i >= 0 {
			name = name[:i] // a generic function, under any instantiation
		}
		got[name] = true
	}
	want := []string{
		// The lexer and the builder, once a line.
		"(*lexer).find",
		"isSpace",
		"isSpaceTab",
		"trimSpace",
		"(*lexer).lineTo",
		"(*builder).current",
		"indexFallback",
		"(*builder).fileOffset",
		"cutAnchor",
		"probesPay",
		// The grammar, once a byte or a token.
		"Lower",
		"IsSpace",
		"IsTokenByte",
		"TrimLeftSpace",
		"LeadingSpace",
		"MayStartKey",
		"grammar.IsToken",
		"IsGlobalAgent",
		"AgentToken",
		"HasPrefixFold",
		"grammar.CompareFold",
		"IsHex",
		"IsLowerHex",
		"Upper",
		// The answer, once a rule or a query.
		"ruleKey",
		"precedence",
		"orderOf",
		"(*Robots).Allowed",
		"keyHolds",
		"rule.allows",
		"urlPath.key",
		"schemeLen",
		"(*form).word",
		"(*form).hasWords",
		"(*pathFilter).admits",
		"(*groupIndex).rule",
		"(*groupIndex).heads",
		"(*groupIndex).dirs",
		"literalMatch",
		// A wildcard pattern's probes, once a word of the pattern.
		"zeroBytes",
		"byteBits",
		"wordMap",
	}
	for _, name := range want {
		if !got[name] {
			t.Errorf("%s is no longer inlinable (%s/%s)", name, runtime.GOOS, runtime.GOARCH)
		}
	}
}
