package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	jpegenc "image/jpeg"
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
	"github.com/robotstxt-go/robotstxt/fetch"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// example is the repository's example robots.txt, as the README uses it.
const example = "../../testdata/example.txt"

// fakeFetcher answers from a table instead of the network, and records
// the User-Agent header sent. A URL that is not in the table goes to
// package fetch, whose transport fails, so that bad URLs are refused as
// they are for real.
type fakeFetcher map[string]*fetched

func (f fakeFetcher) Fetch(ctx context.Context, header, url string) (*fetched, error) {
	if res, ok := f[url]; ok {
		res := *res
		res.UserAgent = header
		return &res, nil
	}
	client := &http.Client{Transport: failingTransport{}}
	if _, err := fetch.Fetch(ctx, client, header, url); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s is not in the test table", url)
}

type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in this test")
}

// fetchedBody is a 200 answer with body.
func fetchedBody(robotsURL string, body []byte) *fetched {
	return &fetched{RobotsURL: robotsURL, Status: 200, Body: body, Bytes: len(body), Robots: robotstxt.Parse(body), TTL: 24 * time.Hour}
}

func fakeSites() fakeFetcher {
	body := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nSitemap: https://example.com/sitemap.xml\n")
	example := fetchedBody("https://example.com/robots.txt", body)
	example.Redirects = []string{"https://www.example.com/robots.txt", "https://example.com/robots.txt"}
	return fakeFetcher{
		"https://example.com/private/x": example,
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
		"https://busy.example/page": {
			RobotsURL: "https://busy.example/robots.txt",
			Status:    503,
			Robots:    robotstxt.FromStatus(503, nil),
			TTL:       5 * time.Minute,
		},
		"https://walled.example/page": {
			RobotsURL: "https://walled.example/robots.txt",
			Status:    403,
			Robots:    robotstxt.FromStatus(403, nil),
			TTL:       24 * time.Hour,
		},
		"https://html.example/page":  fetchedBody("https://html.example/robots.txt", []byte(htmlPage)),
		"https://noisy.example/page": fetchedBody("https://noisy.example/robots.txt", []byte(noisyRobots)),
	}
}

// htmlPage is what a server that answers every path with its home page
// sends for /robots.txt.
const htmlPage = `<!DOCTYPE html>
<html><head><title>Welcome</title></head>
<body><p>Disallow: nothing here</p></body></html>
`

// noisyRobots has an error, a warning and an info.
const noisyRobots = "User-agent: MJ12bot\nDisallow: /\n\nUser-agent: *\nDisallow: private/\nCrawl-delay: 2\nNoindex: /drafts/\n"

// manyErrors is a file with 40 patterns that can never match, and another
// error between them: lint shows the first few of a kind.
func manyErrors() string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Disallow: https://example.com/offer-%d\n", i)
		if i == 20 {
			b.WriteString("Noindex: /drafts/\n")
		}
	}
	return b.String()
}

// jpeg returns a small JPEG image, as a server that answers /robots.txt
// with an image sends.
func jpeg() string {
	img := image.NewGray(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var b bytes.Buffer
	if err := jpegenc.Encode(&b, img, nil); err != nil {
		panic(err)
	}
	return b.String()
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
		{"check_bad_agent", "an agent with a version names no group: refused with the token to use, exit status 2, not answered for '*' (issue 17 item 6)",
			[]string{"check", "-file", example, "-agent", "Googlebot/2.1", "/private/press/x"}, ""},
		{"check_header_agent", "a whole User-Agent header as -agent: refused, the hint names the crawler's token inside it (issue 17 item 6)",
			[]string{"check", "-file", example, "-agent", "Mozilla/5.0 (compatible; Googlebot/2.1)", "/private/press/x"}, ""},
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

		// check and fetch do not hide what lint knows (HTML, UTF-16, binary, errors).
		{"check_html", "an HTML page read as robots.txt: the error first, answers that say no rule was read, exit status 4",
			[]string{"check", "-", "/private/x"}, htmlPage},
		{"check_utf16", "a UTF-16 file (as store.usps.com serves): what it would hold as UTF-8, exit status 4",
			[]string{"check", "-file", "../../testdata/lint/utf16.txt", "/store/ajax/x"}, ""},
		{"check_jpeg", "an image read as robots.txt",
			[]string{"check", "-", "/a"}, jpeg()},
		{"check_url_html", "-url: the errors of the body fetched come first",
			[]string{"check", "-url", "https://html.example/page"}, ""},
		{"check_not_url", "text that is neither a URL nor a path is an error, not \"allowed\"; the other URLs are answered",
			[]string{"check", "-file", example, "not a url", "/docs/", "example.com/private/x"}, ""},
		{"check_not_url_json", "with -json the bad URL gets an object with an error",
			[]string{"check", "-json", "-", "not a url", "/a"}, "User-agent: *\nDisallow: /a\n"},
		{"check_url_busy", "a 503 is unreachable: disallow all, exit status 3",
			[]string{"check", "-url", "https://busy.example/page"}, ""},
		{"check_large", "content past 500 KiB is ignored, as crawlers ignore it, and check says so before the answers",
			[]string{"check", "-", "/a/x", "/z/x"}, "User-agent: *\nDisallow: /a/\n" + strings.Repeat("# "+strings.Repeat("-", 97)+"\n", 5200) + "Disallow: /z/\n"},
		{"check_many", "thousands of identical errors are summarised before the answers",
			[]string{"check", "-", "/offer-1"}, manyErrors()},
		{"fetch_html", "an HTML body: the error as a lint row before the verdict, exit status 4",
			[]string{"fetch", "https://html.example/page"}, ""},
		{"fetch_json_findings", "-json carries every finding",
			[]string{"fetch", "-json", "-agent", "Googlebot", "https://noisy.example/page"}, ""},
		{"fetch_findings", "the errors as lint rows, and a count of all findings",
			[]string{"fetch", "-agent", "Googlebot", "https://noisy.example/page"}, ""},
		{"fetch_user_agent", "-user-agent sets the header sent, and fetch shows it",
			[]string{"fetch", "-agent", "Googlebot", "-user-agent", "Mozilla/5.0 (compatible; Googlebot/2.1)", "https://example.com/private/x"}, ""},
		{"fetch_user_agent_only", "-user-agent alone: the agent is the token found in it, one identity as in package fetch",
			[]string{"fetch", "-user-agent", "Mozilla/5.0 (compatible; Googlebot/2.1)", "https://example.com/private/x"}, ""},
		{"fetch_identity_conflict", "-agent and -user-agent naming two crawlers are refused",
			[]string{"fetch", "-agent", "Googlebot", "-user-agent", "Mozilla/5.0 (compatible; Foobot/1.0)", "https://example.com/private/x"}, ""},
		{"check_unreadable_header", "a -user-agent with no readable token and no -agent: refused, saying to give -agent",
			[]string{"check", "-file", example, "-user-agent", "Mozilla/5.0 (X11; Linux x86_64)", "/private/press/x"}, ""},
		{"check_normalized", "the URL is asked as a crawler sends it: a raw ü meets Disallow: /ü/, a space is %20 (issue 17 item 2)",
			[]string{"check", "-", "https://example.com/ü/a", "https://example.com/a b", "https://example.com/my docs/x"}, "User-agent: *\nDisallow: /ü/\nDisallow: /a%20b\nDisallow: /my docs/\n"},
		{"fetch_403", "a 403 allows everything, and may be a firewall refusing the header",
			[]string{"fetch", "https://walled.example/page"}, ""},
		{"fetch_no_scheme", "a host without a scheme: one prefix, and the URL meant",
			[]string{"fetch", "localhost:8081/x"}, ""},
		{"fetch_ftp", "only http and https can be fetched",
			[]string{"fetch", "ftp://example.com/x"}, ""},
		{"fetch_help", "fetch -h documents the exit statuses and -user-agent",
			[]string{"fetch", "-h"}, ""},

		// lint: what webmasters get wrong, each on a file of its own.
		{"lint_noindex", "noindex and nofollow lines, which no search engine reads",
			[]string{"lint", "../../testdata/lint/noindex.txt"}, ""},
		{"lint_crawl_delay", "crawl-delay: Google ignores it, noted once",
			[]string{"lint", "../../testdata/lint/crawl-delay.txt"}, ""},
		{"lint_site_closed", "User-agent: * with Disallow: / closes the site",
			[]string{"lint", "../../testdata/lint/site-closed.txt"}, ""},
		{"lint_agent_digits", "MJ12bot is read as MJ, and the message says what follows",
			[]string{"lint", "../../testdata/lint/agent-digits.txt"}, ""},
		{"lint_sitemap", "relative and empty sitemaps are errors",
			[]string{"lint", "../../testdata/lint/sitemap-relative.txt"}, ""},
		{"lint_nbsp", "a pattern that starts with a non-breaking space: delete it",
			[]string{"lint", "../../testdata/lint/nbsp.txt"}, ""},
		{"lint_host_pattern", "a pattern that starts with a host: the path without it",
			[]string{"lint", "../../testdata/lint/host-pattern.txt"}, ""},
		{"lint_many", "the first 5 findings of a kind, then one line with the count and the line range",
			[]string{"lint", "-"}, manyErrors()},
		{"lint_many_all", "-all prints every finding",
			[]string{"lint", "-all", "-"}, manyErrors()},
		{"lint_help", "lint -h documents -all",
			[]string{"lint", "-h"}, ""},

		// ai
		{"ai_help", "ai -h says what a cell answers and from which signals",
			[]string{"ai", "-h"}, ""},
		{"ai_noarg", "ai asks for one URL",
			[]string{"ai"}, ""},

		// serve
		{"serve_help", "serve -h documents the API and what keeps it safe",
			[]string{"serve", "-h"}, ""},
		{"serve_arg", "serve takes no arguments",
			[]string{"serve", "now"}, ""},
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
user-agent  Googlebot
status      200
redirects   1: %[1]s/moved/robots.txt
bytes       42
rules       parsed: 1 group, 1 rule, 0 sitemaps
crawl-delay none
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
	code = run([]string{"check", "-url", srv.URL + "/", "-user-agent", "Mozilla/5.0 (compatible; Foobot/1.0)", "/private/y", "/public"},
		strings.NewReader(""), &stdout, &stderr)
	want = "allowed     /private/y  no rule matched\nallowed     /public  no rule matched\n"
	if code != exitOK || stdout.String() != want {
		t.Errorf("robotstxt check -url: exit %d, stdout %q, want 0, %q", code, stdout.String(), want)
	}
	mu.Lock()
	if last := agents[len(agents)-1]; last != "Mozilla/5.0 (compatible; Foobot/1.0)" {
		t.Errorf("check -url -user-agent sent User-Agent %q", last)
	}
	mu.Unlock()

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

// TestExitStatuses pins the one text that documents the exit statuses: it
// names each status constant, and the help of the command and of every
// subcommand prints it whole (the CLI writes its exit statuses once).
func TestExitStatuses(t *testing.T) {
	for _, code := range []int{exitOK, exitNegative, exitFailure, exitUnreachable, exitNotRobots} {
		if !strings.Contains(exitStatuses, fmt.Sprintf("\n\t%d  ", code)) {
			t.Errorf("exitStatuses does not describe status %d", code)
		}
	}
	for _, args := range [][]string{{"-h"}, {"check", "-h"}, {"lint", "-h"}, {"fetch", "-h"}, {"serve", "-h"}} {
		var stdout, stderr bytes.Buffer
		run(args, strings.NewReader(""), &stdout, &stderr)
		if !strings.Contains(stdout.String(), exitStatuses) {
			t.Errorf("robotstxt %s: the help does not print exitStatuses", strings.Join(args, " "))
		}
	}
}
