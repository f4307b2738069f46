package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// hostileLog has a crawler breaking the rules with site-controlled text
// that must stay text: markup in the path and in the User-Agent, and a
// JSON line whose bytes would drive a terminal.
const hostileLog = `66.249.66.1 - - [02/Mar/2026:10:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 50 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.1 - - [02/Mar/2026:10:00:05 +0000] "GET /private/<script>alert(1)</script> HTTP/1.1" 404 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; <script>alert(2)</script>)"
1.2.3.4 - - [02/Mar/2026:10:00:06 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"
1.2.3.4 - - [02/Mar/2026:10:00:06 +0000] "GET /<b>bold HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"
1.2.3.4 - - [02/Mar/2026:10:00:07 +0000] "GET /open HTTP/1.1" 200 5 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"
not a log line ` + "\x1b]0;owned\x07\x1b[2J" + `
`

func writeSite(t *testing.T) (dir, robots, log string) {
	t.Helper()
	dir = t.TempDir()
	robots = filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\nDisallow: /<b>bold\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log = filepath.Join(dir, "access.log")
	if err := os.WriteFile(log, []byte(hostileLog), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, robots, log
}

// TestLogsCommand runs "robotsaudit logs" and reads its outputs: the rows,
// the summary, the report, and what reaches the terminal.
func TestLogsCommand(t *testing.T) {
	dir, robots, log := writeSite(t)
	rows, sum, report := filepath.Join(dir, "rows.csv"), filepath.Join(dir, "summary.csv"), filepath.Join(dir, "report.html")
	var stdout, stderr bytes.Buffer
	code := run([]string{"logs", "-robots", robots, "-o", rows, "-summary", sum, "-report", report, "-progress", "never", log}, &stdout, &stderr)
	if code != 1 { // one line does not parse
		t.Fatalf("exit status %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if bytes.ContainsAny(stderr.Bytes(), "\x1b\x07") {
		t.Errorf("control characters from the log reached the terminal:\n%q", stderr.String())
	}
	if !strings.Contains(stderr.String(), `access.log:6: `) || !strings.Contains(stderr.String(), `\x1b]0;owned\a\x1b[2J`) {
		t.Errorf("the malformed line 5 is not reported, escaped:\n%s", stderr.String())
	}
	read := func(name string) [][]string {
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
	r := read(rows)
	if len(r) != 4 || r[1][8] != "Googlebot" || r[1][11] != "violation" || r[2][8] != "GPTBot" || r[1][5] != "/private/<script>alert(1)</script>" {
		t.Errorf("rows:\n%v", r)
	}
	s := read(sum)
	if len(s) != 3 || s[1][0] != "GPTBot" && s[1][0] != "Googlebot" {
		t.Errorf("summary:\n%v", s)
	}
	html, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(html, []byte("<script>alert")) || bytes.Contains(html, []byte("<b>bold")) {
		t.Errorf("the report holds the log's markup unescaped")
	}
	if !bytes.Contains(html, []byte("&lt;script&gt;alert(1)&lt;/script&gt;")) {
		t.Errorf("the report does not show the path as text")
	}
	for _, remote := range []string{"http://", "https://", "src=", "@import", "url("} {
		if remote == "https://" || remote == "http://" {
			// Links may appear as text (a crawler's documentation); no
			// element loads one.
			continue
		}
		if bytes.Contains(html, []byte(remote)) {
			t.Errorf("the report loads something: %q", remote)
		}
	}
}

// TestLogsCommandStdin reads a gzip-less log from stdin when no log is
// named, and writes rows to stdout.
func TestLogsCommandUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"logs"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "-robots is required") {
		t.Errorf("no -robots: exit %d, stderr %s", code, stderr.String())
	}
	_, robots, _ := writeSite(t)
	stderr.Reset()
	if code := run([]string{"logs", "-robots", robots, "-log-format", "apache", "/dev/null"}, &stdout, &stderr); code != 2 {
		t.Errorf("an unknown log format: exit %d, stderr %s", code, stderr.String())
	}
}

// TestLogsCommandRanges: -ranges reads a verify snapshot and judges
// identity as robotstxt verify -offline does: Googlebot in Google's file is
// verified; one outside it is unknown, not forged, since Google also
// documents reverse DNS (https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot),
// which is not checked offline; GPTBot outside OpenAI's file is forged,
// OpenAI documenting only the file (https://platform.openai.com/docs/bots),
// and counted apart as forged GPTBot. A bad snapshot is a usage error.
func TestLogsCommandRanges(t *testing.T) {
	dir, robots, _ := writeSite(t)
	ranges := filepath.Join(dir, "ranges.json")
	os.WriteFile(ranges, []byte(`{"fetched": "2026-03-01T00:00:00Z", "files": {
"https://developers.google.com/static/crawling/ipranges/common-crawlers.json": {"prefixes": [{"ipv4Prefix": "66.249.66.0/27"}]},
"https://openai.com/gptbot.json": {"prefixes": [{"ipv4Prefix": "20.171.206.0/24"}]}}}`), 0o644)
	log := filepath.Join(dir, "four.log")
	os.WriteFile(log, []byte(`66.249.66.1 - - [02/Mar/2026:10:00:00 +0000] "GET /private/a HTTP/1.1" 200 5 "-" "Googlebot/2.1"
6.6.6.6 - - [02/Mar/2026:10:00:01 +0000] "GET /private/b HTTP/1.1" 200 5 "-" "Googlebot/2.1"
20.171.206.7 - - [02/Mar/2026:10:00:02 +0000] "GET /a HTTP/1.1" 200 5 "-" "GPTBot/1.1"
6.6.6.7 - - [02/Mar/2026:10:00:03 +0000] "GET /b HTTP/1.1" 200 5 "-" "GPTBot/1.1"
`), 0o644)
	sum := filepath.Join(dir, "summary.csv")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"logs", "-robots", robots, "-ranges", ranges, "-summary", sum, "-progress", "never", log}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, _ := os.Open(sum)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs[1:] {
		got = append(got, r[0]+" verified="+r[12]+" forged="+r[13]+" unknown="+r[14])
	}
	sort.Strings(got)
	want := "GPTBot verified=1 forged=0 unknown=0|Googlebot verified=1 forged=0 unknown=1|forged GPTBot verified=0 forged=1 unknown=0"
	if strings.Join(got, "|") != want {
		t.Errorf("summary %v, want %s (header %v)", got, want, recs[0])
	}

	for _, bad := range []string{filepath.Join(dir, "missing.json"), log} {
		stderr.Reset()
		if code := run([]string{"logs", "-robots", robots, "-ranges", bad, "-progress", "never", log}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "-ranges") {
			t.Errorf("-ranges %s: exit %d, stderr %s; want 2 naming -ranges", bad, code, stderr.String())
		}
	}
	stderr.Reset()
	if code := run([]string{"logs", "-robots", robots, "-ip-ranges", "Google=" + ranges, "-progress", "never", log}, &stdout, &stderr); code != 2 {
		t.Errorf("the removed -ip-ranges: exit %d, want 2", code)
	}
}
