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
// from r.Group(agent), or "" when it does not.
//
// A crawler that ignores the `*` group (AdsBot-Google, AdsBot-Google-Mobile)
// obeys only groups that name it: when none does, Group returns
// r.NoGroup(), which allows every URL and carries the Content-Signal lines
// before the first group. A robots.txt that stands for an HTTP status
// (allow-all, disallow-all) binds every crawler alike. For any other agent,
// Group is r.Group(agent).
func Group(r *robotstxt.Robots, agent string) (g robotstxt.Group, note string) {
	c, known := Lookup(agent)
	if !known || !c.IgnoresGlobal || r.Kind() != robotstxt.Parsed || r.NamesAgent(agent) {
		return r.Group(agent), ""
	}
	return r.NoGroup(), c.Token + ` ignores the rules for "*", as Google documents (` + c.Source +
		`), and no group names it: it may fetch every URL. Add a group for ` + c.Token + ` to keep it out.`
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
		if c, known := Lookup(a); !known || !c.IgnoresGlobal || r.NamesAgent(a) {
			return r.GroupFor(agents), ""
		}
	}
	return r.NoGroup(), strings.Join(agents, ", ") + ` ignore the rules for "*", as Google documents (` + googleSpecial +
		`), and no group names them: they may fetch every URL.`
}
