package robotstxt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTrimSpace(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   string
	}{
		{"§1 nothing to trim", "Disallow: /x", "Disallow: /x"},
		{"§1 empty", "", ""},
		{"§1 one space", " ", ""},
		{"§1 all whitespace, longer than a word", strings.Repeat(" ", 17), ""},
		{"§1 one space in front", " a", "a"},
		{"§1 seven spaces: short of a word", "       a", "a"},
		{"§1 eight spaces: one word", "        a", "a"},
		{"§1 nine spaces: a word and a byte", "         a", "a"},
		{"§1 sixteen spaces: two words", strings.Repeat(" ", 16) + "<div>", "<div>"},
		{"§1 a tab inside the first word", "    \t   a", "a"},
		{"§1 a tab after a word of spaces", "        \ta", "a"},
		{"§1 VT, FF, CR are whitespace too", "        \v\f\ra", "a"},
		{"§1 trailing whitespace", "a \t\v", "a"},
		{"§1 both ends", strings.Repeat(" ", 12) + "a b" + strings.Repeat(" ", 9), "a b"},
		{"§1 a high byte is no whitespace", "        \xa0a", "\xa0a"},
		{"§1 NUL is no whitespace", "        \x00", "\x00"},
	}
	for _, tt := range tests {
		if got := trimSpace([]byte(tt.in)); string(got) != tt.want {
			t.Errorf("%s: trimSpace(%q) = %q, want %q", tt.reason, tt.in, got, tt.want)
		}
	}
}

func TestLexerLines(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   []string
	}{
		{"§1 an empty file has one empty line", "", []string{""}},
		{"§1 LF", "a\nb\n", []string{"a", "b", ""}},
		{"§1 CR LF", "a\r\nb\r\n", []string{"a", "b", ""}},
		{"§1 CR alone", "a\rb\rc", []string{"a", "b", "c"}},
		{"§1 LF CR is two breaks", "a\n\rb", []string{"a", "", "b"}},
		{"§1 mixed endings", "a\r\nb\nc\rd", []string{"a", "b", "c", "d"}},
		{"§1 a CR inside a line of a CR LF file", "a\rb\r\nc\r\n", []string{"a", "b", "c", ""}},
		{"§1 no final break", "a\nb", []string{"a", "b"}},
		{"§1 blank lines", "\n\n\n", []string{"", "", "", ""}},
		{"§1 the byte order mark is skipped", "\xef\xbb\xbfa\nb", []string{"a", "b"}},
		{"§1 a partial mark is skipped", "\xef\xbba", []string{"a"}},
		{"§1 NUL and '#' do not end a line", "a\x00b#c\nd", []string{"a\x00b#c", "d"}},
		{"§1 plain lines, then each of CR, '#' and NUL after some", "a\nb\nc#d\ne\nf\rg\nh\x00i\nj\n#\n\x00\n\r\nk", []string{"a", "b", "c#d", "e", "f", "g", "h\x00i", "j", "#", "\x00", "", "k"}},
		{"§1 a '#' on the last line, no break after", "a\nb\n#c", []string{"a", "b", "#c"}},
		{"§1 a CR right after plain lines", "a\nb\n\rc", []string{"a", "b", "", "c"}},
	}
	for _, tt := range tests {
		got, bad := lexAll([]byte(tt.in))
		if bad != "" {
			t.Errorf("%s: %s", tt.reason, bad)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("%s: lines of %q = %q, want %q", tt.reason, tt.in, got, tt.want)
		}
	}
}

// slowLines is the reference the lexer is held to: the lines of data
// (SPEC §1), split at CR, LF and CR LF one byte at a time, after any prefix
// of the byte order mark.
func slowLines(data []byte) []string {
	for _, c := range []byte("\xef\xbb\xbf") {
		if len(data) == 0 || data[0] != c {
			break
		}
		data = data[1:]
	}
	var lines []string
	start := 0
	for i := 0; i < len(data); i++ {
		if c := data[i]; c == '\n' || c == '\r' {
			lines = append(lines, string(data[start:i]))
			if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(lines, string(data[start:]))
}

// lexAll returns the lines the lexer makes of data as parseLines reads
// them, again with a lexer that searches each CR when the first was not
// sound, and what is wrong with the first line whose number or NUL and '#'
// hints are wrong, or with the first reading's soundness, or "".
func lexAll(data []byte) (lines []string, bad string) {
	lx := newLexer(data)
	lines, bad = lexWith(&lx)
	if bad != "" {
		return lines, bad
	}
	// Unsound exactly when a CR ends no CR LF (slowLines ends a line at
	// each CR, and drops an LF right after one).
	lone := bytes.Count(data, []byte{'\r'}) != bytes.Count(data, []byte("\r\n"))
	if lx.sound() == lone && lx.crs >= 0 {
		return lines, fmt.Sprintf("sound() = %v with lone CRs %v", lx.sound(), lone)
	}
	if lx.sound() {
		return lines, ""
	}
	lx = newLexer(data)
	lx.searchEachCR()
	lines, bad = lexWith(&lx)
	if bad == "" && !lx.sound() {
		bad = "unsound after searchEachCR"
	}
	return lines, bad
}

// lexWith returns the lines lx makes, and what is wrong as lexAll says.
func lexWith(lx *lexer) (lines []string, bad string) {
	for {
		raw, ok := lx.next()
		if !ok {
			return lines, ""
		}
		lines = append(lines, string(raw))
		switch {
		case lx.num != len(lines):
			return lines, fmt.Sprintf("line %q numbered %d, want %d", raw, lx.num, len(lines))
		case bytes.IndexByte(raw, 0) >= 0 && !lx.mayNUL:
			return lines, fmt.Sprintf("line %q has a NUL, mayNUL false", raw)
		case bytes.IndexByte(raw, '#') >= 0 && !lx.mayHash:
			return lines, fmt.Sprintf("line %q has a '#', mayHash false", raw)
		}
	}
}

// checkLexer holds the lexer's lines, their numbers and its NUL and '#'
// hints to slowLines.
func checkLexer(t *testing.T, data []byte) {
	t.Helper()
	want := slowLines(data)
	got, bad := lexAll(data)
	if bad != "" {
		t.Fatalf("lines of %q: %s", data, bad)
	}
	if len(got) != len(want) || strings.Join(got, "\x00|") != strings.Join(want, "\x00|") {
		t.Fatalf("lines of %q = %q, want %q", data, got, want)
	}
}

// TestLexerAgreesWithSlow holds the lexer to slowLines over random files
// of line breaks, NULs, '#', tabs and other control bytes, with lines of
// every length up to 300 bytes, so that breaks (a CR LF too) fall at every
// offset of a word.
func TestLexerAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	bytesOf := []byte("a#\x00\t\x0d\x0e\x0f\x0c\x80\xff ")
	for range 20000 {
		var data []byte
		if rng.IntN(8) == 0 {
			data = append(data, "\xef\xbb\xbf"[:rng.IntN(4)]...)
		}
		for range rng.IntN(12) {
			n := rng.IntN(300)
			if rng.IntN(2) == 0 {
				n = rng.IntN(20)
			}
			for range n {
				c := byte('a')
				if rng.IntN(6) == 0 {
					c = bytesOf[rng.IntN(len(bytesOf))]
				}
				data = append(data, c)
			}
			data = append(data, [][]byte{[]byte("\n"), []byte("\r\n"), []byte("\r"), nil}[rng.IntN(4)]...)
		}
		checkLexer(t, data)
	}
}

// TestLexerEveryOffset holds the lexer to slowLines with each byte that
// ends or cuts a line at every offset of a line of up to 24 bytes (three
// words), the line starting at every offset of an eight-byte word, in
// files whose first CR ends a CR LF and in files whose first CR may not,
// the line last in the file or not: the edges a scan that reads a word at
// a time, or keeps what it found across lines, must get right. The bytes
// around are letters or high bytes, and a byte's twin with the high bit
// set (0x8a for LF) must end nothing.
func TestLexerEveryOffset(t *testing.T) {
	marks := []struct {
		reason string
		mark   string
	}{
		{"§1 LF ends a line", "\n"},
		{"§1 CR ends a line", "\r"},
		{"§1 CR LF ends a line once", "\r\n"},
		{"§1 LF CR is two breaks", "\n\r"},
		{"§1 NUL cuts a line's content, and ends no line", "\x00"},
		{"§1 '#' starts a comment, and ends no line", "#"},
		{"§1 tab, VT and FF end no line", "\t\v\f"},
		{"§1 LF, CR, NUL and '#' with the high bit set end nothing", "\x8a\x8d\x80\xa3"},
	}
	for _, m := range marks {
		t.Run(m.reason, func(t *testing.T) {
			for _, end := range []string{"\n", "\r\n"} { // the first line's end
				for shift := range 8 {
					head := strings.Repeat("h", shift) + end
					for size := range 25 {
						for at := 0; at <= size; at++ {
							for _, fill := range []byte{'a', 0xff} {
								data := append([]byte(head), bytes.Repeat([]byte{fill}, at)...)
								data = append(data, m.mark...)
								data = append(data, bytes.Repeat([]byte{fill}, size-at)...)
								checkLexer(t, data)
								checkLexer(t, append(data, "\nz"...))
							}
						}
					}
				}
			}
		})
	}
}

// TestLexerCRModes pins how the lexer reads CRs (see lexer): a file whose
// first CR ends a CR LF is read in one pass with every CR counted, and
// found unsound, to be read again, exactly when some CR ends no CR LF.
func TestLexerCRModes(t *testing.T) {
	tests := []struct {
		reason  string
		data    string
		counted bool // read with lines ending at LF alone
		sound   bool // the first reading is the file's lines
	}{
		{"§1 no CR: nothing to search or count", "a\nb\n", false, true},
		{"§1 CR LF endings: counted, one search a line", "a\r\nb\r\nc", true, true},
		{"§1 CR LF after a byte order mark", "\xef\xbb\xbfa\r\nb", true, true},
		{"§1 a lone CR first: each CR searched for", "a\rb\r\nc", false, true},
		{"§1 a lone CR after CR LF: read again", "a\r\nb\rc\r\n", true, false},
		{"§1 CR CR LF is a lone CR and a CR LF", "a\r\nb\r\r\nc", true, false},
		{"§1 LF CR is two breaks: the CR is lone", "a\r\nb\n\rc", true, false},
		{"§1 a CR ending the file is lone", "a\r\nb\r", true, false},
		{"§1 a CR inside a comment ends its line too", "a\r\n# b\rc\r\n", true, false},
		{"§1 a CR before a NUL", "a\r\nb\r\x00\r\n", true, false},
	}
	for _, tt := range tests {
		lx := newLexer([]byte(tt.data))
		for {
			if _, ok := lx.next(); !ok {
				break
			}
		}
		if got := lx.crs >= 0; got != tt.counted {
			t.Errorf("%s: %q read with CRs counted = %v, want %v", tt.reason, tt.data, got, tt.counted)
		}
		if lx.sound() != tt.sound {
			t.Errorf("%s: %q sound() = %v, want %v", tt.reason, tt.data, lx.sound(), tt.sound)
		}
		checkLexer(t, []byte(tt.data))
	}
}

// TestParseReadsAgainAfterLoneCR holds Parse, which reads a file again
// when its first reading met a lone CR (see lexer.sound), to the parse of
// the same lines with LF endings: the same binary form, on random files of
// mixed line breaks.
func TestParseReadsAgainAfterLoneCR(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	again := 0
	for range 5000 {
		data := randRobots(rng)
		lx := newLexer(data)
		for {
			if _, ok := lx.next(); !ok {
				break
			}
		}
		if !lx.sound() {
			again++
		}
		got, err := Parse(data).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse([]byte(strings.Join(slowLines(data), "\n"))).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Parse(%q) differs from the parse of its lines with LF endings", data)
		}
	}
	if again == 0 {
		t.Fatal("no file was read again: the test covers nothing")
	}
	t.Logf("%d files of 5000 read again", again)
}

// FuzzLexer holds the lexer to slowLines on any bytes.
func FuzzLexer(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n\x00#d"))
	f.Add([]byte(strings.Repeat("x", 63) + "\r\n" + strings.Repeat("y", 200) + "\r\nz"))
	f.Fuzz(func(t *testing.T, data []byte) { checkLexer(t, data) })
}

// TestTwoTokens holds twoTokens, which reads a line of at most 64 bytes as
// a bitmap, to a plain walk over random trimmed lines of spaces, tabs and
// other whitespace, of every length up to 80, so that runs fall at every
// offset of a word and across the 64-byte bound.
func TestTwoTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	for range 50000 {
		n := 1 + rng.IntN(80)
		line := make([]byte, n)
		for i := range line {
			line[i] = "a \t\v\x00\x89b"[rng.IntN(7)]
		}
		line = trimSpace(line)
		if len(line) == 0 {
			continue
		}
		wantSep, wantStart, wantOK := -1, 0, false
		for i, c := range line {
			if isSpaceTab(c) {
				wantSep = i
				break
			}
		}
		if wantSep >= 0 {
			wantStart = wantSep
			for wantStart < len(line) && isSpaceTab(line[wantStart]) {
				wantStart++
			}
			wantOK = !bytes.ContainsAny(line[wantStart:], " \t")
		}
		sep, vstart, ok := twoTokens(line)
		if ok != wantOK || ok && (sep != wantSep || vstart != wantStart) {
			t.Fatalf("twoTokens(%q) = %d, %d, %v; want %d, %d, %v", line, sep, vstart, ok, wantSep, wantStart, wantOK)
		}
	}
}

func TestSplitLine(t *testing.T) {
	tests := []struct {
		reason     string
		line       string
		key, value string
		ok         bool
	}{
		{"§1 key and value", "Disallow: /x", "Disallow", "/x", true},
		{"§1 no space after the colon", "Disallow:/x", "Disallow", "/x", true},
		{"§1 whitespace before the colon", "Disallow \t\v: /x", "Disallow", "/x", true},
		{"§1 whitespace after the colon", "Disallow:\t \f/x", "Disallow", "/x", true},
		{"§1 whitespace around the line", " \tDisallow : /x \r", "Disallow", "/x", true},
		{"§1 empty value", "Disallow:", "Disallow", "", true},
		{"§1 value of whitespace", "Disallow:  \t ", "Disallow", "", true},
		{"§1 whitespace inside the value stays", "Sitemap: a b  c", "Sitemap", "a b  c", true},
		{"§1 empty key", " : /x", "", "", false},
		{"§1 key of whitespace", "\v: /x", "", "", false},
		{"§1 a second colon belongs to the value", "a: b: c", "a", "b: c", true},
		{"§1 whitespace for a missing colon", "Disallow \t /x", "Disallow", "/x", true},
		{"§1 VT before the separator is trimmed from the key", "Disallow\v /x", "Disallow", "/x", true},
		{"§1 VT after the separator is trimmed from the value", "Disallow \v/x", "Disallow", "/x", true},
		{"§1 three tokens are no line", "Disallow /x /y", "", "", false},
		{"§1 one token is no line", "Disallow", "", "", false},
		{"§1 comment only", "# Disallow: /x", "", "", false},
		{"§1 comment after the value", "Disallow: /x # y", "Disallow", "/x", true},
		{"§1 NUL ends the content", "Disallow: /x\x00y", "Disallow", "/x", true},
	}
	for _, tt := range tests {
		key, value, _, ok := splitLine([]byte(tt.line))
		if ok != tt.ok || string(key) != tt.key || string(value) != tt.value {
			t.Errorf("%s: splitLine(%q) = %q %q %v, want %q %q %v", tt.reason, tt.line, key, value, ok, tt.key, tt.value, tt.ok)
		}
	}
}
