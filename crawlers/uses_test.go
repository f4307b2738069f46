package crawlers

import (
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestUsesTable holds the facts of uses.go to the table: each token with
// uses is a row, each control token names crawlers of its own operator
// that fetch, each (operator, use) has one token, and each fact has its
// page.
func TestUsesTable(t *testing.T) {
	for token, u := range usage {
		i := find(token)
		if i < 0 {
			t.Errorf("%s has uses but no row", token)
			continue
		}
		if len(u.uses) == 0 || !strings.HasPrefix(u.source, "https://") {
			t.Errorf("%s: uses %v, source %q", token, u.uses, u.source)
		}
		for _, f := range u.fetchedBy {
			j := find(f)
			if j < 0 || table[j].Operator != table[i].Operator || len(table[j].FetchedBy) > 0 || table[j].UserAgent == "" {
				t.Errorf("%s is fetched by %s, which is no crawler of %s that fetches", token, f, table[i].Operator)
			}
		}
		if len(u.fetchedBy) > 0 && table[i].Purpose != AIControl {
			t.Errorf("%s is fetched by others but is no control token", token)
		}
	}
	seen := map[[2]string]string{}
	for _, g := range AllGoverns() {
		k := [2]string{g.Operator, string(g.Use)}
		if prev, dup := seen[k]; dup {
			t.Errorf("%s %s governed by %s and %s", g.Operator, g.Use, prev, g.Token)
		}
		seen[k] = g.Token
	}
}

// TestGovernsFor pins the rows the matrix's questions start from, each on
// its operator's page.
func TestGovernsFor(t *testing.T) {
	tests := []struct {
		why      string
		op       string
		use      Use
		token    string
		fetchers string
	}{
		{"Google: Google-Extended governs Gemini training, fetched by Googlebot", "Google", UseTraining, "Google-Extended", "Googlebot"},
		{"Google: and grounding", "Google", UseAIInput, "Google-Extended", "Googlebot"},
		{"Google: Google-Extended does not affect Search", "Google", UseSearch, "Googlebot", "Googlebot"},
		{"OpenAI: GPTBot for training", "OpenAI", UseTraining, "GPTBot", "GPTBot"},
		{"OpenAI: OAI-SearchBot for ChatGPT search", "OpenAI", UseSearch, "OAI-SearchBot", "OAI-SearchBot"},
		{"OpenAI: ChatGPT-User for a user's action", "OpenAI", UseUserFetch, "ChatGPT-User", "ChatGPT-User"},
		{"Anthropic: ClaudeBot for training", "Anthropic", UseTraining, "ClaudeBot", "ClaudeBot"},
		{"Apple: Applebot-Extended for training, fetched by Applebot", "Apple", UseTraining, "Applebot-Extended", "Applebot"},
		{"Perplexity: PerplexityBot is not used for training", "Perplexity", UseTraining, "", ""},
	}
	for _, tt := range tests {
		g, ok := GovernsFor(tt.op, tt.use)
		if g.Token != tt.token || ok != (tt.token != "") || strings.Join(g.Fetchers(), ",") != tt.fetchers && ok {
			t.Errorf("%s: GovernsFor(%s, %s) = %+v, %v", tt.why, tt.op, tt.use, g, ok)
		}
	}
}

// TestDecidingIsGroup: Deciding picks the token and group Follows and
// GroupOf pick, and named is whether a group names that token, for every
// crawler of the table and one that is not, on files that name them or
// not.
func TestDecidingIsGroup(t *testing.T) {
	files := []string{"", "User-agent: *\nDisallow: /x\n", "User-agent: Googlebot\nDisallow: /g\n",
		"User-agent: Applebot\nUser-agent: GPTBot\nAllow: /\nUser-agent: *\nDisallow: /\n", "User-agent: Foobot\nDisallow: /f\n"}
	for _, f := range files {
		r := robotstxt.Parse([]byte(f))
		agents := []string{"Foobot", "Nobot"}
		for _, c := range table {
			agents = append(agents, c.Token)
		}
		for _, a := range agents {
			token, g, named := Deciding(r, a)
			want, _ := Group(r, a)
			wantToken := a
			if i := find(a); i >= 0 {
				wantToken = table[i].Follows(r)
			}
			if token != wantToken || g.Decide("/g") != want.Decide("/g") || g.Decide("/f") != want.Decide("/f") ||
				named != (token != "" && r.NamesAgent(token)) {
				t.Errorf("%q on %q: Deciding = %q, %v, named %v", a, f, token, g.Decide("/g"), named)
			}
		}
	}
}
