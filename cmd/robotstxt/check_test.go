package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// runCLI runs the command in process and returns its exit status and
// output.
func runCLI(args []string, stdin string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestHelpCommand checks that "help check" prints check's help, as
// "check -h" does, and that "version" names the build.
func TestHelpCommand(t *testing.T) {
	for _, cmd := range []string{"check", "lint", "fetch", "serve"} {
		code, got, _ := runCLI([]string{"help", cmd}, "")
		_, want, _ := runCLI([]string{cmd, "-h"}, "")
		if code != exitOK || got != want || !strings.Contains(got, "robotstxt "+cmd) {
			t.Errorf("help %s: exit %d, output %.60q; want check -h's (%.60q)", cmd, code, got, want)
		}
	}
	if code, _, _ := runCLI([]string{"help", "nope"}, ""); code != exitFailure {
		t.Errorf("help nope: exit %d, want %d", code, exitFailure)
	}
	code, got, _ := runCLI([]string{"version"}, "")
	if code != exitOK || !strings.HasPrefix(got, "robotstxt ") || !strings.Contains(got, "go1.") {
		t.Errorf("version: exit %d, %q", code, got)
	}
}

// TestCheckAgreesWithNormalizeURL is the CLI's side of the URL seam (issue
// 17 item 2): for random raw URLs, check's verdict is the core's answer on
// the URL as NormalizeURL writes it, the form package fetch asks about and
// sends, not on the raw URL.
func TestCheckAgreesWithNormalizeURL(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /ü/\nDisallow: /a%20b\nAllow: /a%20b/ok\nDisallow: /%C3%A9\nDisallow: /q?x=%3C\n"
	r := robotstxt.Parse([]byte(robots))
	pieces := []string{"ü", "%c3%bc", "%C3%BC", "a", " ", "%20", "b", "/", "é", "%c3%a9", "ok", "q", "?x=", "<", "%3c"}
	var urls []string
	for i := range 400 {
		u := "https://example.com/"
		for j := range 1 + i%5 {
			u += pieces[(i*7+j*13+i/5)%len(pieces)]
		}
		urls = append(urls, u)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte(robots), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := runCLI(append([]string{"check", "-file", file}, urls...), "")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(urls) {
		t.Fatalf("%d answers for %d URLs; stderr: %s", len(lines), len(urls), errOut)
	}
	differ := 0
	for i, u := range urls {
		want := r.Allowed("Foobot", robotstxt.NormalizeURL(u))
		got := strings.HasPrefix(lines[i], "allowed ")
		if got != want {
			t.Errorf("check %q: %q, but the core says allowed=%v for %q", u, lines[i], want, robotstxt.NormalizeURL(u))
		}
		if r.Allowed("Foobot", u) != want {
			differ++
		}
	}
	if differ < 20 {
		t.Errorf("only %d URLs are answered otherwise raw; the generator misses the point", differ)
	}
}

// TestCheckLargeFileReadsWhatCounts checks that check keeps only the first
// 500 KiB of a large file, what crawlers read, and says where it stops.
func TestCheckLargeFileReadsWhatCounts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	body := "User-agent: *\nDisallow: /a/\n" + strings.Repeat("# padding line\n", 10<<20/15) + "Disallow: /z/\n"
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := readFileSource(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(src.report.Lines); n > 512000/15+2 {
		t.Errorf("%d lines diagnosed: more than the first 500 KiB was read", n)
	}
	if !strings.Contains(src.cut, "the file is "+strconv.Itoa(len(body))+" bytes") {
		t.Errorf("warning %q does not give the file's size %d", src.cut, len(body))
	}
	code, out, _ := runCLI([]string{"check", "-file", file, "/a/x", "/z/x"}, "")
	if code != exitNegative || !strings.Contains(out, "allowed     /z/x") {
		t.Errorf("exit %d, %q: want /a/x disallowed and /z/x allowed, its rule being past 500 KiB", code, out)
	}
}

// documentedAllowed is the core's answer for agent's group as the crawler
// documents it (crawlers.Group: AdsBot-Google ignores "*").
func documentedAllowed(r *robotstxt.Robots, agent, u string) bool {
	g, _ := crawlers.Group(r, agent)
	return g.Allowed(u)
}

// TestCheckAgentProperty is the CLI's side of the identity seam (issue 17
// item 6): for agents and headers of every shape (the crawlers table's
// published headers and tokens, tokens with versions, made-up headers),
// check refuses with exit status 2 exactly when the core cannot name a
// group with what it was given, and otherwise prints the core's answer for
// the token the core finds: never the "*" group's answer for a header.
func TestCheckAgentProperty(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nUser-agent: Storebot-Google\nUser-agent: ClaudeBot\nAllow: /\nDisallow: /private/\n"
	r := robotstxt.Parse([]byte(robots))
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte(robots), 0o644); err != nil {
		t.Fatal(err)
	}
	var agents, headers []string
	for _, c := range crawlers.All() {
		agents = append(agents, c.Token, c.Token+"/1.0", strings.ToLower(c.Token))
		if c.UserAgent != "" {
			agents = append(agents, c.UserAgent)
			headers = append(headers, c.UserAgent)
		}
	}
	agents = append(agents, "*", "Foo Bar", "", "Mozilla/5.0 (X11; Linux x86_64)")
	headers = append(headers, "Foobot/1.0", "Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0")
	const u = "https://example.com/page"
	for _, a := range agents {
		code, out, errOut := runCLI([]string{"check", "-file", file, "-agent", a, u}, "")
		if a != "*" && !robotstxt.ValidAgent(a) {
			if code != exitFailure || out != "" {
				t.Errorf("check -agent %q: exit %d, %q; want refused with exit 2", a, code, out)
			}
			if tok := robotstxt.ProductToken(a); tok != "" && !strings.Contains(errOut, "use -agent "+tok) {
				t.Errorf("check -agent %q: %q does not suggest -agent %s", a, errOut, tok)
			}
			continue
		}
		if want := documentedAllowed(r, a, u); strings.HasPrefix(out, "allowed ") != want {
			t.Errorf("check -agent %q: %q, core says allowed=%v", a, out, want)
		}
	}
	for _, h := range headers {
		code, out, _ := runCLI([]string{"check", "-file", file, "-user-agent", h, u}, "")
		tok := robotstxt.ProductToken(h)
		if tok == "" {
			if code != exitFailure {
				t.Errorf("check -user-agent %q: exit %d, want 2: no token can be read", h, code)
			}
			continue
		}
		if want := documentedAllowed(r, tok, u); strings.HasPrefix(out, "allowed ") != want {
			t.Errorf("check -user-agent %q: %q, core says allowed=%v for %s", h, out, want, tok)
		}
	}
}

// TestCheckDocumentedFallback is the case of #32: with "User-agent:
// Googlebot" + "Disallow: /x" and "User-agent: *" + "Disallow: /",
// Googlebot-Image follows Googlebot's group as Google documents, and check
// says so; Googlebot-Image's token alone would be fully blocked.
func TestCheckDocumentedFallback(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	os.WriteFile(file, []byte("User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n"), 0o644)
	code, out, stderr := runCLI([]string{"check", "-file", file, "-agent", "Googlebot-Image", "/y", "/x"}, "")
	if code != exitNegative || !strings.Contains(out, "allowed     /y") || !strings.Contains(out, "disallowed  /x") {
		t.Errorf("exit %d, %q: want /y allowed and /x disallowed by Googlebot's group", code, out)
	}
	if !strings.Contains(stderr, "it obeys the group for Googlebot") {
		t.Errorf("stderr %q does not say Googlebot's group decides", stderr)
	}
}
