package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/lint"
)

// TestCutAsLint is the seam between the CLI, which keeps only the first
// grammar.MaxBodySize bytes of a file it reads (check, lint, serve), and
// lint.Diagnose given the whole file: for random files around the limit,
// the CLI's warning names the line and byte that lint's ErrTooLarge
// finding names, in its words; and the limit is the one fetch reads to.
func TestCutAsLint(t *testing.T) {
	if fetch.MaxBodySize != grammar.MaxBodySize {
		t.Fatalf("fetch reads %d bytes, the CLI keeps %d", fetch.MaxBodySize, grammar.MaxBodySize)
	}
	rng := rand.New(rand.NewPCG(500, 1024))
	lines := []string{"Disallow: /a\n", "Allow: /b/c/d\n", "# comment\n", "\n", "\r\n", "User-agent: *\r", strings.Repeat("x", 3000) + "\n"}
	for i := range 60 {
		var b bytes.Buffer
		b.WriteString("User-agent: *\n")
		for b.Len() < grammar.MaxBodySize-4000+rng.IntN(8000) {
			b.WriteString(lines[rng.IntN(len(lines))])
		}
		full := b.Bytes()
		if rng.IntN(4) == 0 { // the limit at a line's end or start
			cut := bytes.LastIndexByte(full[:grammar.MaxBodySize], '\n')
			full = append(full[:cut+1:cut+1], bytes.Repeat([]byte("Disallow: /z\n"), 40)...)
		}
		src, err := readSource("f", bytes.NewReader(full), int64(len(full)))
		if err != nil {
			t.Fatal(err)
		}
		var want *lint.Error
		for _, e := range lint.Diagnose(full).Findings {
			if errors.Is(e, lint.ErrTooLarge) {
				want = e
			}
		}
		switch {
		case want == nil && src.cut == "":
		case want == nil || src.cut == "":
			t.Fatalf("file %d, %d bytes: the CLI warns %q; lint finds %v", i, len(full), src.cut, want)
		case src.cut != fmt.Sprintf("f:%d: warning: %s", want.Line, want.Msg):
			t.Fatalf("file %d, %d bytes: the CLI warns\n%s\nlint finds\nf:%d: warning: %s", i, len(full), src.cut, want.Line, want.Msg)
		}
	}
}

// TestTesterPageCutsAtTheLimit: the tester page, which cuts a pasted file
// before it sends it (page/app.js, maxRobots), cuts it where the server
// and every other part do: grammar.MaxBodySize.
func TestTesterPageCutsAtTheLimit(t *testing.T) {
	js, err := pageFiles.ReadFile("page/app.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^const maxRobots = ([0-9 *]+);`).FindSubmatch(js)
	if m == nil {
		t.Fatal("page/app.js: no \"const maxRobots = N;\"")
	}
	n := 1
	for _, f := range strings.Split(string(m[1]), "*") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatalf("page/app.js: maxRobots = %s: %v", m[1], err)
		}
		n *= v
	}
	if n != grammar.MaxBodySize {
		t.Errorf("page/app.js cuts a file at %d bytes, the server at %d", n, grammar.MaxBodySize)
	}
}
