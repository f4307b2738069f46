package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstxt-go/robotstxt/audit"
)

// debianPython is the interpreter of Debian's python3-distributed.
const debianPython = "/usr/bin/python3"

// need skips the test with a message saying what to install, or fails it
// in CI, where .ci/audit installs it.
func need(t *testing.T, what string, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s: %v (.ci/audit installs it)", what, err)
	}
	t.Skipf("%s: %v", what, err)
}

// recipe returns the fenced block after "<!-- recipe: name -->" in the
// README.
func recipe(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- recipe: " + regexp.QuoteMeta(name) + " -->\n```[a-z]*\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatalf("README has no %s recipe", name)
	}
	return string(m[1])
}

// TestClusterRecipe runs the README's shard recipe under Dask distributed:
// a LocalCluster of two worker processes, each running robotsaudit on the
// shards it is given, and checks that the union of the parts is the rows
// of one run over all the shards; then it runs the README's DuckDB query
// over the parts and checks its counts against that run.
func TestClusterRecipe(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import distributed").CombinedOutput(); err != nil {
		need(t, "Dask distributed (apt-get install -y python3-distributed)", fmt.Errorf("%v: %s", err, out))
	}
	bin := buildCommand(t)
	dir := t.TempDir()
	// Three shards of distinct origins, some captured twice in a shard.
	var shards []string
	for s := range 3 {
		var b bytes.Buffer
		for i := range 20 {
			url := fmt.Sprintf("https://s%d-o%d.example/robots.txt", s, i%14)
			body := fmt.Sprintf("User-agent: GPTBot\nDisallow: /%d\n\nUser-agent: *\nDisallow: /search\n", i)
			if i%5 == 0 {
				body = "User-agent: *\nDisallow: /\n"
			}
			b.Write(member(t, url, 200, body))
		}
		p := filepath.Join(dir, fmt.Sprintf("crawl-%d.warc.gz", s))
		os.WriteFile(p, b.Bytes(), 0o644)
		shards = append(shards, p)
	}
	script := filepath.Join(dir, "shards.py")
	os.WriteFile(script, []byte(recipe(t, "dask")), 0o644)
	cmd := exec.Command(debianPython, append([]string{script, bin, filepath.Join(dir, "parts")}, shards...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		need(t, "the Dask recipe", fmt.Errorf("%v:\n%s", err, out))
	}
	if !strings.Contains(string(out), "workers: 2") {
		t.Fatalf("the cluster did not start two workers:\n%s", out)
	}
	t.Logf("dask:\n%s", out)

	whole := filepath.Join(dir, "whole.parquet")
	if b, err := exec.Command(bin, append([]string{"-workers", "1", "-progress", "never", "-paths", "/,/search", "-o", whole}, shards...)...).CombinedOutput(); err != nil {
		t.Fatalf("one-machine run: %v\n%s", err, b)
	}
	want := readRows(t, whole)
	parts, _ := filepath.Glob(filepath.Join(dir, "parts", "*.parquet"))
	if len(parts) != len(shards) {
		t.Fatalf("%d parts for %d shards", len(parts), len(shards))
	}
	var got []string
	for _, p := range parts {
		got = append(got, readRows(t, p)...)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) != 3*14*len(audit.BuiltinAgents()) || !slices.Equal(got, want) {
		t.Fatalf("the parts hold %d rows, the one-machine run %d; they differ", len(got), len(want))
	}

	// The DuckDB query over the parts.
	res := duckdb(t, dir, recipe(t, "duckdb"))
	var counts []struct {
		Agent, Label string
		Origins      string
	}
	if err := json.Unmarshal(res, &counts); err != nil {
		t.Fatalf("%v: %s", err, res)
	}
	wantCounts := map[string]int{}
	for _, r := range readTyped(t, whole) {
		wantCounts[r.Agent+" "+r.Label]++
	}
	n := 0
	for _, c := range counts {
		k := c.Agent + " " + c.Label
		if fmt.Sprint(wantCounts[k]) != c.Origins {
			t.Errorf("DuckDB: %s: %s origins, the one-machine run has %d", k, c.Origins, wantCounts[k])
		}
		n++
	}
	if n != len(wantCounts) {
		t.Errorf("DuckDB gave %d agent × label counts, want %d", n, len(wantCounts))
	}
}

// duckdb runs a query in DuckDB (the npm package @duckdb/node-api, in the
// directory ROBOTSAUDIT_DUCKDB names) from directory dir, and returns its
// rows as a JSON array of objects, every value a string.
func duckdb(t *testing.T, dir, query string) []byte {
	t.Helper()
	duck := os.Getenv("ROBOTSAUDIT_DUCKDB")
	if duck == "" {
		need(t, "DuckDB for the query (set ROBOTSAUDIT_DUCKDB to a directory where `npm install @duckdb/node-api` was run)", fmt.Errorf("unset"))
	}
	q := filepath.Join(duck, "robotsaudit-query.mjs")
	os.WriteFile(q, []byte(`import { DuckDBInstance } from '@duckdb/node-api';
const c = await (await DuckDBInstance.create(':memory:')).connect();
console.log(JSON.stringify((await c.runAndReadAll(process.argv[2])).getRowObjectsJson()));
`), 0o644)
	node := exec.Command("node", q, query)
	node.Dir = dir
	res, err := node.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		need(t, "node with @duckdb/node-api in "+duck, fmt.Errorf("%v: %s", err, stderr))
	}
	return res
}

func readTyped(t *testing.T, p string) []audit.Row {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[audit.Row](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// readRows returns the rows of a Parquet file as JSON, to compare.
func readRows(t *testing.T, p string) []string {
	var out []string
	for _, r := range readTyped(t, p) {
		j, _ := json.Marshal(r)
		out = append(out, string(j))
	}
	return out
}
