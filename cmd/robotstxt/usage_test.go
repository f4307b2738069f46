package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// usageRobots states preferences in both vocabularies, and disallows a
// path, which then has none.
const usageRobots = "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\nContent-Signal: ai-input=no\n"

// TestCheckUsage: check prints, after each allowed URL, the preferences the
// file states for it, with their lines; nothing after a disallowed one.
func TestCheckUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(usageRobots), stdout: &stdout, stderr: &stderr, fetcher: fakeSites()}
	c.run([]string{"check", "-", "/a", "/blog/x", "/private/x"})
	want := []string{
		"allowed     /a  no rule matched  [content-usage: train-ai=n (line 3), search=y (line 3); content-signal: ai-input=n (line 5)]",
		"allowed     /blog/x  no rule matched  [content-usage: train-ai=y (line 4); content-signal: ai-input=n (line 5)]",
		"disallowed  /private/x  line 2: Disallow: /private/",
	}
	got := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("check printed\n%s\nwant\n%s", stdout.String(), strings.Join(want, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, got[i], want[i])
		}
	}
}

// TestCheckUsageJSON: check -json carries the stated preferences by label.
func TestCheckUsageJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(usageRobots), stdout: &stdout, stderr: &stderr, fetcher: fakeSites()}
	c.run([]string{"check", "-json", "-", "/blog/x", "/private/x"})
	dec := json.NewDecoder(&stdout)
	var first, second decisionJSON
	if err := dec.Decode(&first); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&second); err != nil {
		t.Fatal(err)
	}
	if first.Usage == nil || first.Usage.ContentUsage["train-ai"] != (statedJSON{"y", 4}) || first.Usage.ContentSignal["ai-input"] != (statedJSON{"n", 5}) {
		t.Errorf("usage of /blog/x = %+v", first.Usage)
	}
	if second.Usage != nil {
		t.Errorf("a disallowed URL has usage %+v", second.Usage)
	}
}

// TestAPIUsage: the tester page's answers carry the preferences beside the
// verdicts.
func TestAPIUsage(t *testing.T) {
	src, err := readSource("page", strings.NewReader(usageRobots), int64(len(usageRobots)))
	if err != nil {
		t.Fatal(err)
	}
	resp := checkWith(src, "Foobot", []string{"/a", "/private/x"})
	if len(resp.Results) != 2 {
		t.Fatalf("%d results", len(resp.Results))
	}
	if u := resp.Results[0].Usage; u == nil || u.ContentUsage["search"] != (statedJSON{"y", 3}) {
		t.Errorf("usage of /a = %+v", u)
	}
	if u := resp.Results[1].Usage; u != nil {
		t.Errorf("usage of a disallowed URL = %+v", u)
	}
}

// TestFetchUsage: fetch prints the preferences after its verdict as check
// -url prints them after the same URL's, in text and in JSON, each value
// spelt once (y or n) for both vocabularies.
func TestFetchUsage(t *testing.T) {
	const u = "https://example.com/blog/x"
	sites := fakeFetcher{u: fetchedBody("https://example.com/robots.txt", []byte(usageRobots))}
	run := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, fetcher: sites}
		c.run(args)
		return stdout.String()
	}
	const want = "[content-usage: train-ai=y (line 4); content-signal: ai-input=n (line 5)]"
	for _, out := range []string{run("fetch", u), run("check", "-url", u, u)} {
		if !strings.Contains(out, want) {
			t.Errorf("printed\n%s\nwant %q", out, want)
		}
	}
	var fj fetchJSON
	if err := json.Unmarshal([]byte(run("fetch", "-json", u)), &fj); err != nil {
		t.Fatal(err)
	}
	var cj decisionJSON
	if err := json.Unmarshal([]byte(run("check", "-json", "-url", u, u)), &cj); err != nil {
		t.Fatal(err)
	}
	if fj.Decision.Usage == nil || cj.Usage == nil || fj.Decision.Usage.ContentSignal["ai-input"] != (statedJSON{"n", 5}) ||
		!reflect.DeepEqual(fj.Decision.Usage, cj.Usage) {
		t.Errorf("fetch -json usage %+v, check -json %+v", fj.Decision.Usage, cj.Usage)
	}
}
