package crawlers

import (
	"strings"

	"github.com/robotstxt-go/robotstxt"
)

// This file answers for a crawler as its operator documents it, where that
// differs from what the parser alone says. The parser answers as Google's
// does for any agent; the differences are data of the table (IgnoresGlobal)
// and are applied here, beside it.

// Group returns the group of r that decides for agent as the crawler with
// that token documents its behaviour, and a note saying how that differs
// from r.Group(agent), the parser's answer for the token alone, or "" when
// it does not. An agent that is not in the table is r.Group(agent).
func Group(r *robotstxt.Robots, agent string) (g robotstxt.Group, note string) {
	if i := find(agent); i >= 0 {
		return table[i].Group(r)
	}
	return r.Group(agent), ""
}

// Group returns the group of r that decides for c as its operator
// documents (see [Group]), and the note:
//
//   - The first token of c.Obeys that a group of r names decides: its
//     own token, or else the next one (Googlebot-Image and Applebot obey
//     Googlebot's group when none names them).
//   - When none is named, a crawler that ignores the `*` group
//     (AdsBot-Google, AdsBot-Google-Mobile) obeys none: Group returns
//     r.NoGroup(), which allows every URL and carries the Content-Signal
//     lines before the first group. Any other falls back to `*`.
//
// A robots.txt that stands for an HTTP status (allow-all, disallow-all)
// binds every crawler alike.
func (c *Crawler) Group(r *robotstxt.Robots) (g robotstxt.Group, note string) {
	token := c.Follows(r)
	g = GroupOf(r, token)
	switch token {
	case c.Token:
		return g, ""
	case "":
		return g, c.Token + ` ignores the rules for "*", as Google documents (` + c.Source +
			`), and no group names it: it may fetch every URL. Add a group for ` + c.Token + ` to keep it out.`
	default:
		return g, "no group names " + c.Token + ": it obeys the group for " + token +
			", as its operator documents (" + c.source(token) + "). Add a group for " + c.Token + " to give it rules of its own."
	}
}

// Follows returns the token whose group decides for c in r, as [Crawler.Group]
// selects it: c.Token when a group names it, when none of its tokens is
// named and it obeys `*`, or when r stands for an HTTP status; another
// token of c.Obeys when that one is the first named; "" when c ignores
// `*` and no group names it.
func (c *Crawler) Follows(r *robotstxt.Robots) string {
	token, _ := c.follows(r)
	return token
}

// follows is Follows, and whether a group of r names the token returned.
func (c *Crawler) follows(r *robotstxt.Robots) (token string, named bool) {
	if r.Kind() != robotstxt.Parsed {
		return c.Token, false
	}
	if r.NamesAgent(c.Token) {
		return c.Token, true
	}
	for _, o := range c.Obeys {
		if o.Token != c.Token && r.NamesAgent(o.Token) {
			return o.Token, true
		}
	}
	if c.IgnoresGlobal {
		return "", false
	}
	return c.Token, false
}

// GroupOf returns the group that decides in r for a crawler that follows
// token, as [Crawler.Follows] names it: token's group, or r.NoGroup() for
// "", a crawler that ignores `*` when no group names it. A caller that
// needs the token as well as the group asks Follows once and then GroupOf.
func GroupOf(r *robotstxt.Robots, token string) robotstxt.Group {
	if token == "" {
		return r.NoGroup()
	}
	return r.Group(token)
}

// source returns the documentation of a token c obeys.
func (c *Crawler) source(token string) string {
	for _, o := range c.Obeys {
		if o.Token == token {
			return o.Source
		}
	}
	return c.Source
}

// GroupFor is [Group] for a crawler that answers to several tokens, as
// [robotstxt.Robots.GroupFor] merges their groups. It ignores the `*` group
// only when every token is a crawler that does (AdsBot-Google and
// AdsBot-Google-Mobile together) and no group names any of them; otherwise
// it is r.GroupFor(agents). With one token it is Group.
func GroupFor(r *robotstxt.Robots, agents []string) (g robotstxt.Group, note string) {
	if len(agents) == 1 {
		return Group(r, agents[0])
	}
	if len(agents) == 0 || r.Kind() != robotstxt.Parsed {
		return r.GroupFor(agents), ""
	}
	for _, a := range agents {
		if i := find(a); i < 0 || !table[i].IgnoresGlobal || r.NamesAgent(a) {
			return r.GroupFor(agents), ""
		}
	}
	return r.NoGroup(), strings.Join(agents, ", ") + ` ignore the rules for "*", as Google documents (` + googleSpecial +
		`), and no group names them: they may fetch every URL.`
}

// Deciding returns the token whose group decides for agent in r, as
// [Group] selects it, and that group; for an agent that is not in the
// table, agent itself. named reports whether a group of r names that
// token (a `*` group or no group decides otherwise). Unlike Group it
// writes no note, and allocates nothing.
func Deciding(r *robotstxt.Robots, agent string) (token string, g robotstxt.Group, named bool) {
	if i := find(agent); i >= 0 {
		token, named = table[i].follows(r)
	} else {
		token, named = agent, r.Kind() == robotstxt.Parsed && r.NamesAgent(agent)
	}
	return token, GroupOf(r, token), named
}
