package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstxt-go/robotstxt/audit"
)

// writeDays writes four days of a site's log in UTC, one file a day, and
// its robots.txt history (a second version on the third day), and returns
// the manifest and the day files.
func writeDays(t *testing.T, dir string) (manifest string, days []string) {
	t.Helper()
	for name, body := range map[string]string{
		"v0.txt":      "User-agent: *\nDisallow: /private/\nCrawl-delay: 30\n",
		"v1.txt":      "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: GPTBot\nDisallow: /\n",
		"history.tsv": "time\tstatus\tfile\n2026-03-01T00:00:00Z\t200\tv0.txt\n2026-03-03T06:00:00Z\t200\tv1.txt\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type bot struct {
		ua    string
		every time.Duration
		fetch time.Duration // robots.txt every
	}
	bots := []bot{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 7 * time.Minute, 20 * time.Hour},
		{"Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", 11 * time.Minute, 30 * time.Hour},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", 13 * time.Minute, 0},
		{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", 17 * time.Second, 10 * time.Hour},
		{"Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", 5 * time.Minute, 0},
	}
	paths := []string{"/", "/private/a", "/drafts/b", "/about", "/blog/x"}
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	type req struct {
		t    time.Time
		line string
	}
	var reqs []req
	for bi, b := range bots {
		next := start
		for k := 0; ; k++ {
			at := start.Add(time.Duration(bi)*time.Second + time.Duration(k)*b.every)
			if at.After(start.Add(4 * 24 * time.Hour)) {
				break
			}
			path := paths[(k+bi)%len(paths)]
			if b.fetch > 0 && !at.Before(next) {
				path, next = "/robots.txt", at.Add(b.fetch)
			}
			reqs = append(reqs, req{at, fmt.Sprintf("203.0.113.%d - - [%s] \"GET %s HTTP/1.1\" 200 10 \"-\" \"%s\"\n", bi, at.Format("02/Jan/2006:15:04:05 -0700"), path, b.ua)})
		}
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return a.t.Compare(b.t) })
	files := map[string]*bytes.Buffer{}
	for _, r := range reqs {
		d := r.t.Format("2006-01-02")
		if files[d] == nil {
			files[d] = &bytes.Buffer{}
		}
		files[d].WriteString(r.line)
	}
	for d, b := range files {
		p := filepath.Join(dir, "logs", d+".log")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		days = append(days, p)
	}
	slices.Sort(days)
	return filepath.Join(dir, "history.tsv"), days
}

func readParquet[T any](t *testing.T, p string) []T {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[T](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return rows
}

// TestLogsClusterRecipe runs the README's per-day recipe for logs on a Dask
// LocalCluster of two worker processes: the rows of the parts are those of
// one run over all the days, and the README's DuckDB query over the parts'
// summaries gives that run's counts.
func TestLogsClusterRecipe(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import distributed").CombinedOutput(); err != nil {
		need(t, "Dask distributed (apt-get install -y python3-distributed)", fmt.Errorf("%v: %s", err, out))
	}
	bin := buildCommand(t)
	dir := t.TempDir()
	manifest, days := writeDays(t, dir)
	script := filepath.Join(dir, "logdays.py")
	os.WriteFile(script, []byte(recipe(t, "dask-logs")), 0o644)
	cmd := exec.Command(debianPython, append([]string{script, bin, manifest, filepath.Join(dir, "parts")}, days...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		need(t, "the Dask recipe", fmt.Errorf("%v:\n%s", err, out))
	}
	if !strings.Contains(string(out), "workers: 2") {
		t.Fatalf("the cluster did not start two workers:\n%s", out)
	}

	whole, wholeSum := filepath.Join(dir, "whole.parquet"), filepath.Join(dir, "whole-summary.parquet")
	if b, err := exec.Command(bin, append([]string{"logs", "-robots", manifest, "-workers", "1", "-progress", "never", "-o", whole, "-summary", wholeSum}, days...)...).CombinedOutput(); err != nil {
		t.Fatalf("one-machine run: %v\n%s", err, b)
	}
	key := func(rows []audit.LogRow) []string {
		var out []string
		for _, r := range rows {
			r.Input, r.Line = "", 0
			j, _ := json.Marshal(r)
			out = append(out, string(j))
		}
		slices.Sort(out)
		return out
	}
	want := key(readParquet[audit.LogRow](t, whole))
	var got []audit.LogRow
	parts, _ := filepath.Glob(filepath.Join(dir, "parts", "*.rows.parquet"))
	if len(parts) != len(days) {
		t.Fatalf("%d parts for %d days", len(parts), len(days))
	}
	for _, p := range parts {
		got = append(got, readParquet[audit.LogRow](t, p)...)
	}
	if len(want) == 0 || !slices.Equal(key(got), want) {
		t.Fatalf("the parts hold %d rows, the one-machine run %d; they differ", len(got), len(want))
	}

	duck := os.Getenv("ROBOTSAUDIT_DUCKDB")
	if duck == "" {
		need(t, "DuckDB for the query (set ROBOTSAUDIT_DUCKDB to a directory where `npm install @duckdb/node-api` was run)", fmt.Errorf("unset"))
	}
	q := filepath.Join(duck, "robotsaudit-query.mjs")
	os.WriteFile(q, []byte(`import { DuckDBInstance } from '@duckdb/node-api';
const c = await (await DuckDBInstance.create(':memory:')).connect();
console.log(JSON.stringify((await c.runAndReadAll(process.argv[2])).getRowObjectsJson()));
`), 0o644)
	node := exec.Command("node", q, recipe(t, "duckdb-logs"))
	node.Dir = dir
	res, err := node.Output()
	if err != nil {
		need(t, "node with @duckdb/node-api in "+duck, err)
	}
	var counts []struct {
		Crawler                                                            string
		Requests, Violations, Grace, No_robots_fetch, Crawl_delay_breaches string
		First_seen, Last_seen                                              string
	}
	if err := json.Unmarshal(res, &counts); err != nil {
		t.Fatalf("%v: %s", err, res)
	}
	sums := readParquet[audit.LogSummary](t, wholeSum)
	if len(counts) != len(sums) {
		t.Fatalf("DuckDB gives %d crawlers, the one-machine run %d:\n%s", len(counts), len(sums), res)
	}
	for i, s := range sums {
		c := counts[i]
		w := fmt.Sprintln(s.Crawler, s.Requests, s.Violations, s.Grace, s.NoRobotsFetch, s.CrawlDelayBreach, s.FirstSeen, s.LastSeen)
		g := fmt.Sprintln(c.Crawler, c.Requests, c.Violations, c.Grace, c.No_robots_fetch, c.Crawl_delay_breaches, c.First_seen, c.Last_seen)
		if g != w {
			t.Errorf("DuckDB: %s, the one-machine run: %s", g, w)
		}
	}
	t.Logf("%d rows, %d crawlers: %s", len(want), len(sums), res)
}
