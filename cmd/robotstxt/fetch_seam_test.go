package main

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// TestFetchAgreesWithCheckAndAPI holds the three answers about a fetched
// robots.txt to one: for random files and for agents and User-Agent headers
// of every shape (the crawlers table's tokens and headers, AdsBot, "*",
// made-up ones, pairs that disagree), `robotstxt fetch -json`, `robotstxt
// check -json -url` and the tester page's /api/fetch (its decision and its
// check) either all refuse the identity or all answer for the same token,
// with the verdict and line of the group crawlers.Group selects for it.
func TestFetchAgreesWithCheckAndAPI(t *testing.T) {
	srv, s := tester(t, false)
	rnd := rand.New(rand.NewPCG(17, 3))
	agents := seamAgents()
	headers := []string{"", "Foobot/1.0", "Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0"}
	for _, c := range crawlers.All() {
		if c.UserAgent != "" {
			headers = append(headers, c.UserAgent)
		}
	}
	rounds := 400
	switch {
	case os.Getenv("ROBOTSTXT_LONG") != "":
		rounds = 4000
	case raceEnabled:
		rounds = 100
	}
	answered, documented := 0, 0
	for range rounds {
		robots := seamRobots(rnd, agents, seamPieces)
		agent := agents[rnd.IntN(len(agents))]
		header := ""
		switch rnd.IntN(3) {
		case 0:
			header = headers[rnd.IntN(len(headers))]
		case 1:
			if agent != "*" {
				header = agent + "/2.1 (+https://example.com/bot)"
			}
		}
		u := "https://example.com/" + seamPieces[rnd.IntN(len(seamPieces))] + seamPieces[rnd.IntN(len(seamPieces))]
		sites := fakeFetcher{u: fetchedBody("https://example.com/robots.txt", []byte(robots))}
		s.fetcher = sites

		args := []string{"-json", "-agent", agent}
		if header != "" {
			args = append(args, "-user-agent", header)
		}
		c := &cli{stdin: strings.NewReader(""), stdout: new(strings.Builder), stderr: new(strings.Builder), fetcher: sites}
		fetchCode := c.run(append(append([]string{"fetch"}, args...), u))
		fetchOut := c.stdout.(*strings.Builder).String()
		c = &cli{stdin: strings.NewReader(""), stdout: new(strings.Builder), stderr: new(strings.Builder), fetcher: sites}
		checkCode := c.run(append(append([]string{"check", "-url", u}, args...), u))
		checkOut := c.stdout.(*strings.Builder).String()

		req, _ := json.Marshal(fetchRequest{URL: u, Agent: agent, UserAgent: header, URLs: []string{u}})
		var api fetchResponse
		var apiErr struct {
			Error string `json:"error"`
		}
		resp, err := srv.Client().Post(srv.URL+"/api/fetch", "application/json", strings.NewReader(string(req)))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(body, &api)
		json.Unmarshal(body, &apiErr)

		refused := fetchCode == exitFailure
		if (checkCode == exitFailure) != refused || (resp.StatusCode != http.StatusOK) != refused {
			t.Fatalf("-agent %q -user-agent %q: fetch exits %d, check exits %d, /api/fetch answers %d %s",
				agent, header, fetchCode, checkCode, resp.StatusCode, apiErr.Error)
		}
		if refused {
			continue
		}
		var f fetchJSON
		var ch decisionJSON
		if err := json.Unmarshal([]byte(fetchOut), &f); err != nil {
			t.Fatalf("fetch -json: %v: %q", err, fetchOut)
		}
		if err := json.Unmarshal([]byte(checkOut), &ch); err != nil {
			t.Fatalf("check -json: %v: %q", err, checkOut)
		}
		r := robotstxt.Parse([]byte(robots))
		g, _ := crawlers.Group(r, f.Agent)
		want := g.Decide(robotstxt.NormalizeURL(u))
		answered++
		if want != r.Decide(f.Agent, robotstxt.NormalizeURL(u)) {
			documented++
		}
		got := []struct {
			who     string
			agent   string
			allowed bool
			line    int
		}{
			{"fetch -json", f.Agent, f.Decision.Allowed, f.Decision.Line},
			{"check -json -url", f.Agent, ch.Allowed, ch.Line},
			{"/api/fetch decision", api.Agent, api.Decision.Allowed, api.Decision.Line},
			{"/api/fetch check", api.Check.Agent, len(api.Check.Results) == 1 && api.Check.Results[0].Allowed != nil && *api.Check.Results[0].Allowed, 0},
		}
		got[3].line = -1
		if len(api.Check.Results) == 1 {
			got[3].line = api.Check.Results[0].Line
		}
		for _, g := range got {
			if g.agent != f.Agent || g.allowed != want.Allowed || g.line != want.Line {
				t.Fatalf("-agent %q -user-agent %q, URL %q, robots.txt:\n%s\n%s answers for %q: allowed %v line %d; crawlers.Group for %q: allowed %v line %d",
					agent, header, u, robots, g.who, g.agent, g.allowed, g.line, f.Agent, want.Allowed, want.Line)
			}
		}
	}
	if answered < rounds/2 || documented == 0 {
		t.Errorf("%d of %d rounds answered, %d where the crawler's documented group differs from the parser's: the generator misses the point", answered, rounds, documented)
	}
}
