package robotstxt

import (
	"bytes"
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// These tests hold the index of large groups (index.go) against the slow
// reference: rules whose literal prefixes share long prefixes and nest,
// wildcard and anchored rules, "/index.htm" rules and empty patterns, in
// groups that are merged for one agent.

// prefixPieces are the path segments that literal prefixes are made of, so
// that many rules share long prefixes and nest in one another.
var prefixPieces = []string{"/a", "/ab", "/b", "/a/", "/", "/x1", "/x12", "/x1/y", "?q=", ";p", "/%C3%A9", "/a%2f"}

// randIndexedPattern returns a pattern built from prefixPieces, maybe with
// '*', a final '$' or an "/index.htm" segment.
func randIndexedPattern(rng *rand.Rand) string {
	var b strings.Builder
	switch rng.IntN(10) {
	case 0:
		return ""
	case 1:
		b.WriteByte('*')
	}
	for range 1 + rng.IntN(4) {
		b.WriteString(prefixPieces[rng.IntN(len(prefixPieces))])
	}
	switch rng.IntN(8) {
	case 0:
		b.WriteString("*")
		b.WriteString(prefixPieces[rng.IntN(len(prefixPieces))])
	case 1:
		b.WriteString("/index.htm")
	case 2:
		b.WriteString("*.pdf")
	}
	if rng.IntN(5) == 0 {
		b.WriteByte('$')
	}
	s := b.String()
	if s[0] != '/' && s[0] != '*' {
		s = "/" + s
	}
	return s
}

// randIndexedFile returns a file of one to three groups with many rules
// each, the agent names repeating so that groups merge.
func randIndexedFile(rng *rand.Rand) []byte {
	var b strings.Builder
	for range 1 + rng.IntN(3) {
		fmt.Fprintf(&b, "User-agent: %s\n", []string{"*", "a", "b", "a"}[rng.IntN(4)])
		for range rng.IntN(80) {
			key := "Disallow: "
			if rng.IntN(2) == 0 {
				key = "Allow: "
			}
			b.WriteString(key + randIndexedPattern(rng) + "\n")
		}
	}
	return []byte(b.String())
}

// randIndexedURL returns a path built like the patterns, so that it often
// runs along their literal prefixes; sometimes absolute, or a query alone.
func randIndexedURL(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(6) {
		b.WriteString(prefixPieces[rng.IntN(len(prefixPieces))])
	}
	b.WriteString([]string{"", "", ".pdf", "/index.html", "x"}[rng.IntN(5)])
	u := b.String()
	switch rng.IntN(6) {
	case 0:
		return "http://h" + u
	case 1:
		return "http://h?" + u
	}
	if u == "" || u[0] != '/' {
		u = "/" + u
	}
	return u
}

// TestIndexAgreesWithSlow compares files whose every group is indexed, and
// files laid out as Parse lays them out, asked through a parse kept and
// through a fresh parse for each question, with the slow reference.
func TestIndexAgreesWithSlow(t *testing.T) {
	n := 150
	if !longTests() {
		n = 60
	}
	rng := rand.New(rand.NewPCG(9309, 11))
	for range n {
		body := randIndexedFile(rng)
		slow := slowParse(body)
		for _, min := range []int{1, indexMin} {
			r := parseWith(body, min)
			checkFile(t, body, r, slow)
			checkIndexedQuestions(t, rng, body, func() *Robots { return r }, slow)
		}
		// Each question to a fresh parse: its first query scans a group
		// with an index (see compiledFile.scan), and the next ones, in
		// checkDecide, search the index built for them.
		checkIndexedQuestions(t, rng, body, func() *Robots { return parse(body) }, slow)
	}
}

// TestIndexBuiltOnce pins when a group's index is built (see
// compiledFile.index): the first query of a Robots that reaches a group
// with an index scans it and allocates nothing; the next builds the index;
// later ones allocate nothing. A crawler that asks a file one question
// never builds it.
func TestIndexBuiltOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 3 * walkMax {
		fmt.Fprintf(&b, "Disallow: /d%d/\nAllow: /d%d/*.css$\n", i, i)
	}
	r := parse([]byte(b.String()))
	if _, wild, _ := r.compiled().groupRules(0); wild&idxBit == 0 {
		t.Fatal("the test wants a group with an index")
	}
	mallocs := func(url string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		boolSink = r.Allowed("Googlebot", url)
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	if n := mallocs("https://example.com/d7/x"); n != 0 {
		t.Errorf("first query: %d allocations, want 0 (a scan)", n)
	}
	if r.compiled().indexes.p.Load() != scannedOnce {
		t.Errorf("after the first query: no mark of the scan")
	}
	if n := mallocs("https://example.com/d8/x"); n == 0 {
		t.Errorf("second query: no allocation, want the index built")
	}
	if n := mallocs("https://example.com/d9/x.css"); n != 0 {
		t.Errorf("third query: %d allocations, want 0", n)
	}
	if r.Allowed("Googlebot", "/d9/x") || !r.Allowed("Googlebot", "/d9/x.css") {
		t.Error("wrong answers through the index")
	}
}

// TestIndexFirstAndTable asks a file with two groups that have an index,
// in turn, so that the first index built is read from the Robots itself
// and the second from the table (see compiledFile.index), and holds each answer
// to the slow reference; then loads another file into the same Robots,
// which must forget both.
func TestIndexFirstAndTable(t *testing.T) {
	var b strings.Builder
	for _, agent := range []string{"a", "b"} {
		fmt.Fprintf(&b, "User-agent: %s\n", agent)
		for i := range 3 * walkMax {
			fmt.Fprintf(&b, "Disallow: /%s%d/\nAllow: /%s%d/*.css$\n", agent, i, agent, i)
		}
	}
	body := []byte(b.String())
	r, slow := parse(body), slowParse(body)
	if _, wild, _ := r.compiled().groupRules(1); wild&idxBit == 0 {
		t.Fatal("the test wants two groups with an index")
	}
	for k := range 12 {
		agent := []string{"a", "b"}[k%2]
		checkDecide(t, body, r, slow, agent, fmt.Sprintf("/%s%d/x.css", agent, k))
		checkDecide(t, body, r, slow, agent, fmt.Sprintf("/%s%d/x", []string{"b", "a"}[k%2], k))
	}
	x := r.compiled().indexes.p.Load()
	if x == nil || x.id != 0 {
		t.Fatalf("first index %+v, want group 0's", x)
	}
	if y := x.others.p.Load().byGroup[1].p.Load(); y == nil || y == x || y.id != 1 {
		t.Fatalf("table holds %p for group 1, want its own index", y)
	}

	other := []byte("User-agent: a\nDisallow: /\n")
	data, _ := parse(other).MarshalBinary()
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if r.compiled().indexes.p.Load() != nil {
		t.Fatal("a loaded Robots keeps the indexes of the file before")
	}
	checkDecide(t, other, r, slowParse(other), "a", "/a1/x.css")
}

// TestRunDirectory builds the index of a group whose root run holds many
// wildcard rules, as "/*/x..." rules make: the run has a directory (see
// appendDirs) that holds each of its rules once, under the last pair of its
// pattern, in precedence order within a pair; and the answers through it
// are the slow reference's, for paths made from the rules and others.
func TestRunDirectory(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 9))
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /\nAllow: /$\n")
	for i := range 3 * dirMin {
		// Shared last pairs too, so that a pair has several rules.
		fmt.Fprintf(&b, "Disallow: /*/d%d/%c\nAllow: /*/d%d/*.css$\n", i, 'a'+i%5, i%7)
	}
	body := []byte(b.String())
	r, slow := parse(body), slowParse(body)
	checkDecide(t, body, r, slow, "x", "/a/d1/a")
	checkDecide(t, body, r, slow, "x", "/a/d2/b")
	x := r.compiled().indexes.p.Load()
	if x == nil || x == scannedOnce {
		t.Fatal("two questions built no index")
	}
	if l := x.r.link(x.at, 0, 0); l&dirBit == 0 {
		t.Fatalf("the root run's first link %#x has no directory", l)
	}
	// The directory, read as searchDir reads it.
	tab := x.at + x.dirs()
	if n := x.r.word(tab); n != 1 || x.r.word(tab+1) != 0 {
		t.Fatalf("directories' table: %d directories, the first of run %d; want 1, of run 0", n, x.r.word(tab+1))
	}
	d := x.at + x.r.word(tab+2)
	var bm [4]uint64
	groups := 0
	for w := range bm {
		bm[w] = le64(x.r.words(d+2*uint32(w), 2))
		groups += bits.OnesCount64(bm[w])
	}
	entries := d + 8 + uint32(groups) + 1
	seen := map[uint32]bool{}
	g := uint32(0)
	for low := range 256 {
		if bm[low>>6]>>(low&63)&1 == 0 {
			continue
		}
		from, to := x.r.word(d+8+g), x.r.word(d+8+g+1)
		g++
		var last uint64
		for e := from; e < to; e++ {
			k, probes := x.r.word(entries+2*e), x.r.word(entries+2*e+1)
			if seen[k] || probes != x.r.word(x.at+k*linkWords) || int(probes&0xff) != low {
				t.Fatalf("entry %d: rule %d, probes %#x, under pair %d: seen twice or wrong probes", e, k, probes, low)
			}
			seen[k] = true
			o, _, _ := x.r.orderPattern(k)
			if e > from && o >= last {
				t.Fatalf("pair %d: rule %d follows one of no higher precedence", low, k)
			}
			last = o
		}
	}
	run := uint32(1)
	for run < x.n && x.r.link(x.at, 0, run)&runBit != 0 {
		run++
	}
	if len(seen) != int(run) {
		t.Fatalf("the directory holds %d rules, the run %d", len(seen), run)
	}
	for _, sr := range slow.rules("x") {
		checkDecide(t, body, r, slow, "x", urlFromPattern(rng, sr.pattern))
		checkDecide(t, body, r, slow, "x", "/q"+urlFromPattern(rng, sr.pattern))
	}
	for _, u := range []string{"/", "/index.html", "/a/d3/", "/a/d3/a", "/a/b/d3/a.css", "/d3/a"} {
		checkDecide(t, body, r, slow, "x", u)
	}
}

// TestIndexConcurrent asks fresh parses from many goroutines at once, so
// that queries race to scan, to build the index and to store it (run with
// -race), and holds every answer to the slow reference.
func TestIndexConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 13))
	for range 20 {
		body := randIndexedFile(rng)
		slow := slowParse(body)
		var urls []string
		for range 40 {
			urls = append(urls, randIndexedURL(rng))
		}
		for _, min := range []int{1, indexMin} {
			r := parseWith(body, min)
			var wg sync.WaitGroup
			errs := make(chan string, 8*len(urls))
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range urls {
						u := urls[(k+5*g)%len(urls)]
						agent := []string{"a", "b", "c"}[(k+g)%3]
						want := slow.decide(agent, u)
						if got := r.Decide(agent, u); got.Allowed != want.Allowed || got.Line != want.Line {
							errs <- fmt.Sprintf("%q: Decide(%q, %q) = %+v, slow %+v", clipBody(body), agent, u, got, want)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Fatal(e)
			}
		}
	}
}

// checkIndexedQuestions asks a parse of a randIndexedFile, which robots
// returns for each question, about random paths for every agent, and about
// a path made from each pattern of agent "a", holding the answers to the
// slow reference.
func checkIndexedQuestions(t *testing.T, rng *rand.Rand, body []byte, robots func() *Robots, slow *slowFile) {
	t.Helper()
	for range 20 {
		for _, agent := range []string{"a", "b", "c"} {
			checkDecide(t, body, robots(), slow, agent, randIndexedURL(rng))
		}
	}
	for _, sr := range slow.rules("a") {
		checkDecide(t, body, robots(), slow, "a", urlFromPattern(rng, sr.pattern))
	}
}

// TestIndexIsUsed checks which groups are indexed (see builder.indexes),
// so that the tests above hold both layouts: a group is indexed from
// indexMin rules when a query could walk more than walkMax of them by key,
// and from fewIndexed rules always.
func TestIndexIsUsed(t *testing.T) {
	rules := func(n int, value func(i int) string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "Disallow: %s\n", value(i))
		}
		return b.String()
	}
	oneKey := func(i int) string { return fmt.Sprintf("/d%d/", i) }            // every rule keyed 'd'
	spread := func(i int) string { return fmt.Sprintf("/%c%d/", 'a'+i%26, i) } // keys a to z
	anyPath := func(i int) string { return fmt.Sprintf("/*x%d", i) }           // key 0: may match any path
	for _, tt := range []struct {
		why   string
		group string
		want  bool
	}{
		{"fewer than indexMin rules", rules(indexMin-1, oneKey), false},
		{"walkMax rules of one key", rules(walkMax, oneKey), false},
		{"walkMax+1 rules of one key", rules(walkMax+1, oneKey), true},
		{"walkMax+1 rules that may match any path", rules(walkMax+1, anyPath), true},
		{"walkMax rules that may match any path, and one keyed", rules(walkMax, anyPath) + "Disallow: /a\n", true},
		{"fewIndexed-1 rules over 26 keys", rules(fewIndexed-1, spread), false},
		{"fewIndexed rules over 26 keys", rules(fewIndexed, spread), true},
	} {
		r := parse([]byte("User-agent: a\nDisallow: /x\nUser-agent: b\n" + tt.group))
		for i, want := range []bool{false, tt.want} {
			_, wild, _ := r.compiled().groupRules(uint32(i))
			if got := wild&idxBit != 0; got != want {
				t.Errorf("%s: group %d indexed = %v, want %v", tt.why, i, got, want)
			}
		}
		// parseWith(body, 1), as the tests above use it, indexes every group.
		r = parseWith([]byte("User-agent: b\n"+tt.group), 1)
		if _, wild, _ := r.compiled().groupRules(0); wild&idxBit == 0 {
			t.Errorf("%s: parseWith(body, 1) did not index the group", tt.why)
		}
	}
}

// FuzzIndex checks any file, with every group indexed, against the slow
// reference.
func FuzzIndex(f *testing.F) {
	rng := rand.New(rand.NewPCG(9309, 12))
	for range 8 {
		f.Add(randIndexedFile(rng), randIndexedURL(rng))
	}
	f.Fuzz(func(t *testing.T, body []byte, url string) {
		if len(body) > 16<<10 || len(url) > 1024 {
			return
		}
		r, slow := parseWith(body, 1), slowParse(body)
		checkFile(t, body, r, slow)
		for _, agent := range []string{"a", "b", "*"} {
			if slow.cost(agent, url) <= slowBudget {
				checkDecide(t, body, r, slow, agent, url)
			}
		}
	})
}

// TestIndexSamples checks groups large enough to keep samples (see
// sampleMin): their answers equal those of the same file laid out without
// an index, which the tests above hold against the slow reference, for
// paths inside, between and outside the shared prefix of the rules.
func TestIndexSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 15))
	for _, shared := range []string{"/", "/site/archive/d", "/a"} {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		n := sampleMin + rng.IntN(3*sampleMin)
		for range n {
			key := "Disallow: "
			if rng.IntN(3) == 0 {
				key = "Allow: "
			}
			p := fmt.Sprintf("%s%05d/%s", shared, rng.IntN(4*n), strings.Repeat("sub/", rng.IntN(3)))
			switch rng.IntN(6) {
			case 0:
				p += "*.pdf$"
			case 1:
				p += "$"
			case 2:
				p = p[:len(shared)+rng.IntN(6)]
			}
			b.WriteString(key + p + "\n")
		}
		body := []byte(b.String())
		indexed, plain := parse(body), parseWith(body, 1<<30)
		if _, wild, end := indexed.compiled().groupRules(0); wild&idxBit == 0 || end < sampleMin {
			t.Fatalf("the group of %d rules is not indexed with samples", end)
		}
		for range 3000 {
			u := fmt.Sprintf("%s%05d/%s%s", shared, rng.IntN(4*n), strings.Repeat("sub/", rng.IntN(4)), []string{"", "x.pdf", "x", "?q"}[rng.IntN(4)])
			switch rng.IntN(8) {
			case 0:
				u = u[:rng.IntN(len(u)+1)]
			case 1:
				u = "/zz" + u
			case 2:
				u = "http://h?" + u
			}
			if got, want := indexed.Decide("a", u), plain.Decide("a", u); got != want {
				t.Fatalf("shared %q, %d rules: Decide(%q) = %+v, without the index %+v", shared, n, u, got, want)
			}
		}
		u := shared + "00001/x"
		if n := testing.AllocsPerRun(100, func() { boolSink = indexed.Allowed("a", u) }); n != 0 {
			t.Errorf("Allowed through the samples: %v allocations, want 0", n)
		}
		if ga, gb := load(t, indexed).Decide("a", shared+"00001/"), indexed.Decide("a", shared+"00001/"); ga != gb {
			t.Fatalf("loaded from its binary form: %+v, parsed: %+v", ga, gb)
		}
	}
}

// TestHeadAt holds headAt, which reads whole words where it can, to the
// bytes of the prefix from depth on, padded with zeros: at every depth of
// literals of every length around a word, both ends of the word inside,
// outside and across the literal's end.
func TestHeadAt(t *testing.T) {
	lit := []byte("/abcdefghijklmnopqrstuvwxyz")
	for n := 0; n <= 20; n++ {
		for depth := 0; depth <= 24; depth++ {
			var want uint64
			for d := depth; d < depth+8; d++ {
				want <<= 8
				if d < n {
					want |= uint64(lit[d])
				}
			}
			if got := headAt(lit[:n], depth); got != want {
				t.Errorf("headAt(%q, %d) = %#x, want %#x", lit[:n], depth, got, want)
			}
			if got := headAt(string(lit[:n]), depth); got != want {
				t.Errorf("headAt(string %q, %d) = %#x, want %#x", lit[:n], depth, got, want)
			}
		}
	}
}

// literalOrder returns the order sortFewByLiteral and sortByLiteral give
// the rules whose literal prefixes are lits, sorted plainly: by literal
// prefix, equal prefixes in precedence order (by rank, then in file order),
// with sameRun on the rules that do not start their run.
func literalOrder(lits [][]byte, rules []rule) []uint64 {
	want := make([]uint64, len(lits))
	for i := range want {
		want[i] = uint64(i)
	}
	slices.SortFunc(want, func(x, y uint64) int {
		if c := bytes.Compare(lits[x], lits[y]); c != 0 {
			return c
		}
		if c := cmp.Compare(rules[y].rank(), rules[x].rank()); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	for k := len(want) - 1; k > 0; k-- {
		if bytes.Equal(lits[want[k]], lits[want[k-1]]) {
			want[k] |= sameRun
		}
	}
	return want
}

// randLiterals returns n literal prefixes, slices of one buffer whose room
// runs on past each (as in a parse, where the sorts read whole words), and
// n rules whose ranks tie often. A prefix is a stem, some random bytes, or
// now and then a copy of an earlier prefix; the stems make many prefixes
// share long beginnings and tie on the five, six and seven bytes of a key
// and on their multiples.
func randLiterals(rng *rand.Rand, n int, stems []string) ([][]byte, []rule) {
	var buf []byte
	ends := make([]int, n+1)
	rules := make([]rule, n)
	for i := range n {
		if i > 0 && rng.IntN(8) == 0 {
			j := rng.IntN(i)
			buf = append(buf, buf[ends[j]:ends[j+1]]...)
		} else {
			buf = append(buf, stems[rng.IntN(len(stems))]...)
			for range rng.IntN(10) {
				buf = append(buf, "ab/-z"[rng.IntN(5)])
			}
		}
		ends[i+1] = len(buf)
		rules[i] = rule{n: uint16(rng.IntN(4)), flags: ruleFlags(rng.IntN(4)) & (ruleAllow | ruleAnchored)}
	}
	buf = append(buf, "/trailing"...) // room past the last prefix, too
	lits := make([][]byte, n)
	for i := range lits {
		lits[i] = buf[ends[i]:ends[i+1]]
	}
	return lits, rules
}

// TestSortByLiteral holds the sort of large groups (more than smallIdxMask
// rules, by keys of midIdxBits or idxBits of index) to a plain sort, as
// TestSortFewByLiteral does for small ones, and the length each run's first
// key holds of the prefix its literal prefix shares with the one before
// (see lcpShift): groups just above smallIdxMask,
// around radixMin ties, a few thousand rules of a few stems, and groups just
// below and above midIdxMask; stems end on the boundaries of five, six and
// seven bytes of key and their multiples, as the corpus's largest groups do
// ("/html/A90177_01/", "/l=1/a=4/").
func TestSortByLiteral(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 65536))
	stems := []string{"", "/", "/a", "/a=", "/html", "/html/", "/html/A", "/html/A9017", "/html/A90177", "/html/A90177_",
		"/l=1/a=", "/cd/E18601_08/", "/wp-admin/ajax", "/x?", "/abcdefghijklmno"}
	sizes := []int{smallIdxMask + 1, 300, 700, 3000, 3000, midIdxMask, midIdxMask + 1}
	if longTests() {
		sizes = append(sizes, 20000, 100000)
	}
	var tmp []uint64
	for trial, n := range sizes {
		for _, few := range []int{len(stems), 3} {
			lits, rules := randLiterals(rng, n, stems[len(stems)-few:])
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = uint64(i)
			}
			sortByLiteral(keys, lits, rules, &tmp)
			want := literalOrder(lits, rules)
			for k := 1; k < n; k++ {
				if want[k]&sameRun == 0 {
					x, y := lits[want[k-1]&idxMask], lits[want[k]&idxMask]
					shared := 0
					for shared < len(x) && shared < len(y) && x[shared] == y[shared] {
						shared++
					}
					want[k] |= uint64(shared) << lcpShift
				}
			}
			if !slices.Equal(keys, want) {
				k := 0
				for keys[k] == want[k] {
					k++
				}
				t.Fatalf("trial %d, %d prefixes of %d stems: at %d sortByLiteral has %x (%q), want %x (%q)",
					trial, n, few, k, keys[k], lits[keys[k]&idxMask], want[k], lits[want[k]&idxMask])
			}
		}
	}
}

// TestSortFewByLiteral checks that the sort of small indexed groups orders
// rules as sortIndexed needs them (by literal prefix, equal prefixes in
// precedence order: by rank, then in file order) and marks those that do
// not start their run, on random prefixes built to share long beginnings,
// to tie on the seven bytes of a key and past them (stems of 7 and 14 bytes
// end on those boundaries), and to repeat, with ranks that tie too. As in a
// parse, the prefixes are slices of one buffer whose room runs on into the
// bytes after them, which headBytes reads and must mask off.
func TestSortFewByLiteral(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4096))
	stems := []string{"", "/", "/a", "/wp-adm", "/wp-admin/", "/wp-admin/ajax", "/catalog/product/", "/x?"}
	for trial := range 2000 {
		n := 1 + rng.IntN(smallIdxMask)
		if trial%2 == 0 {
			n = 1 + rng.IntN(20)
		}
		lits, rules := randLiterals(rng, n, stems)
		few := make([]uint64, n)
		for i := range n {
			few[i] = uint64(i)
		}
		sortFewByLiteral(few, lits, rules, make([]uint64, n))
		if want := literalOrder(lits, rules); !slices.Equal(few, want) {
			t.Fatalf("trial %d, %d prefixes: sortFewByLiteral %x, want %x", trial, n, few, want)
		}
	}
}

// TestLiteralReaders pins the readers a query's binary search uses against
// the literal prefix they stand for: literalHead(i) is headAt of
// literalOf(i), and compareLiteral(p, i) is p.compare(literalOf(i)), on
// random indexed files and paths that run along their prefixes, with and
// without the virtual leading '/'.
func TestLiteralReaders(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 8))
	for range 40 {
		body := randIndexedFile(rng)
		// Longer pieces too, so that heads of eight bytes tie.
		body = append(body, "User-agent: *\nDisallow: /abcdefgh*x\nDisallow: /abcdefghij$\nAllow: /abcdefg*\nDisallow: /abcdefgh\n"...)
		r := parseWith(body, 1)
		n := uint32(0)
		if r.compiled().hasWords() {
			n = r.compiled().group(r.compiled().numGroups()).start
		}
		for i := range n {
			lit := r.compiled().literalOf(i)
			if got, want := r.compiled().literalHead(i), headAt(lit, 0); got != want {
				t.Fatalf("rule %d, literal %q: literalHead = %#x, want %#x", i, lit, got, want)
			}
			for range 10 {
				u := randIndexedURL(rng)
				if rng.IntN(3) == 0 {
					u = lit + u[1:]
				}
				for _, p := range []urlPath{pathOf(u), {rest: strings.TrimPrefix(u, "/"), slash: true}} {
					if got, want := r.compiled().compareLiteral(p, i), p.compare(lit); got != want {
						t.Fatalf("path %q, literal %q: compareLiteral = %d, want %d", p.String(), lit, got, want)
					}
				}
			}
		}
	}
}

// TestIndexHeads pins the heads an index keeps for its binary search (see
// groupIndex): buildIndex writes each from the builder's rule before the
// buffer becomes the index's text, and each must be literalHead of the
// rule as that text holds it, for random indexed files and the longer
// pieces whose heads of eight bytes tie.
func TestIndexHeads(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 9))
	for range 40 {
		body := randIndexedFile(rng)
		body = append(body, "User-agent: *\nDisallow: /abcdefgh*x\nDisallow: /abcdefghij$\nAllow: /abcdefg*\nDisallow: /abcdefgh\nDisallow: /a*\nDisallow: /ab$\n"...)
		r := parseWith(body, 1)
		if !r.compiled().hasWords() {
			continue
		}
		for id := range r.compiled().numGroups() {
			start, wild, end := r.compiled().groupRules(id)
			if wild&idxBit == 0 {
				continue
			}
			x := r.compiled().buildIndex(id, start, end, true)
			for k := range x.n {
				if got, want := le64(x.r.words(x.heads()+2*k, 2)), x.r.literalHead(k); got != want {
					t.Fatalf("group %d, rule %d, literal %q: head %#x, want %#x", id, k, x.r.literalOf(k), got, want)
				}
			}
		}
	}
}

// TestProbesOfMergedCopies pins where a keyed wildcard rule keeps its
// probes (see probesPay): 0 in the text, as every group is laid out to be
// walked by key, and the pattern's probes in the index of a merged group
// that has one. Either way the answers are the slow reference's, before
// and after the binary round trip.
func TestProbesOfMergedCopies(t *testing.T) {
	var b strings.Builder
	for i := range 2 * mergeMin {
		fmt.Fprintf(&b, "User-agent: a\nDisallow: /d%d*.pdf\nAllow: /d*/keep%d$\nDisallow: /e*x%d\n", i, i, i)
	}
	body := []byte(b.String())
	r, slow := parse(body), slowParse(body)
	var walked, indexed int
	for g := range r.compiled().numGroups() {
		start, _, end := r.compiled().groupRules(g)
		isIndexed := r.compiled().group(g).wild&idxBit != 0
		if isIndexed != r.compiled().isCopy(g) {
			t.Fatalf("group %d: indexed %v, merged copy %v; the test wants the copy alone indexed", g, isIndexed, r.compiled().isCopy(g))
		}
		for i := start; i < end; i++ {
			pat := r.compiled().pattern(i)
			_, w1, patEnd := r.compiled().ruleWords3(i)
			if !recStar(w1) || ruleKey(pat) == 0 {
				t.Fatalf("rule %d %q: the test wants keyed wildcard rules only", i, pat)
			}
			if isIndexed {
				indexed++
			} else {
				walked++
			}
			// A wildcard pattern is followed by its probes: 0 for a keyed
			// rule, as every group is laid out to be walked.
			if got := le32(r.compiled().text[patEnd : patEnd+filterLen]); got != 0 {
				t.Errorf("rule %d %q (indexed group %v): probes %#x, want 0", i, pat, isIndexed, got)
			}
		}
		if isIndexed {
			// The index keeps the probes of each rule beside its link.
			x := r.compiled().index(g, start, end, true)
			for k := range x.n {
				pat := r.compiled().pattern(x.rule(k))
				want := patternProbes([]byte(strings.TrimSuffix(pat, "$")))
				if got := x.r.word(x.at + k*linkWords); got != want {
					t.Errorf("rule %d %q in the index: probes %#x, want %#x", x.rule(k), pat, got, want)
				}
			}
		}
	}
	if walked == 0 || indexed == 0 {
		t.Fatalf("%d rules in groups walked by key, %d in indexed ones: want both", walked, indexed)
	}
	loaded := load(t, r)
	for i := range 2 * mergeMin {
		for _, u := range []string{
			fmt.Sprintf("/d%d/a.pdf", i), fmt.Sprintf("/d%d/keep%d", i, i), fmt.Sprintf("/d/keep%d", i),
			fmt.Sprintf("/e/x%d", i), fmt.Sprintf("/ex%d/", i), "/d.pdf", "/f",
		} {
			for _, agent := range []string{"a", "b"} {
				checkDecide(t, body, r, slow, agent, u)
				checkDecide(t, body, loaded, slow, agent, u)
			}
		}
	}
}

// TestLongestWalk pins longestWalk, which counts without a branch on the
// key, to a plain count (the rules of key 0 and those of the most common
// other key), on random groups of up to fewIndexed-1 rules drawn from few
// keys, 0 among them; and indexes to it: a group of at most walkMax rules
// is never indexed by the package's indexMin, any longer one is exactly
// when its walk is longer than walkMax.
func TestLongestWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 16))
	b := &builder{indexMin: indexMin}
	for trial := range 3000 {
		n := rng.IntN(fewIndexed)
		keys := rng.IntN(6) + 1
		rules := make([]rule, n)
		count := map[byte]int{}
		for i := range rules {
			k := "\x00abwz*"[rng.IntN(keys)]
			rules[i].key = k
			count[k]++
		}
		most := 0
		for k, c := range count {
			if k != 0 {
				most = max(most, c)
			}
		}
		want := count[0] + most
		if got := longestWalk(rules); got != want {
			t.Fatalf("trial %d, %d rules: longestWalk %d, want %d", trial, n, got, want)
		}
		wantIdx := n >= indexMin && want > walkMax
		if got := b.indexes(rules); got != wantIdx {
			t.Fatalf("trial %d, %d rules, walk %d: indexes %v, want %v", trial, n, want, got, wantIdx)
		}
	}
}

// largeIndexFiles are real files of ../shared/corpus whose one large group
// makes the index's build most of their parse and first two questions:
// docs.oracle.com (31,847 Disallow rules like "/html/A90177_01/"),
// www.runescape.com (5,000 rules like "/l=1/a=4/") and www.smugmug.com
// (forty groups of about 150 rules).
var largeIndexFiles = []string{"docs.oracle.com.txt", "www.runescape.com.txt", "www.smugmug.com.txt"}

// BenchmarkIndexLarge parses each of largeIndexFiles and asks it two
// questions, the second of which builds the large group's index (see
// compiledFile.index); it skips when ../shared is absent.
func BenchmarkIndexLarge(b *testing.B) {
	dir := needShared(b, filepath.Join("corpus", "real"))
	for _, name := range largeIndexFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Skipf("%s: %v", name, err)
		}
		b.Run(strings.TrimSuffix(name, ".txt"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				r := parse(data)
				boolSink = r.Allowed("Googlebot", "/")
				boolSink = r.Allowed("Googlebot", "/a")
			}
		})
	}
}

// BenchmarkSortIndexed builds the index of one group made of the Allow and
// Disallow lines of each of largeIndexFiles (of its first 200 lines, a
// small group, for www.smugmug.com, whose groups are small): the sort and
// the links alone, without the rest of the parse. It skips when ../shared
// is absent.
func BenchmarkSortIndexed(b *testing.B) {
	dir := needShared(b, filepath.Join("corpus", "real"))
	for _, name := range largeIndexFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Skipf("%s: %v", name, err)
		}
		var rules []rule
		for off := 0; off < len(data); {
			end := bytes.IndexByte(data[off:], '\n')
			if end < 0 {
				end = len(data) - off
			}
			line := data[off : off+end]
			if k, v, ok := bytes.Cut(line, []byte(":")); ok && (bytes.EqualFold(k, []byte("disallow")) || bytes.EqualFold(k, []byte("allow"))) {
				v = bytes.TrimSpace(v)
				ru := rule{off: uint32(off + bytes.Index(line, v)), n: uint16(len(v)), line: uint32(len(rules))}
				if bytes.IndexByte(v, '*') >= 0 {
					ru.flags |= ruleStar
				}
				if len(k) == len("allow") {
					ru.flags |= ruleAllow
				}
				ru.key = ruleKey(v)
				rules = append(rules, ru)
			}
			off += end + 1
		}
		if name == "www.smugmug.com.txt" {
			rules = rules[:200]
		}
		bd := &builder{src: data, scratch: &scratch{}, indexMin: indexMin}
		work := make([]rule, len(rules))
		var links []uint32
		b.Run(fmt.Sprintf("%s-%d", strings.TrimSuffix(name, ".txt"), len(rules)), func(b *testing.B) {
			for b.Loop() {
				copy(work, rules)
				links = bd.sortIndexed(work, links[:0])
			}
		})
	}
}

// TestIndexBytesPerRule holds the cost of an index that the doc comments
// of Robots and indexMin state: besides a copy of the group's patterns, 28
// bytes a rule, and half a byte more in a group of sampleMin rules or more
// (a sample of 8 bytes every sampleStep rules).
func TestIndexBytesPerRule(t *testing.T) {
	extra := func(n int) int {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := range n {
			fmt.Fprintf(&b, "Disallow: /p%d/x\n", i)
		}
		c := parse([]byte(b.String())).compiled()
		start, _, end := c.groupRules(0)
		x := c.buildIndex(0, start, end, false)
		return len(x.r.text) - int(x.r.wordsAt) // all but the patterns' copy
	}
	for _, c := range []struct {
		name    string
		n1, n2  int
		perRule float64
	}{
		{"groups under sampleMin rules", 100, 500, 28},
		{"groups of sampleMin rules or more: samples", 1000, 5000, 28.5},
	} {
		e1, e2 := extra(c.n1), extra(c.n2)
		if got := float64(e2-e1) / float64(c.n2-c.n1); got != c.perRule {
			t.Errorf("%s: %.2f bytes a rule besides the patterns (%d at %d rules, %d at %d), want %.1f",
				c.name, got, e1, c.n1, e2, c.n2, c.perRule)
		}
	}
}
