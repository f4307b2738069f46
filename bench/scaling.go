package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
)

// scaleSizes are the rule counts of the synthetic single groups.
var scaleSizes = []int{10, 100, 1_000, 10_000, 100_000}

// Query kinds of the scaling table.
const (
	kindHit  = iota // under a literal rule: the rule decides
	kindMiss        // under the directory of literal rules, matching none
	kindWild        // under the directory of a wildcard rule (in the other set, a miss)
	nKinds
)

var kindNames = [nKinds]string{"hit", "miss", "under a wildcard dir"}

// scaleQuestions is how many questions of each kind a file is asked.
const scaleQuestions = 16

// scaleDir is the directory that rules 2k and 2k+1 share. Every rule shares
// the prefix "/site/archive/d", and rules of nearby k share more of it.
func scaleDir(k int) string { return fmt.Sprintf("/site/archive/d%05d/", k) }

// scaleRule returns rule i of a scaling file: "Disallow: <dir>sub/…/" for
// even i, with 1 to 3 levels of "sub/"; "Allow: <dir>sub/…/keep/" below it
// for odd i. With wild, every fifth rule (i%5 == 4) is instead
// "Disallow: <dir>*.pdf$", a wildcard rule whose literal prefix is the
// directory.
func scaleRule(i int, wild bool) (line, path string, allow bool) {
	k := i / 2
	dir := scaleDir(k)
	if wild && scaleWild(i) {
		return "Disallow: " + dir + "*.pdf$", "", false
	}
	path = dir + strings.Repeat("sub/", 1+k%3)
	if i%2 == 1 {
		return "Allow: " + path + "keep/", path + "keep/", true
	}
	return "Disallow: " + path, path, false
}

// scaleWild reports whether rule i is a wildcard rule in the wildcard set.
func scaleWild(i int) bool { return i%5 == 4 }

// scaleFile returns a robots.txt of one "User-agent: *" group of n rules
// (see scaleRule) in a fixed shuffled order.
func scaleFile(n int, wild bool) []byte {
	lines := make([]string, n)
	for i := range n {
		lines[i], _, _ = scaleRule(i, wild)
	}
	rand.New(rand.NewPCG(1, uint64(n))).Shuffle(n, func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	return []byte("User-agent: *\n" + strings.Join(lines, "\n") + "\n")
}

// scaleQuery is one question of the scaling table, with the answer each
// set of rules gives.
type scaleQuery struct {
	q    question
	want [2]bool // [literal set, wildcard set]
}

// scaleQueries returns the questions of each kind for a file of n rules,
// spread over the directories. The same questions are asked of both sets.
func scaleQueries(n int) [nKinds][]scaleQuery {
	ask := func(path string, lit, wild bool) scaleQuery {
		return scaleQuery{q: question{agent: "Googlebot", url: "https://example.com" + path}, want: [2]bool{lit, wild}}
	}
	var out [nKinds][]scaleQuery
	// Hits: under literal rules (literal in both sets), spread over i.
	var hits []int
	for i := range n {
		if !scaleWild(i) {
			hits = append(hits, i)
		}
	}
	for _, i := range spreadPick(hits, scaleQuestions) {
		_, path, allow := scaleRule(i, false)
		out[kindHit] = append(out[kindHit], ask(path+"page.html", allow, allow))
	}
	// Misses and wildcard directories, by directory k (rules 2k and 2k+1).
	var plain, wild []int
	for k := 0; 2*k < n; k++ {
		if scaleWild(2*k) || 2*k+1 < n && scaleWild(2*k+1) {
			wild = append(wild, k)
		} else {
			plain = append(plain, k)
		}
	}
	for _, k := range spreadPick(plain, scaleQuestions) {
		out[kindMiss] = append(out[kindMiss], ask(scaleDir(k)+"other/page.html", true, true))
	}
	for _, k := range spreadPick(wild, scaleQuestions/2) {
		out[kindWild] = append(out[kindWild],
			ask(scaleDir(k)+"files/report.pdf", true, false),
			ask(scaleDir(k)+"files/report.html", true, true))
	}
	return out
}

// spreadPick returns up to n elements of v, evenly spaced.
func spreadPick(v []int, n int) []int {
	if len(v) <= n {
		return v
	}
	out := make([]int, n)
	for j := range n {
		out[j] = v[j*len(v)/n]
	}
	return out
}

// scaleCase is one synthetic file: a size and a set of rules.
type scaleCase struct {
	n, size int
	wild    bool
	parse   *series // ours
	query   [nKinds][nLibs]*series
	wrong   [nLibs]int // answers that differ from the rules' meaning
	asked   int
}

// scaleMeasure times ours and temoto on synthetic single groups of growing
// size: a cost per query that does not depend on the size of the group is
// what an index on the rules buys.
type scaleMeasure struct{ cases []*scaleCase }

func newScaleMeasure(l *loop) *scaleMeasure {
	m := &scaleMeasure{}
	for _, wild := range []bool{false, true} {
		set := 0
		if wild {
			set = 1
		}
		for _, n := range scaleSizes {
			data := scaleFile(n, wild)
			c := &scaleCase{n: n, size: len(data), wild: wild}
			c.parse = newSeries(func(int) { sinkAny, _ = ours.parse(data) })
			l.add(c.parse)
			qs := scaleQueries(n)
			for _, li := range []int{iTemoto, iOurs} {
				_, answer, err := libraries[li].open(data)
				if err != nil {
					logf("scaling: %s could not open %d rules: %v", libraries[li].name, n, err)
					continue
				}
				for kind := range nKinds {
					var questions []question
					for _, sq := range qs[kind] {
						questions = append(questions, sq.q)
						if li == iOurs {
							c.asked++
						}
						if answer(&sq.q) != sq.want[set] {
							c.wrong[li]++
						}
					}
					if len(questions) > 0 {
						c.query[kind][li] = newCycle(func(i int) { sinkBool = answer(&questions[i%len(questions)]) }, len(questions))
					}
				}
			}
			for kind := range nKinds {
				l.add(c.query[kind][:]...)
			}
			m.cases = append(m.cases, c)
		}
	}
	return m
}

func (m *scaleMeasure) print(w io.Writer) {
	byKey := map[[2]int]*scaleCase{}
	for _, c := range m.cases {
		byKey[scaleKey(c.n, c.wild)] = c
	}
	first, last := scaleSizes[0], scaleSizes[len(scaleSizes)-1]
	for _, wild := range []bool{false, true} {
		title := "Scaling: one group of literal rules, ns/query"
		if wild {
			title = "Scaling: one group with 20% wildcard rules (`/dir/*.pdf$`), ns/query"
		}
		section(w, title)
		header := []string{"rules", "size", "ours parse, ns/rule"}
		for _, lib := range []string{"ours", "temoto"} {
			for k := range nKinds {
				header = append(header, lib+" "+kindNames[k])
			}
		}
		var rows [][]string
		for _, n := range scaleSizes {
			c := byKey[scaleKey(n, wild)]
			row := []string{commas(n), fsize(c.size), f3(c.parse.median() / float64(n))}
			for _, li := range []int{iOurs, iTemoto} {
				for k := range nKinds {
					row = append(row, fnsOf(c.query[k][li]))
				}
			}
			rows = append(rows, row)
		}
		lo, hi := byKey[scaleKey(first, wild)], byKey[scaleKey(last, wild)]
		growth := []string{fmt.Sprintf("growth %s ÷ %s", commas(last), commas(first)), "", f3(hi.parse.median()/float64(last)/(lo.parse.median()/float64(first))) + "×"}
		worst := 0.0
		for _, li := range []int{iOurs, iTemoto} {
			for k := range nKinds {
				g := medianOf(hi.query[k][li]) / medianOf(lo.query[k][li])
				if li == iOurs {
					worst = max(worst, g)
				}
				growth = append(growth, f3(g)+"×")
			}
		}
		rows = append(rows, growth)
		if wild {
			lit := byKey[scaleKey(last, false)]
			cost := []string{fmt.Sprintf("at %s: 20%% wildcard ÷ literal", commas(last)), "", "–"}
			for _, li := range []int{iOurs, iTemoto} {
				for k := range nKinds {
					cost = append(cost, f3(medianOf(hi.query[k][li])/medianOf(lit.query[k][li]))+"×")
				}
			}
			rows = append(rows, cost)
		}
		markdown(w, header, rows)
		fmt.Fprintf(w, "\nOurs grows at most %s× from %s to %s rules over the three kinds: %s.\n",
			f3(worst), commas(first), commas(last), mark("≤ 2×", worst <= 2))
	}
	var wrong []string
	for _, c := range m.cases {
		for _, li := range []int{iOurs, iTemoto} {
			if c.wrong[li] > 0 {
				wrong = append(wrong, fmt.Sprintf("%s %d of %d at %s rules (wildcard set: %v)", libraries[li].name, c.wrong[li], c.asked, commas(c.n), c.wild))
			}
		}
	}
	if len(wrong) == 0 {
		fmt.Fprintln(w, "\nEvery answer of both libraries is the one the rules call for.")
	} else {
		fmt.Fprintf(w, "\nAnswers that differ from what the rules call for: %s.\n", strings.Join(wrong, "; "))
	}
}

func scaleKey(n int, wild bool) [2]int {
	if wild {
		return [2]int{n, 1}
	}
	return [2]int{n, 0}
}

// medianOf is a series' median, NaN when it has none.
func medianOf(s *series) float64 {
	if !s.ok() {
		return math.NaN()
	}
	return s.median()
}

// fnsOf formats a series' median in ns.
func fnsOf(s *series) string { return fns(medianOf(s)) }
