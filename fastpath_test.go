package robotstxt

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// The parser's fast paths must answer exactly as the general code they
// stand in for; these tests hold them to it.

// checkQuickDirective fails when quickDirective takes raw and answers other
// than the general path, split then classifyKey. It reports whether the quick
// path took the line.
func checkQuickDirective(t *testing.T, raw []byte) bool {
	t.Helper()
	if bytes.IndexByte(raw, 0) >= 0 || bytes.IndexByte(raw, '#') >= 0 {
		return false // the parser asks quickDirective only about such lines
	}
	kind, n := quickDirective(raw)
	if n == 0 {
		return false
	}
	key, value := raw[:n], directiveValue(raw[n+1:])
	wkey, wvalue, _, wok := splitLine(raw)
	wkind, _ := grammar.ClassifyKey(wkey)
	if !wok || kind != wkind || !bytes.Equal(key, wkey) || !bytes.Equal(value, wvalue) {
		t.Errorf("quickDirective(%q) = %v %q %q, general path %v %v %q %q", raw, kind, key, value, wok, wkind, wkey, wvalue)
	}
	return true
}

func TestQuickDirective(t *testing.T) {
	tests := []struct {
		reason string
		line   string
		quick  bool // whether the quick path takes the line
	}{
		{"§2 the usual Disallow", "Disallow: /x", true},
		{"§2 keys are case-insensitive", "dIsAlLoW:/x", true},
		{"§1 value trimmed", "Disallow: \t/x \v", true},
		{"§1 empty value", "Disallow:", true},
		{"§2 the usual Allow", "Allow: /x", true},
		{"§2 Allow, upper case", "ALLOW: /", true},
		{"§2 too short for the quick path", "Allow:/", false},
		{"§2 the usual User-agent", "User-agent: Googlebot", true},
		{"§2 User-agent, upper case", "USER-AGENT:*", true},
		{"§2 '_' is not '-'", "User_agent: x", false},
		{"§2 the usual Sitemap", "Sitemap: https://example.com/s.xml", true},
		{"§2 prefix 'Disallowed' is general", "Disallowed: /x", false},
		{"§2 prefix 'Allowance' is general", "Allowance: /x", false},
		{"§2 'User-agents' is general", "User-agents: x", false},
		{"§1 space before the colon is general", "Disallow : /x", false},
		{"§1 no colon is general", "Disallow /x", false},
		{"§1 leading space is general", " Disallow: /x", false},
		{"§2 typo is general", "Dissallow: /x", false},
		{"§2 other keys are general", "Crawl-delay: 5", false},
		{"§2 site-map is general", "Site-map: /s", false},
		{"§2 letters that fold onto others", "Disa\x0cLow: /x", false},
		{"§2 '@' folds to '`', no letter", "@llow: /x", false},
		{"§2 'allow' then no colon", "Allow /x:y", false},
		{"§2 user-agent missing its colon", "User-agent *", false},
	}
	for _, tt := range tests {
		if got := checkQuickDirective(t, []byte(tt.line)); got != tt.quick {
			t.Errorf("%s: quick path took %q: %v, want %v", tt.reason, tt.line, got, tt.quick)
		}
	}
}

// TestQuickDirectiveCorpus holds the quick path to the general one on every
// line of the real corpus.
func TestQuickDirectiveCorpus(t *testing.T) {
	dir := needShared(t, "corpus/real")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	quick, all := 0, 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lx := newLexer(data)
		for {
			raw, ok := lx.next()
			if !ok {
				break
			}
			all++
			if checkQuickDirective(t, raw) {
				quick++
			}
		}
	}
	t.Logf("the quick path took %d of %d lines", quick, all)
}

func TestScanValue(t *testing.T) {
	check := func(reason string, value []byte) {
		t.Helper()
		escape, star := scanValue(value)
		if want := grammar.NeedsEscape(value); escape != want {
			t.Errorf("%s: scanValue(%q) escape = %v, needsEscape says %v", reason, value, escape, want)
		}
		if want := bytes.IndexByte(value, '*') >= 0; star != want {
			t.Errorf("%s: scanValue(%q) star = %v, want %v", reason, value, star, want)
		}
	}
	for _, tt := range []struct{ reason, value string }{
		{"§3 empty value", ""},
		{"§3 plain path", "/a/b/c.html"},
		{"§3 plain path, eight bytes", "/abcdefg"},
		{"§5 '*' in the first word", "/*.pdf$"},
		{"§5 '*' in the tail", "/abcdefgh*"},
		{"§3 upper-case escape is kept", "/a%C3%A9"},
		{"§3 lower-case escape is normalised", "/a%c3%a9"},
		{"§3 lower-case escape in the tail", "/abcdefgh%e9"},
		{"§3 '%' that is no escape", "/100%"},
		{"§3 non-ASCII byte in the first word", "/caf\xc3\xa9"},
		{"§3 non-ASCII byte in the tail", "/abcdefgh\xff"},
		{"§3 0x80 next to '%' and '*'", "/\x80%*"},
	} {
		check(tt.reason, []byte(tt.value))
	}
	// A short value read with the bytes after it, which must not count:
	// a value inside a line, as the parse passes them.
	for _, v := range []string{"", "/", "/a", "/abcdef", "/abcdefg"} {
		line := []byte(v + "%*\xff%*\xff%*\xff")
		check("§3 short value followed by '%', '*' and a high byte", line[:len(v)])
	}
	// Random values over the bytes that matter, at every length up to 40.
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("/a%*Ee9\x80\xff$")
	for range 20000 {
		v := make([]byte, rng.IntN(41))
		for i := range v {
			v[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check("random value", v)
	}
}

// TestParseAtTheEnd holds files whose one rule ends the file, or ends its
// line with each kind of line break, a comment or a NUL, against the slow
// reference. Each is parsed from a slice whose room past its end holds '*',
// '%', a high byte and line breaks, none of which may count (SPEC §1: the
// file is its bytes): scanValue reads a short value with one load of the
// bytes after it, the lexer looks past a CR for an LF, and quickDirective
// reads a line's first word. (Where scanValue's load meets a '*', '%' or
// high byte that is not the value's, only speed would suffer: the rule
// would be scanned as a wildcard or escaped, to the same pattern; TestScanValue
// holds scanValue itself exact.)
func TestParseAtTheEnd(t *testing.T) {
	values := []string{"", "/", "/a", "/a*", "/*b", "/abcdef", "/abcdefg", "/abcdefgh", "/a%41", "/%e9",
		"/\xc3\xa9", "/a$", "/x/index.html", "/abcdefghijklmnop*q"}
	endings := []struct{ reason, s string }{
		{"§1 the file ends with the value", ""},
		{"§1 LF", "\n"},
		{"§1 a lone CR", "\r"},
		{"§1 CR LF", "\r\n"},
		{"§1 CR CR LF: the line, then a blank one", "\r\r\n"},
		{"§1 a comment after the value", " # c*%"},
		{"§1 a NUL ends the line's content", "\x00*%"},
		{"§1 trailing whitespace", " \t"},
	}
	keys := []string{"Disallow: ", "Allow:", "allow ", "DISALLOW:"}
	starts := []string{"User-agent: *\n", "User-agent: *\r", "\xef\xbb\xbfUser-agent: *\r\n"}
	const room = "*%\xff\r\n#*%\xff\n"
	for _, e := range endings {
		for _, v := range values {
			for _, key := range keys {
				for _, start := range starts {
					file := start + key + v + e.s
					body := append([]byte(file), room...)[:len(file)]
					r, slow := Parse(body), slowParse([]byte(file))
					checkFile(t, []byte(file), r, slow)
					for _, u := range []string{"/", v, v + "x", "/a", "/abcdefgh", "/x/", "/ab%2A", "/a*b"} {
						checkDecide(t, []byte(file), r, slow, "a", u)
					}
				}
			}
		}
	}
}
