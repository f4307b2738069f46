package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/sharedtest"
	"github.com/robotstxt-go/robotstxt/lint"
)

// TestFileAgentsNamedByParser pins the seam between the tester page's list
// of a file's agents (fileAgents, read from Diagnose's lines) and the
// parser: every token the page offers is one the parsed file names
// (Robots.NamesAgent), once without regard to case, and a valid agent.
func TestFileAgentsNamedByParser(t *testing.T) {
	inputs := []string{
		"User-agent: Googlebot/2.1\nUser-agent: *\nUser-agent: googlebot\nDisallow: /\n",
		"User-agent: Foo Bar\nUser-agent: 007\nUser-agent:\nAllow: /\nUser-agent: Ads-Bot_2\nDisallow: /x\n",
		// Enough agents without ../shared, as in a fresh clone.
		"User-agent: Bingbot\nUser-agent: bingbot\nUser-agent: Yandex/3.0\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n",
	}
	for _, dir := range []string{sharedtest.Path(t, "corpus/real"), sharedtest.Path(t, "corpus/synthetic")} {
		names, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, n := range names {
			if b, err := os.ReadFile(n); err == nil {
				inputs = append(inputs, string(b))
			}
		}
	}
	offered := 0
	for _, in := range inputs {
		r := robotstxt.Parse([]byte(in))
		seen := map[string]bool{}
		for _, tok := range fileAgents(lint.Diagnose([]byte(in))) {
			key := strings.ToLower(tok)
			if !robotstxt.ValidAgent(tok) || !r.NamesAgent(tok) || seen[key] {
				t.Errorf("%.60q: fileAgents offers %q (valid %v, named %v, twice %v)",
					in, tok, robotstxt.ValidAgent(tok), r.NamesAgent(tok), seen[key])
			}
			seen[key] = true
			offered++
		}
	}
	if offered < 5 {
		t.Fatalf("only %d agents offered: the inputs miss the case", offered)
	}
	t.Logf("%d files, %d agents offered", len(inputs), offered)
}
