package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

func TestAgentSets(t *testing.T) {
	ai, err := AgentSet("ai.robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	var listed map[string]json.RawMessage
	if err := json.Unmarshal(aiRobotsJSON, &listed); err != nil {
		t.Fatal(err)
	}
	if len(ai) != len(listed) || len(ai) != 166 {
		t.Errorf("%d agents of %d listed; the bundled version lists 166", len(ai), len(listed))
	}
	for _, a := range ai {
		if _, ok := listed[a.Name()]; !ok {
			t.Errorf("%s: not a name of the list", a.Name())
		}
		if c, ok := crawlers.Lookup(a.Tokens[0]); ok && (a.crawler == nil || a.Operator != c.Operator) {
			t.Errorf("%s is in the crawler table but not answered as that crawler", a.Name())
		}
	}
	for _, s := range AgentSets() {
		if s.Name == "ai.robots.txt" && (s.Agents != 166 || len(s.Version) != 40 || s.Date == "" || !strings.Contains(s.License, "MIT License")) {
			t.Errorf("ai.robots.txt set: %+v", s)
		}
	}
	both, err := Agents("crawlers,ai.robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range both {
		k := strings.ToLower(a.Name())
		if seen[k] {
			t.Errorf("%s twice", a.Name())
		}
		seen[k] = true
	}
	if n := len(BuiltinAgents()); len(both) <= 166 || len(both) >= 166+n {
		t.Errorf("crawlers,ai.robots.txt: %d agents; want the union of %d and 166 that overlap", len(both), n)
	}
	if _, err := Agents("no-such-set"); err == nil {
		t.Error("an unknown set name is accepted")
	}
	// A user file still works, even when named like a set.
	dir := t.TempDir()
	f := filepath.Join(dir, "crawlers")
	os.WriteFile(f, []byte("GPTBot\nFooBot\n"), 0o644)
	if as, err := Agents(f); err != nil || len(as) != 2 || as[1].Name() != "FooBot" {
		t.Errorf("file: %v %v", as, err)
	}
}

// TestLineTokenSeam holds lineToken to the parser: for every name of the
// ai.robots.txt list, a file whose User-agent line is that name names the
// token the set asks, and the group applies to it.
func TestLineTokenSeam(t *testing.T) {
	ai, _ := AgentSet("ai.robots.txt")
	for _, a := range ai {
		r := robotstxt.Parse([]byte("User-agent: " + a.Name() + "\nDisallow: /\n"))
		if !r.NamesAgent(a.Tokens[0]) || r.Allowed(a.Tokens[0], "/x") {
			t.Errorf("%s asked as %q: the parser does not find its group", a.Name(), a.Tokens[0])
		}
		if (a.Listed != "") != (a.Tokens[0] != a.Name()) || !robotstxt.ValidAgent(a.Tokens[0]) {
			t.Errorf("%s: tokens %v listed %q", a.Name(), a.Tokens, a.Listed)
		}
	}
	for _, s := range []string{"AI2Bot", "a b", "x/1.0", "a.b", "-_x9", "", "9a", "ü"} {
		tok := lineToken(s)
		r := robotstxt.Parse([]byte("User-agent: " + s + "\nDisallow: /\n"))
		if tok != "" && !r.NamesAgent(tok) {
			t.Errorf("lineToken(%q) = %q; the parser names another", s, tok)
		}
	}
}
