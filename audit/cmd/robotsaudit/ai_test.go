package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestAITableDuckDB writes the AI table (-ai) of one archive as CSV, JSON
// Lines and Parquet, reads each back in DuckDB, and checks that the three
// hold the same cells, that they are the cells robotsaudit wrote as JSON
// Lines, and that the README's query on them counts what the rows say.
func TestAITableDuckDB(t *testing.T) {
	bin := buildCommand(t)
	dir := t.TempDir()
	var b bytes.Buffer
	for i, body := range []string{
		"User-agent: Google-Extended\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n",
		"User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n",
		"User-agent: ClaudeBot\nAllow: /\nContent-Usage: train-ai=n\n",
		"User-agent: GPTBot\nAllow: /\n",
		"",
	} {
		b.Write(member(t, fmt.Sprintf("https://s%d.example/robots.txt", i), 200, body))
	}
	b.Write(member(t, "https://down.example/robots.txt", 503, ""))
	b.Write(member(t, "https://lost.example/robots.txt", 302, "")) // no Location: unreachable
	in := filepath.Join(dir, "crawl.warc.gz")
	os.WriteFile(in, b.Bytes(), 0o644)
	for _, f := range []string{"csv", "jsonl", "parquet"} {
		if out, err := exec.Command(bin, "-ai", "-progress", "never", "-paths", "/,/private/x", "-o", filepath.Join(dir, "ai."+f), in).CombinedOutput(); err != nil {
			t.Fatalf("-ai -o ai.%s: %v\n%s", f, err, out)
		}
	}

	// The rows as JSON Lines holds them, each value as DuckDB's JSON
	// writes a VARCHAR.
	type cells = map[string]any
	var want []cells
	raw, _ := os.ReadFile(filepath.Join(dir, "ai.jsonl"))
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var r map[string]any
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		c := cells{}
		for k, v := range r {
			if k == "origin" || k == "path" || len(k) > 3 && k[:3] == "ai_" {
				if f, ok := v.(float64); ok {
					v = fmt.Sprint(f)
				}
				c[k] = v
			}
		}
		want = append(want, c)
	}
	if len(want) != 7*2 {
		t.Fatalf("%d rows of JSON Lines, want 7 captures × 2 paths", len(want))
	}
	for _, read := range []string{"read_csv('ai.csv')", "read_json('ai.jsonl')", "read_parquet('ai.parquet')"} {
		res := duckdb(t, dir, "SELECT origin, path, COLUMNS('^ai_')::VARCHAR FROM "+read)
		var got []cells
		if err := json.Unmarshal(res, &got); err != nil {
			t.Fatalf("%s: %v: %s", read, err, res)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", read, len(got), len(want))
		}
		for i := range want {
			if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
				t.Errorf("%s: row %d:\n got %v\nwant %v", read, i, got[i], want[i])
			}
		}
	}

	// The README's query.
	res := duckdb(t, dir, recipe(t, "duckdb-ai"))
	var counts []struct{ Verdict, Origins string }
	if err := json.Unmarshal(res, &counts); err != nil {
		t.Fatalf("%v: %s", err, res)
	}
	byVerdict := map[string]int{}
	for _, r := range want {
		if r["path"] == "/" {
			byVerdict[fmt.Sprint(r["ai_openai_training"])]++
		}
	}
	var got []string
	for _, c := range counts {
		got = append(got, c.Verdict+"="+c.Origins)
	}
	var wantCounts []string
	for v, n := range byVerdict {
		if v == "<nil>" {
			v = ""
		}
		wantCounts = append(wantCounts, fmt.Sprintf("%s=%d", v, n))
	}
	slices.Sort(got)
	slices.Sort(wantCounts)
	if !slices.Equal(got, wantCounts) || len(byVerdict) < 3 {
		t.Errorf("the README's query counts %v; the rows %v (at least three verdicts wanted)", got, wantCounts)
	}
}
