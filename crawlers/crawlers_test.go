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

// TestVerification checks the verification facts of every row: each
// documented method names the page that documents it, prefix files are
// https addresses, host-name suffixes are lower-case domains without a
// leading dot, and a signature agent is an https origin with no path.
func TestVerification(t *testing.T) {
	for _, c := range table {
		v := c.Verify
		if !v.Documented() {
			if v.Source != "" {
				t.Errorf("%s: a verification source %q but no method", c.Token, v.Source)
			}
			continue
		}
		if !strings.HasPrefix(v.Source, "https://") {
			t.Errorf("%s: verification source %q is not an https address", c.Token, v.Source)
		}
		for _, r := range v.Ranges {
			if !strings.HasPrefix(r, "https://") || !strings.HasSuffix(r, ".json") {
				t.Errorf("%s: prefix file %q: want an https address of a .json file", c.Token, r)
			}
		}
		for _, d := range v.ReverseDNS {
			if d != strings.ToLower(d) || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || !strings.Contains(d, ".") {
				t.Errorf("%s: host-name suffix %q: want a lower-case domain, no leading or trailing dot", c.Token, d)
			}
		}
		if a := v.SignatureAgent; a != "" && (!strings.HasPrefix(a, "https://") || strings.Count(a, "/") != 2) {
			t.Errorf("%s: signature agent %q: want an https origin", c.Token, a)
		}
	}
	// Google moved its files on 2026-03-31; the old addresses hold no
	// prefixes (developers.google.com/search/docs/crawling-indexing/verifying-googlebot).
	g, _ := Lookup("Googlebot")
	if len(g.Verify.Ranges) != 1 || g.Verify.Ranges[0] != "https://developers.google.com/static/crawling/ipranges/common-crawlers.json" {
		t.Errorf("Googlebot's prefix file = %v, want the common-crawlers.json Google publishes since 2026-03-31", g.Verify.Ranges)
	}
	g.Verify.Ranges[0] = "changed"
	if h, _ := Lookup("Googlebot"); h.Verify.Ranges[0] == "changed" {
		t.Error("Lookup returned the table's own list of prefix files")
	}
}
