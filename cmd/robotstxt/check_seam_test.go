package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/lint"
)

// This file holds check and the tester page's /api/check to one answer:
// for random files, agents and raw URLs, `check -json` and the API give
// the same verdict, deciding line, rule and usage preferences, and both
// equal the core's Usage for the group crawlers.Group selects, asked about
// the URL as a crawler sends it (robotstxt.NormalizeURL). The group the
// page shows (Report.AgentLines) holds the line that decided.

// seamAgents are the agents asked: every crawler of the table (AdsBot
// ignores "*"), tokens no file names, and "*".
func seamAgents() []string {
	agents := []string{"*", "Foobot", "foo-bot", "NoSuchBot"}
	for _, c := range crawlers.All() {
		agents = append(agents, c.Token)
	}
	return agents
}

// seamRobots writes a random robots.txt of groups for some of agents, with
// rules, Crawl-delay and usage lines whose paths share pieces with the URLs.
func seamRobots(rnd *rand.Rand, agents []string, pieces []string) string {
	var b strings.Builder
	if rnd.IntN(4) == 0 {
		b.WriteString("Content-Signal: ai-train=no\n")
	}
	for range 1 + rnd.IntN(4) {
		for range 1 + rnd.IntN(2) {
			a := agents[rnd.IntN(len(agents))]
			if rnd.IntN(3) == 0 {
				a = "*" // most files have a group for "*"
			}
			b.WriteString("User-agent: " + a + "\n")
		}
		for range rnd.IntN(5) {
			p := "/"
			for range rnd.IntN(3) {
				p += pieces[rnd.IntN(len(pieces))]
			}
			switch rnd.IntN(6) {
			case 0:
				b.WriteString("Allow: " + p + "\n")
			case 1:
				b.WriteString("Content-Usage: " + p + " train-ai=y\n")
			case 2:
				b.WriteString("Content-Usage: train-ai=n, search=y\n")
			case 3:
				b.WriteString("Crawl-delay: 2\n")
			default:
				b.WriteString("Disallow: " + p + "\n")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// seamURL writes a raw URL as a user pastes it: spaces, non-ASCII,
// %-escapes in either case, `"<>`, fragments, empty paths, IDNA hosts,
// default ports, or a path alone.
func seamURL(rnd *rand.Rand, pieces []string) string {
	hosts := []string{"https://example.com", "https://EXAMPLE.com:443", "http://example.com:80", "https://bücher.example", "https://xn--bcher-kva.example", ""}
	u := hosts[rnd.IntN(len(hosts))]
	if rnd.IntN(8) > 0 || u == "" {
		u += "/"
	}
	for range rnd.IntN(4) {
		u += pieces[rnd.IntN(len(pieces))]
	}
	if rnd.IntN(5) == 0 {
		u += "#" + pieces[rnd.IntN(len(pieces))]
	}
	return u
}

var seamPieces = []string{"a", "b", "a b", "%20", "ü", "%c3%bc", "%C3%BC", "%7e", "%7E", "~", `"`, "<", ">", "%3c", "private/", "x", "?q=1", "*", "$", "index.html"}

func TestCheckAgreesWithAPI(t *testing.T) {
	srv, _ := tester(t, false)
	rnd := rand.New(rand.NewPCG(17, 20))
	agents := seamAgents()
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	rounds := 300
	if os.Getenv("ROBOTSTXT_LONG") != "" {
		rounds = 1500
	}
	for range rounds {
		robots := seamRobots(rnd, agents, seamPieces)
		agent := agents[rnd.IntN(len(agents))]
		var urls []string
		for range 12 {
			urls = append(urls, seamURL(rnd, seamPieces))
		}
		if err := os.WriteFile(file, []byte(robots), 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, errOut := runCLI(append([]string{"check", "-json", "-file", file, "-agent", agent}, urls...), "")
		var api checkResponse
		req, _ := json.Marshal(map[string]any{"robots": robots, "agent": agent, "urls": urls})
		post(t, srv, "/api/check", "application/json", string(req), &api)
		dec := json.NewDecoder(strings.NewReader(out))
		r := robotstxt.Parse([]byte(robots))
		g, _ := crawlers.Group(r, agent)
		if len(api.Results) != len(urls) {
			t.Fatalf("%d API answers for %d URLs", len(api.Results), len(urls))
		}
		for i, u := range urls {
			var cli struct {
				decisionJSON
				Error string `json:"error"`
			}
			if err := dec.Decode(&cli); err != nil {
				t.Fatalf("check -json -agent %s %q: %v; stderr: %s", agent, u, err, errOut)
			}
			a := api.Results[i]
			if cli.Error != "" || a.Error != "" {
				if cli.Error != a.Error {
					t.Fatalf("URL %q: check -json says %q, /api/check says %q", u, cli.Error, a.Error)
				}
				continue
			}
			us := g.Usage(robotstxt.NormalizeURL(u))
			if a.Allowed == nil || cli.Allowed != *a.Allowed || cli.Line != a.Line || cli.Rule != a.Rule || !reflect.DeepEqual(cli.Usage, a.Usage) ||
				cli.Allowed != us.Decision.Allowed || cli.Line != us.Decision.Line || !reflect.DeepEqual(cli.Usage, usageOf(us)) {
				t.Fatalf("agent %s, URL %q, robots.txt:\n%s\ncheck -json: %+v usage %+v\n/api/check: allowed %v line %d rule %q usage %+v\ncrawlers.Group's Usage: %+v",
					agent, u, robots, cli.decisionJSON, cli.Usage, a.Allowed != nil && *a.Allowed, a.Line, a.Rule, a.Usage, us)
			}
			// The page's group display holds the deciding line, and a
			// crawler that no group binds is allowed everything.
			shown := a.Line == 0
			for _, rg := range api.Group.Ranges {
				shown = shown || (rg[0] <= a.Line && a.Line <= rg[1])
			}
			if !shown || (api.Group.Applies == "none" && !*a.Allowed) {
				t.Fatalf("agent %s, URL %q: decided on line %d, but the page shows the group %+v; robots.txt:\n%s", agent, u, a.Line, api.Group, robots)
			}
		}
		// The groups the page shows (Group.Numbers of the group that
		// answers) are those of the user-agent lines it highlights.
		var ofLines []int
		rep := lint.Diagnose([]byte(robots))
		for _, n := range api.Group.AgentLines {
			if gn := rep.Lines[n-1].Group; !slices.Contains(ofLines, gn) {
				ofLines = append(ofLines, gn)
			}
		}
		if !slices.Equal(api.Group.Groups, ofLines) || len(api.Group.Ranges) != len(ofLines) {
			t.Fatalf("agent %s: the page shows groups %v (ranges %v), its user-agent lines %v are in groups %v; robots.txt:\n%s",
				agent, api.Group.Groups, api.Group.Ranges, api.Group.AgentLines, ofLines, robots)
		}
	}
}
