package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/robotstxt-go/robotstxt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// example is the repository's example robots.txt, as the README uses it.
const example = "../../testdata/example.txt"

// fakeFetcher answers from a table instead of the network.
type fakeFetcher map[string]*fetched

func (f fakeFetcher) Fetch(_ context.Context, _, url string) (*fetched, error) {
	if res, ok := f[url]; ok {
		return res, nil
	}
	return nil, fmt.Errorf("%q is not an absolute http or https URL", url)
}

func fakeSites() fakeFetcher {
	body := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nSitemap: https://example.com/sitemap.xml\n")
	return fakeFetcher{
		"https://example.com/private/x": {
			RobotsURL: "https://example.com/robots.txt",
			Status:    200,
			Redirects: []string{"https://www.example.com/robots.txt", "https://example.com/robots.txt"},
			Body:      body,
			Bytes:     len(body),
			Robots:    robotstxt.Parse(body),
			TTL:       24 * time.Hour,
		},
		"https://gone.example/page": {
			RobotsURL: "https://gone.example/robots.txt",
			Status:    404,
			Robots:    robotstxt.FromStatus(404, nil),
			TTL:       24 * time.Hour,
		},
		"https://down.example/page": {
			RobotsURL: "https://down.example/robots.txt",
			Robots:    robotstxt.FromStatus(0, nil),
			Err:       errors.New("dial tcp 127.0.0.1:9: connection refused"),
			TTL:       time.Hour,
		},
	}
}

// TestCommand runs the command in-process and compares its exit status and
// output with the golden file testdata/NAME.golden. Run with -update to
// rewrite them.
func TestCommand(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		args   []string
		stdin  string
	}{
		{"check", "the README's first command: verdicts, deciding lines, the index.html fallback, a typo key",
			[]string{"check", "-file", example, "-agent", "Googlebot",
				"https://example.com/private/x", "https://example.com/private/press/launch.html",
				"https://example.com/docs/", "https://example.com/docs/setup.html",
				"https://example.com/report.pdf", "https://example.com/tmp/a", "https://example.com/"}, ""},
		{"check_allowed", "exit status 0 when every URL is allowed",
			[]string{"check", "-file", example, "-agent", "Bingbot", "/docs/", "/drafts/x"}, ""},
		{"check_json", "one JSON object a line",
			[]string{"check", "-json", "-file", example, "-agent", "Googlebot", "/private/x", "/docs/", "/"}, ""},
		{"check_frontier", "URLs one a line from stdin, flags after the file",
			[]string{"check", "-file", example, "-agent", "BadBot"}, "https://example.com/a\n\n  https://example.com/style.css  \n"},
		{"check_stdin_robots", "robots.txt from stdin, URLs as arguments, flags anywhere",
			[]string{"check", "-", "/a/b", "/c", "-agent", "Foo"}, "User-agent: Foo\nDisallow: /a/\nDisallow:\n"},
		{"check_bad_agent", "an agent with a version names no group, and the command says so",
			[]string{"check", "-file", example, "-agent", "Googlebot/2.1", "/private/press/x"}, ""},
		{"check_no_robots", "the error says what to do",
			[]string{"check", "/a"}, ""},
		{"check_two_robots", "only one source of robots.txt",
			[]string{"check", "-file", example, "-", "/a"}, ""},
		{"check_stdin_no_urls", "stdin cannot hold both the file and the URLs",
			[]string{"check", "-"}, "User-agent: *\n"},
		{"check_missing_file", "an unreadable file is exit status 2",
			[]string{"check", "-file", "testdata/no-such-file.txt", "/a"}, ""},
		{"check_url", "-url fetches the site's robots.txt; with no URLs it checks that one",
			[]string{"check", "-url", "https://example.com/private/x"}, ""},
		{"check_url_other_site", "a URL on another site gets a warning: the file fetched does not apply to it",
			[]string{"check", "-url", "https://example.com/private/x", "https://example.com/private/x", "http://example.com/private/x", "/private/y"}, ""},
		{"check_url_404", "a 404 robots.txt allows everything",
			[]string{"check", "-url", "https://gone.example/page", "https://gone.example/page", "https://gone.example/x"}, ""},
		{"check_url_down", "an unreachable robots.txt disallows everything",
			[]string{"check", "-json", "-url", "https://down.example/page"}, ""},
		{"check_help", "-h shows examples and exits 0",
			[]string{"check", "-h"}, ""},
		{"check_bad_flag", "a wrong flag is named, with where to find help",
			[]string{"check", "-agnet", "A", "-file", example, "/"}, ""},
		{"lint", "compiler-style findings, exit 1 on errors",
			[]string{"lint", example}, ""},
		{"lint_lines", "what was seen on every line",
			[]string{"lint", "-lines", example}, ""},
		{"lint_json", "the whole report as JSON",
			[]string{"lint", "-json", "-lines", "-"}, "User-agent: Googlebot/2.1\nDisalow: /x\nDisallow /y\n\n# done\n"},
		{"lint_clean", "warnings only: exit status 0",
			[]string{"lint", "-"}, "User-agent: *\nDisallow: /a\nCrawl-delay: soon\n"},
		{"lint_no_file", "the error says what to do",
			[]string{"lint"}, ""},
		{"fetch", "what a crawler does: robots.txt URL, status, redirects, bytes, rules, cache, verdict",
			[]string{"fetch", "-agent", "Googlebot", "https://example.com/private/x"}, ""},
		{"fetch_json", "the same as JSON",
			[]string{"fetch", "-json", "https://example.com/private/x"}, ""},
		{"fetch_down", "a network failure is a result: disallow all",
			[]string{"fetch", "https://down.example/page"}, ""},
		{"fetch_relative", "a URL with no robots.txt is an error",
			[]string{"fetch", "/page"}, ""},
		{"help", "the top-level help lists commands and examples",
			[]string{"-h"}, ""},
		{"no_args", "no command: usage and exit status 2",
			nil, ""},
		{"unknown", "an unknown command says which exist",
			[]string{"chek"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			c := &cli{stdin: strings.NewReader(tt.stdin), stdout: &stdout, stderr: &stderr, fetcher: fakeSites()}
			code := c.run(tt.args)
			got := fmt.Sprintf("# %s\n$ robotstxt %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s",
				tt.reason, strings.Join(tt.args, " "), code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("robotstxt %s mismatch (-want +got):\n%s", strings.Join(tt.args, " "), diff)
			}
		})
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args   []string
		agent  string
		pos    []string
		reason string
	}{
		{[]string{"-agent", "A", "x", "y"}, "A", []string{"x", "y"}, "flags first"},
		{[]string{"x", "-agent", "A", "y"}, "A", []string{"x", "y"}, "flags between positional arguments"},
		{[]string{"-", "x"}, "", []string{"-", "x"}, `"-" is positional`},
		{[]string{"x", "--", "-agent", "A"}, "", []string{"x", "-agent", "A"}, `"--" ends the flags`},
		{nil, "", nil, "nothing"},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		agent := fs.String("agent", "", "")
		pos, err := parseFlags(fs, tt.args)
		if err != nil || *agent != tt.agent || !cmp.Equal(pos, tt.pos) {
			t.Errorf("parseFlags(%q) = %q, agent %q, %v; want %q, agent %q (%s)", tt.args, pos, *agent, err, tt.pos, tt.agent, tt.reason)
		}
	}
}

// TestHTTPFetch runs fetch and check -url against a server on 127.0.0.1,
// through package fetch: a redirect, the body read, the agent sent.
func TestHTTPFetch(t *testing.T) {
	var mu sync.Mutex
	var agents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/moved/robots.txt", http.StatusMovedPermanently)
		case "/moved/robots.txt":
			w.Header().Set("Cache-Control", "max-age=3600")
			fmt.Fprint(w, "User-agent: Googlebot\nDisallow: /private/\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	var stdout, stderr bytes.Buffer
	code := run([]string{"fetch", "-agent", "Googlebot", srv.URL + "/private/x"}, strings.NewReader(""), &stdout, &stderr)
	want := fmt.Sprintf(`url         %[1]s/private/x
robots.txt  %[1]s/robots.txt
status      200
redirects   1: %[1]s/moved/robots.txt
bytes       42
rules       parsed: 1 group, 1 rule, 0 sitemaps
cache       1h0m0s
agent       Googlebot
verdict     disallowed  line 2: Disallow: /private/
`, srv.URL)
	if diff := cmp.Diff(want, stdout.String()); code != exitNegative || diff != "" {
		t.Errorf("robotstxt fetch: exit %d, stderr %q, stdout mismatch (-want +got):\n%s", code, stderr.String(), diff)
	}
	mu.Lock()
	if len(agents) == 0 || agents[0] != "Googlebot" {
		t.Errorf("User-Agent headers sent: %q, want Googlebot", agents)
	}
	mu.Unlock()

	stdout.Reset()
	code = run([]string{"check", "-url", srv.URL + "/", "/private/y", "/public"}, strings.NewReader(""), &stdout, &stderr)
	want = "allowed     /private/y  no rule matched\nallowed     /public  no rule matched\n"
	if code != exitOK || stdout.String() != want {
		t.Errorf("robotstxt check -url: exit %d, stdout %q, want 0, %q", code, stdout.String(), want)
	}

	stdout.Reset()
	stderr.Reset()
	code = run([]string{"fetch", "ftp://" + strings.TrimPrefix(srv.URL, "http://") + "/x"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitFailure || !strings.Contains(stderr.String(), "robotstxt fetch: ") {
		t.Errorf("robotstxt fetch ftp://...: exit %d, stderr %q; want %d and an error", code, stderr.String(), exitFailure)
	}
}

// TestBinary builds the command and runs it once, as a user would.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "robotstxt")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "check", "-file", example, "-agent", "Googlebot", "https://example.com/private/x")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitNegative {
		t.Errorf("robotstxt check: %v, want exit status %d", err, exitNegative)
	}
	want := "disallowed  https://example.com/private/x  line 6: Disallow: /private/\n"
	if string(out) != want {
		t.Errorf("robotstxt check printed %q, want %q", out, want)
	}
}
