package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var reportShot = flag.String("report-screenshot", "", "also write a screenshot of robotsaudit's log report to `FILE`")

// reportSite is a site of two robots.txt versions and a log of five days
// with crawlers that break them, and text that must stay text: markup in a
// path, a User-Agent and a rule.
func reportSite(t *testing.T, dir string) (manifest, log string) {
	t.Helper()
	files := map[string]string{
		"v0.txt": "User-agent: *\nDisallow: /private/\nDisallow: /<b>bold\n\nUser-agent: GPTBot\nDisallow: /\n",
		"v1.txt": "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\nCrawl-delay: 5\n",
		"history.tsv": "time\tstatus\tfile\n" +
			"2026-03-01T00:00:00Z\t200\tv0.txt\n" +
			"2026-03-03T12:00:00Z\t200\tv1.txt\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uas := []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
		"CCBot/2.0 (https://commoncrawl.org/faq/) <script>alert('ua')</script>",
		"Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0",
	}
	paths := []string{"/", "/private/a", "/drafts/b", "/<b>bold", "/private/<script>alert('path')</script>", "/robots.txt", "/about"}
	var b strings.Builder
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2000 {
		t := start.Add(time.Duration(i) * 5 * 24 * time.Hour / 2000)
		ua := uas[i%len(uas)]
		path := paths[(i/len(uas))%len(paths)]
		fmt.Fprintf(&b, "192.0.2.%d - - [%s] \"GET %s HTTP/1.1\" 200 100 \"-\" \"%s\"\n", i%250, t.Format("02/Jan/2006:15:04:05 -0700"), path, ua)
	}
	log = filepath.Join(dir, "access.log")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "history.tsv"), log
}

func readCSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestLogReport opens the HTML report of "robotsaudit logs" in headless
// Chromium, from a file: it renders with no console error and loads
// nothing, the markup of the log and the site shows as text, and the
// numbers it shows are the summary CSV's and the rows CSV's.
func TestLogReport(t *testing.T) {
	chromium := findChromium(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "robotsaudit")
	build := exec.Command("go", "build", "-o", bin, "./audit/cmd/robotsaudit")
	build.Dir = filepath.Join("..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	manifest, log := reportSite(t, dir)
	rows, summary, report := filepath.Join(dir, "rows.csv"), filepath.Join(dir, "summary.csv"), filepath.Join(dir, "report.html")
	cmd := exec.Command(bin, "logs", "-robots", manifest, "-o", rows, "-summary", summary, "-report", report, "-progress", "never", log)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("robotsaudit logs: %v\n%s", err, out)
	}

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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fail := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%v\nchromium's output:\n%s", err, chromeLog.String())
		}
	}
	p, err := b.newPage(ctx, 1280, 900)
	fail(err)
	defer p.close(context.Background())
	// Errors and console errors are recorded from the first script on.
	fail(p.call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": `
		window.__errors = [];
		window.addEventListener("error", e => window.__errors.push(String(e.message || e.type)), true);
		window.addEventListener("unhandledrejection", e => window.__errors.push(String(e.reason)));
		const ce = console.error, cw = console.warn;
		console.error = (...a) => { window.__errors.push(a.join(" ")); ce(...a); };
		console.warn = (...a) => { window.__errors.push(a.join(" ")); cw(...a); };`}, nil))
	fail(p.navigate(ctx, "file://"+report))
	fail(p.waitFor(ctx, `document.readyState === "complete" && document.body && document.body.dataset.ready === "1"`))

	var got struct {
		Errors    []string
		Resources int
		Scripts   int
		Injected  int
		Summary   [][]string
		Header    []string
		Lines     map[string]string
		Rules     []int
		Sections  int
		PathText  bool
		UAText    bool
		RuleText  bool
	}
	fail(p.eval(ctx, `({
		Errors: window.__errors,
		Resources: performance.getEntriesByType("resource").length,
		Scripts: document.scripts.length,
		Injected: [...document.querySelectorAll("b")].filter(e => e.textContent.startsWith("bold")).length +
			[...document.scripts].filter(e => e.textContent.includes("alert")).length,
		Header: [...document.querySelectorAll("#summary thead th")].map(th => th.textContent),
		Summary: [...document.querySelectorAll("#summary tbody tr")].map(tr => [...tr.cells].map(td => td.textContent)),
		Lines: Object.fromEntries([...document.querySelectorAll("#time-chart polyline")].map(l => [l.dataset.crawler, l.dataset.total])),
		Rules: [...document.querySelectorAll("#rules-chart rect")].map(r => Number(r.dataset.count)),
		Sections: document.querySelectorAll("h3[id^=crawler-]").length,
		PathText: document.body.textContent.includes("/private/<script>alert('path')</script>"),
		UAText: document.body.textContent.includes("<script>alert('ua')</script>"),
		RuleText: document.body.textContent.includes("/<b>bold"),
	})`, &got))
	if len(got.Errors) > 0 {
		t.Errorf("errors on the console: %q", got.Errors)
	}
	if got.Resources != 0 {
		t.Errorf("the report loaded %d resources; it must need none", got.Resources)
	}
	if got.Scripts != 1 || got.Injected != 0 {
		t.Errorf("%d scripts, %d elements from the log's markup: site text was not escaped", got.Scripts, got.Injected)
	}
	if !got.PathText || !got.UAText || !got.RuleText {
		t.Errorf("the markup of a path, a User-Agent or a rule is not shown as text: %v %v %v", got.PathText, got.UAText, got.RuleText)
	}

	// The table is the summary CSV, cell for cell.
	sum := readCSV(t, summary)
	if strings.Join(got.Header, ",") != strings.Join(sum[0], ",") {
		t.Errorf("the table's columns %v, the CSV's %v", got.Header, sum[0])
	}
	if len(got.Summary) != len(sum)-1 {
		t.Fatalf("the table has %d crawlers, the CSV %d", len(got.Summary), len(sum)-1)
	}
	for i, row := range got.Summary {
		if strings.Join(row, "|") != strings.Join(sum[i+1], "|") {
			t.Errorf("crawler %d: the table shows %v, the CSV has %v", i, row, sum[i+1])
		}
	}
	if got.Sections != len(sum)-1 {
		t.Errorf("%d crawler sections for %d crawlers", got.Sections, len(sum)-1)
	}
	// The violations the page shows are the rows the CSV holds.
	perCrawler := map[string]int{}
	total := 0
	for _, r := range readCSV(t, rows)[1:] {
		if r[11] == "violation" {
			perCrawler[r[8]]++
			total++
		}
	}
	if total == 0 || len(got.Lines) != len(perCrawler) {
		t.Errorf("the chart draws %v, the rows hold %v", got.Lines, perCrawler)
	}
	vcol := -1
	for i, h := range sum[0] {
		if h == "violations" {
			vcol = i
		}
	}
	for _, r := range sum[1:] {
		if n, _ := strconv.Atoi(r[vcol]); n != perCrawler[r[0]] {
			t.Errorf("%s: %s violations in the summary, %d rows", r[0], r[vcol], perCrawler[r[0]])
		}
		if perCrawler[r[0]] > 0 && got.Lines[r[0]] != r[vcol] {
			t.Errorf("%s: the chart's total %q, the summary's %s", r[0], got.Lines[r[0]], r[vcol])
		}
	}
	bars := 0
	for _, n := range got.Rules {
		bars += n
	}
	if bars != total { // fewer than 15 rules: every one is drawn
		t.Errorf("the rules chart counts %d violations, the rows %d", bars, total)
	}
	if *reportShot != "" {
		png, err := p.screenshot(ctx)
		fail(err)
		fail(os.WriteFile(*reportShot, png, 0o644))
	}
}
