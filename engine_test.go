package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// engineStrategies are the engine's ways of finding the rule that decides
// (see engine.go), each forced for every group it asks, and the whole
// dispatch as the API takes it. Each answers a question about body as
// Decide does.
var engineStrategies = []struct {
	name string
	// prepare returns what ask asks: a Robots parsed to suit the strategy.
	prepare func(t *testing.T, body []byte) *Robots
	ask     func(t *testing.T, body []byte, r *Robots, agent, url string) Decision
}{
	{"stream", nil, func(t *testing.T, body []byte, _ *Robots, agent, url string) Decision {
		// The first question of a deferred parse: the builder's rules.
		return orderDecision(firstOrder(string(body), agent, url))
	}},
	{"walk", func(t *testing.T, body []byte) *Robots {
		return parseWith(body, noIndexMin)
	}, func(t *testing.T, _ []byte, r *Robots, agent, url string) Decision {
		f := r.compiled()
		return askEachGroup(f, agent, url, func(id uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
			start, wild, end := f.groupRules(id)
			if wild&(idxBit|idxAlways) != 0 {
				t.Fatalf("group %d has an index under noIndexMin", id)
			}
			return f.walk(start, wild, end, q, bi, bo)
		})
	}},
	{"scan", func(t *testing.T, body []byte) *Robots {
		return parse(body)
	}, func(t *testing.T, _ []byte, r *Robots, agent, url string) Decision {
		// Every group scanned, whatever its layout: a scan reads the
		// rules in any order.
		f := r.compiled()
		return askEachGroup(f, agent, url, func(id uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
			start, _, end := f.groupRules(id)
			return f.scan(start, end, q, bi, bo)
		})
	}},
	{"index", func(t *testing.T, body []byte) *Robots {
		return parseWith(body, 1)
	}, func(t *testing.T, _ []byte, r *Robots, agent, url string) Decision {
		f := r.compiled()
		return askEachGroup(f, agent, url, func(id uint32, q *query, bi uint32, bo uint64) (uint32, uint64) {
			start, wild, end := f.groupRules(id)
			if wild&idxAlways == 0 {
				if start != end {
					t.Fatalf("group %d of %d rules has no index under indexMin 1", id, end-start)
				}
				return bi, bo
			}
			x := f.index(id, start, end, true)
			if i, o := x.r.searchIndex(0, x.n, x.at, x.heads(), x.dirs(), q, 0, bo); o > bo {
				return x.rule(i), o
			}
			return bi, bo
		})
	}},
	{"dispatch/first", func(t *testing.T, body []byte) *Robots {
		return nil
	}, func(t *testing.T, body []byte, _ *Robots, agent, url string) Decision {
		// A fresh Parse asked once, as a crawler asks: the dispatch
		// picks the stream for a small file, and a scan for a large
		// group of a large one.
		r := Parse(body)
		allowed := r.Allowed(agent, url)
		d := r.Decide(agent, url)
		if d.Allowed != allowed {
			t.Fatalf("%q: first Allowed(%q, %q) = %v, then Decide says %+v", clipBody(body), agent, url, allowed, d)
		}
		return d
	}},
	{"dispatch/compiled", func(t *testing.T, body []byte) *Robots {
		return Parse(body)
	}, func(t *testing.T, _ []byte, r *Robots, agent, url string) Decision {
		// A Robots kept and asked many questions: the index of a large
		// group is built by the second that reaches it.
		return r.Decide(agent, url)
	}},
}

// noIndexMin is a builder's indexMin under which no group has an index.
const noIndexMin = 1 << 30

// askEachGroup is compiledFile.decide with each group asked through group: the
// groups that decide for agent, selected as the engine selects them.
func askEachGroup(f *compiledFile, agent, url string, group func(id uint32, q *query, bi uint32, bo uint64) (uint32, uint64)) Decision {
	at, n, merged := f.groupsOf(agent)
	q := query{p: urlPath{rest: "/"}}
	if s, begin := pathStart(url); begin >= 0 {
		q.p, q.url = rawPath(s, begin), s
	}
	var (
		i uint32
		o uint64
	)
	if merged != 0 {
		i, o = group(merged-1, &q, 0, 0)
	} else {
		for k := range n {
			i, o = group(f.groupID(at, nil, k), &q, i, o)
		}
	}
	d := orderDecision(o)
	if o != 0 {
		if ru := f.rule(i); int(ru.line) != d.Line || ru.allows() != d.Allowed {
			panic(fmt.Sprintf("rule %d (line %d) of order %#x is not the rule the order stands for", i, ru.line, o))
		}
	}
	return d
}

// orderDecision is the Decision of a Parsed file whose deciding rule has
// order o (see orderOf), without the rule's text.
func orderDecision(o uint64) Decision {
	if o == 0 {
		return Decision{Allowed: true}
	}
	line := ^uint32(o)
	return Decision{Allowed: orderAllows(o), Line: int(line), Allow: o>>32&uint64(ruleAllow) != 0}
}

// TestStrategiesAgreeWithSlow asks every strategy of the engine, each
// forced on every group it asks, and the dispatch as the API takes it,
// the questions of the conformance edge cases and of random files, and
// holds each answer and deciding line to the slow reference's.
func TestStrategiesAgreeWithSlow(t *testing.T) {
	type question struct{ agent, url string }
	check := func(t *testing.T, what string, body []byte, qs []question) {
		t.Helper()
		slow := slowParse(body)
		wants := make([]Decision, len(qs))
		for k, q := range qs {
			wants[k] = slow.decide(q.agent, q.url)
			wants[k].Rule = "" // the strategies find the rule, not its text
		}
		for _, s := range engineStrategies {
			var r *Robots
			if s.prepare != nil {
				r = s.prepare(t, body)
			}
			for k, q := range qs {
				want := wants[k]
				got := s.ask(t, body, r, q.agent, q.url)
				got.Rule = ""
				if got != want {
					t.Fatalf("%s, %s: %q: Decide(%q, %q) = %+v, slow reference says %+v",
						what, s.name, clipBody(body), q.agent, q.url, got, want)
				}
			}
		}
	}

	t.Run("conformance", func(t *testing.T) {
		for _, name := range []string{"google.tsv", "edge.tsv"} {
			byFile := map[string][]question{}
			bodies := map[string][]byte{}
			var keys []string
			for _, c := range readConformance(t, conformancePath(t, name)) {
				k := c.parseKey()
				if _, ok := bodies[k]; !ok {
					bodies[k] = c.robots
					keys = append(keys, k)
				}
				byFile[k] = append(byFile[k], question{c.agent, c.url})
			}
			for _, k := range keys {
				check(t, name, bodies[k], byFile[k])
			}
		}
	})

	t.Run("random", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9309, 12))
		agents := []string{"a", "A", "b", "c", "", "*", "a/1.0", "ab", "b-_"}
		for k := range 600 {
			body := randRobots(rng)
			urls := randIndexedURL
			if k%2 == 0 {
				body = randIndexedFile(rng)
			} else {
				urls = randURL
			}
			slow := slowParse(body)
			var qs []question
			for range 6 {
				agent := agents[rng.IntN(len(agents))]
				qs = append(qs, question{agent, urls(rng)})
				for _, sr := range slow.rules(agent) {
					if len(sr.pattern) <= 64 && rng.IntN(4) == 0 {
						qs = append(qs, question{agent, urlFromPattern(rng, sr.pattern)})
					}
				}
			}
			check(t, fmt.Sprintf("random file %d", k), body, qs)
		}
	})
}

// TestAskedGroupsAgree holds the choice of the groups that decide for an
// agent (see decides) in the compiled lists to the slow reference, on
// random files: the rules of the Group the compiled lists select
// (groupsOf) are the rules of the slow reference's selected groups, by
// line. The choice the first question of a deferred parse makes as it
// reads the lines (asking.counts) is held to the same reference by
// TestFirstQuestionAgreesWithSlow, by the line of the deciding rule.
func TestAskedGroupsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 13))
	agents := []string{"a", "A", "b", "c", "", "*", "a/1.0", "ab", "b-_"}
	for range 2000 {
		body := randRobots(rng)
		slow := slowParse(body)
		r := parse(body)
		for _, agent := range agents {
			var want []int
			for _, sr := range slow.rules(agent) {
				want = append(want, sr.line)
			}
			slices.Sort(want)

			var compiled []int
			for _, ru := range r.Group(agent).Rules() {
				compiled = append(compiled, ru.Line)
			}

			if !slices.Equal(compiled, want) {
				t.Fatalf("%q, agent %q: rules on lines %v (compiled), slow reference says %v",
					clipBody(body), agent, compiled, want)
			}
		}
	}
}
