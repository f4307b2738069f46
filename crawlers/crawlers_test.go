package crawlers

import (
	"cmp"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestTable checks what every tool reading the table relies on: each token
// is one robotstxt accepts as an agent, tokens are unique without regard to
// case, every row names its source and a known purpose, and the rows are in
// the documented order.
func TestTable(t *testing.T) {
	purposes := map[Purpose]bool{Search: true, AITraining: true, AISearch: true, AIUser: true,
		AIControl: true, Ads: true, Archive: true, Commerce: true}
	seen := map[string]bool{}
	for i, c := range table {
		if !robotstxt.ValidAgent(c.Token) {
			t.Errorf("%s: not a valid product token", c.Token)
		}
		key := strings.ToLower(c.Token)
		if seen[key] {
			t.Errorf("%s: listed twice", c.Token)
		}
		seen[key] = true
		if !strings.HasPrefix(c.Source, "https://") {
			t.Errorf("%s: source %q is not an https address", c.Token, c.Source)
		}
		if c.Operator == "" || !purposes[c.Purpose] {
			t.Errorf("%s: operator %q, purpose %q", c.Token, c.Operator, c.Purpose)
		}
		if c.Purpose == AIControl && c.UserAgent != "" {
			t.Errorf("%s: a control token sends no header, has %q", c.Token, c.UserAgent)
		}
		if len(c.Obeys) == 0 || c.Obeys[0].Token != c.Token {
			t.Errorf("%s: obeys %v; the first token obeyed is its own", c.Token, c.Obeys)
		}
		for _, o := range c.Obeys {
			if !robotstxt.ValidAgent(o.Token) || !strings.HasPrefix(o.Source, "https://") {
				t.Errorf("%s obeys %+v: want a product token and an https source", c.Token, o)
			}
		}
		if i > 0 {
			p := table[i-1]
			if cmp.Or(cmp.Compare(p.Operator, c.Operator), strings.Compare(strings.ToLower(p.Token), key)) >= 0 {
				t.Errorf("%s after %s: want operator, then token order", c.Token, p.Token)
			}
		}
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		token, want string
		ok          bool
	}{
		{"GPTBot", "GPTBot", true},
		{"gptbot", "GPTBot", true}, // robots.txt compares agents without regard to case (RFC 9309 §2.2.1)
		{"AdsBot-Google", "AdsBot-Google", true},
		{"AdsBot", "", false},             // a prefix is another token
		{"Ad\u017fBot-Google", "", false}, // only ASCII case is folded, as the parser folds agents: U+017F is no "s"
		{"", "", false},
	} {
		c, ok := Lookup(tc.token)
		if ok != tc.ok || c.Token != tc.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tc.token, c.Token, ok, tc.want, tc.ok)
		}
	}
	all := All()
	all[0].Token = "changed"
	all[0].Obeys[0].Token = "changed"
	if table[0].Token == "changed" || table[0].Obeys[0].Token == "changed" {
		t.Error("All returned the table itself")
	}
	c, _ := Lookup("Applebot")
	c.Obeys[1].Token = "changed"
	if d, _ := Lookup("Applebot"); d.Obeys[1].Token != "Googlebot" {
		t.Error("Lookup returned the table's own list")
	}
}
