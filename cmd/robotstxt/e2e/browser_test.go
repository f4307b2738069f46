package e2e

import (
	"bufio"
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
	"regexp"
	"strings"
	"testing"
	"time"
)

var screenshotCopy = flag.String("screenshot", "", "also write the screenshot of the tester page to `FILE`, such as ../../../docs/serve.png")

// findChromium returns the path of Chromium, or skips the test (fails it
// when the environment variable CI is set).
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found; CI must install the Debian package chromium (.ci/browser does)")
	}
	t.Skip("chromium not found: install the Debian package chromium to run the browser test")
	return ""
}

// buildCommand builds robotstxt from the parent directory.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "robotstxt")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServe runs "robotstxt serve" on a free loopback port and returns the
// page's URL. The server is stopped with an interrupt when the test ends,
// and must then exit with status 0.
func startServe(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("robotstxt serve printed no address; stderr: %s", stderr.String())
	}
	url := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/`).FindString(line)
	if url == "" {
		cmd.Process.Kill()
		t.Fatalf("robotstxt serve printed %q, want its address; stderr: %s", line, stderr.String())
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("robotstxt serve after an interrupt: %v, want exit status 0; stderr: %s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("robotstxt serve did not stop on an interrupt")
		}
	})
	return url
}

// row is a rendered verdict, as the table shows it.
type row struct {
	Verdict, URL, Why string
}

// verdicts reads the verdict table from the page.
func verdicts(ctx context.Context, p *page) ([]row, error) {
	var rows []row
	err := p.eval(ctx, `[...document.querySelectorAll("#verdicts tbody tr")].map(tr => ({
		Verdict: tr.cells[0].textContent, URL: tr.cells[1].textContent, Why: tr.cells[2].textContent}))`, &rows)
	return rows, err
}

// highlighted returns the number and text of the highlighted line.
func highlighted(ctx context.Context, p *page) (num, text string, err error) {
	var hl struct{ Num, Text string }
	err = p.eval(ctx, `(() => {
		const li = document.querySelectorAll("#lines li.hl");
		if (li.length !== 1) return {Num: String(li.length) + " highlighted lines", Text: ""};
		return {Num: li[0].dataset.line, Text: li[0].querySelector(".text").textContent};
	})()`, &hl)
	return hl.Num, hl.Text, err
}

// run clicks Test and waits for the answer of that run to be rendered.
func run(ctx context.Context, p *page) error {
	var before string
	if err := p.eval(ctx, `document.body.dataset.runs || "0"`, &before); err != nil {
		return err
	}
	if err := p.click(ctx, "#test"); err != nil {
		return err
	}
	return p.waitFor(ctx, fmt.Sprintf(`document.body.dataset.state !== "busy" &&
		document.body.dataset.started === document.body.dataset.runs &&
		Number(document.body.dataset.runs) > %s`, before))
}

const robots = `User-agent: Googlebot
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Disallow: drafts/

User-agent: *
Disallow: /
`

// TestTester starts Chromium once and drives the tester page through it.
func TestTester(t *testing.T) {
	chromium := findChromium(t)
	bin := buildCommand(t)
	var chromeLog bytes.Buffer
	b, err := startBrowser(chromium, filepath.Join(t.TempDir(), "profile"), &chromeLog)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("starting chromium: %v", err)
		}
		t.Skipf("chromium does not start (%v): install the Debian package chromium", err)
	}
	defer func() {
		if err := b.close(); err != nil && !isSignalExit(err) {
			t.Logf("chromium: %v", err)
		}
	}()
	t.Run("page", func(t *testing.T) { testPage(t, b, bin, &chromeLog) })
	t.Run("refuses loopback", func(t *testing.T) { testRefusesLoopback(t, b, bin, &chromeLog) })
	t.Run("usage", func(t *testing.T) { testUsage(t, b, bin, &chromeLog) })
}

// testPage drives the page as a person would: paste a file, choose an
// agent, list URLs, read the verdicts and the highlighted deciding line,
// open the shared link, then fetch a robots.txt by URL.
func testPage(t *testing.T, b *browser, bin string, chromeLog *bytes.Buffer) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /cart/\nNoindex: /drafts/\n")
	}))
	defer site.Close()
	base := startServe(t, bin, "-allow-private")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fail := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%v\nchromium's output:\n%s", err, chromeLog.String())
		}
	}

	p, err := b.newPage(ctx, 1280, 900)
	fail(err)
	fail(p.navigate(ctx, base))
	// The page opens with an example and tests it at once.
	fail(p.waitFor(ctx, `document.body.dataset.runs === "1" && document.body.dataset.state === "done"`))

	// Paste a file, choose the agent, list the URLs.
	fail(p.replaceText(ctx, "#robots", robots))
	fail(p.replaceText(ctx, "#agent", "Googlebot"))
	fail(p.replaceText(ctx, "#urls", "https://example.com/private/x\n/private/press/a.html\n/report.pdf\n/drafts/b\nnot a url\n"))
	fail(run(ctx, p))

	got, err := verdicts(ctx, p)
	fail(err)
	want := []row{
		{"disallowed", "https://example.com/private/x", "line 2: Disallow: /private/"},
		{"allowed", "/private/press/a.html", "line 3: Allow: /private/press/"},
		{"disallowed", "/report.pdf", "line 4: Disallow: /*.pdf$"},
		{"allowed", "/drafts/b", "no rule matched"},
		{"error", "not a url", `"not a url" is neither an absolute URL nor a path starting with '/'`},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verdicts after pasting:\n got %q\nwant %q", got, want)
	}
	// The first URL is selected: its deciding line is highlighted.
	num, text, err := highlighted(ctx, p)
	fail(err)
	if num != "2" || text != "Disallow: /private/" {
		t.Errorf("highlighted line = %s %q, want 2 \"Disallow: /private/\"", num, text)
	}
	// Clicking another verdict highlights its line.
	fail(p.click(ctx, `#verdicts tbody tr[data-index="2"]`))
	num, text, err = highlighted(ctx, p)
	fail(err)
	if num != "4" || text != "Disallow: /*.pdf$" {
		t.Errorf("after clicking the third verdict, highlighted line = %s %q, want 4 \"Disallow: /*.pdf$\"", num, text)
	}
	// The lint finding of line 5 is shown next to it.
	var finding string
	fail(p.eval(ctx, `document.querySelector("#L5 .finding.error")?.textContent || ""`, &finding))
	if !strings.Contains(finding, `pattern "drafts/" can never match`) {
		t.Errorf("line 5's finding = %q, want the never-matching pattern", finding)
	}

	shot, err := p.screenshot(ctx)
	fail(err)
	if !bytes.HasPrefix(shot, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot is not a PNG (%d bytes)", len(shot))
	}
	path := filepath.Join(dir, "tester.png")
	fail(os.WriteFile(path, shot, 0o644))
	t.Logf("screenshots: %s (%d bytes), and tester-fetch.png beside it", path, len(shot))
	if *screenshotCopy != "" {
		fail(os.WriteFile(*screenshotCopy, shot, 0o644))
	}

	// The state is in the page's URL: opening it elsewhere shows the same.
	var link string
	fail(p.eval(ctx, `location.href`, &link))
	if !strings.Contains(link, "#robots=") || !strings.Contains(link, "agent=Googlebot") {
		t.Fatalf("page URL %q holds no state", link)
	}
	q, err := b.newPage(ctx, 1280, 900)
	fail(err)
	fail(q.navigate(ctx, link))
	fail(q.waitFor(ctx, `document.body.dataset.runs === "1" && document.body.dataset.state === "done"`))
	shared, err := verdicts(ctx, q)
	fail(err)
	if fmt.Sprint(shared) != fmt.Sprint(want) {
		t.Errorf("verdicts from the shared link:\n got %q\nwant %q", shared, want)
	}
	fail(q.close(ctx))
	fail(p.front(ctx))

	// Fetch a robots.txt by URL.
	fail(p.click(ctx, "#tab-fetch"))
	fail(p.replaceText(ctx, "#fetch-url", site.URL+"/"))
	fail(p.replaceText(ctx, "#urls", site.URL+"/cart/1\n"+site.URL+"/drafts/x\n"))
	fail(run(ctx, p))
	got, err = verdicts(ctx, p)
	fail(err)
	want = []row{
		{"disallowed", site.URL + "/cart/1", "line 2: Disallow: /cart/"},
		{"allowed", site.URL + "/drafts/x", "no rule matched"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verdicts after fetching:\n got %q\nwant %q", got, want)
	}
	var info string
	fail(p.eval(ctx, `document.querySelector("#fetch-info").innerText`, &info))
	for _, w := range []string{site.URL + "/robots.txt", "status\t200", "rules\tparsed"} {
		if !strings.Contains(info, w) {
			t.Errorf("fetch table %q does not show %q", info, w)
		}
	}
	fail(p.eval(ctx, `document.querySelector("#L3 .finding.error")?.textContent || ""`, &finding))
	if !strings.Contains(finding, "noindex lines in robots.txt are read by no major search engine") {
		t.Errorf("line 3's finding after fetching = %q, want the noindex error", finding)
	}
	shot, err = p.screenshot(ctx)
	fail(err)
	fail(os.WriteFile(filepath.Join(dir, "tester-fetch.png"), shot, 0o644))
	var fetchLink string
	fail(p.eval(ctx, `location.hash`, &fetchLink))
	if !strings.Contains(fetchLink, "fetch=") {
		t.Errorf("page URL fragment after fetching = %q, want the URL fetched", fetchLink)
	}

	// An unreachable robots.txt: RFC 9309 disallows everything, and the
	// page says why.
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	fail(p.replaceText(ctx, "#fetch-url", closedURL+"/"))
	fail(p.replaceText(ctx, "#urls", closedURL+"/a\n"))
	fail(run(ctx, p))
	var problems string
	fail(p.eval(ctx, `document.querySelector("#problems").hidden ? "" : document.querySelector("#problems").textContent`, &problems))
	if !strings.Contains(problems, "robots.txt unreachable") || !strings.Contains(problems, "RFC 9309 has crawlers disallow everything") {
		t.Errorf("problems shown for an unreachable robots.txt = %q", problems)
	}
	got, err = verdicts(ctx, p)
	fail(err)
	if len(got) != 1 || got[0].Verdict != "disallowed" {
		t.Errorf("verdicts for an unreachable robots.txt = %q, want one disallowed", got)
	}
	fail(p.close(ctx))
}

// testRefusesLoopback checks, through the page, that a server started
// without -allow-private does not fetch from a loopback address.
func testRefusesLoopback(t *testing.T, b *browser, bin string, chromeLog *bytes.Buffer) {
	base := startServe(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := b.newPage(ctx, 1280, 900)
	if err == nil {
		err = p.navigate(ctx, base+"#fetch=http://127.0.0.1:9/&agent=Googlebot&urls=")
	}
	if err == nil {
		err = p.waitFor(ctx, `document.body.dataset.state === "error"`)
	}
	var problems string
	if err == nil {
		err = p.eval(ctx, `document.querySelector("#problems").textContent`, &problems)
	}
	if err == nil {
		err = p.close(ctx)
	}
	if err != nil {
		t.Fatalf("%v\nchromium's output:\n%s", err, chromeLog.String())
	}
	if !strings.Contains(problems, "127.0.0.1 is a loopback address") || !strings.Contains(problems, "-allow-private") {
		t.Errorf("problems shown = %q, want the loopback address refused", problems)
	}
}

// isSignalExit reports whether err is the exit of a process ended by a
// signal, as Chromium's helpers sometimes are on quitting.
func isSignalExit(err error) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == -1
}
