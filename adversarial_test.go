package robotstxt

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// This file checks that hostile files cost no more per byte than ordinary
// ones (SPEC §5: "Matching must stay fast on hostile input"), and that every
// file of the shared corpus parses.
//
// Times are compared, not bounded: the cost per byte of each hostile case
// must stay within costFactor times the cost per byte of ordinary robots.txt
// files measured in the same run, so a slow or busy machine slows both. A
// quadratic step on a 1 MB file is thousands of times slower than a linear
// one, far beyond the factor.

// costFactor is how many times the per-byte cost of ordinary files a
// hostile case may take. It is generous so that timer noise on a loaded
// two-core machine never fails the test.
const costFactor = 50

// costFloor is the size below which a case is budgeted as if it were this
// large, so that fixed costs and timer granularity do not count against
// small files.
const costFloor = 64 << 10

// allocFactor bounds the bytes Parse may allocate per input byte, and
// retainFactor the bytes the parsed Robots may keep, each plus memSlack.
// The densest file, an empty group every 18 bytes ("useragent:\rallow:\r"),
// allocates about 19 bytes and keeps about 4 per input byte, as slices grow
// by doubling; escaping turns one byte into three and keeps the original
// beside it.
const (
	allocFactor  = 32
	retainFactor = 8
	memSlack     = 1 << 20
)

// costAgents are the agents every case is asked for: one the files rarely
// name, the token of the "botNNNNN" agents of useragents_10k.txt, and one
// the programmatic cases name.
var costAgents = []string{"Googlebot", "bot", "a"}

// costURLs are asked of files that come without a .urls list.
var costURLs = []string{
	"/",
	"https://example.com/robots.txt",
	"http://example.com/a/b/c.html?d=e&f=g",
	"https://example.com?q",
	"/" + strings.Repeat("a", 1000),
	"/p/199999/x",
}

var costSink bool

// costOf returns the shortest of three runs of parsing body and asking each
// URL for each of costAgents, and for the first run the bytes allocated
// (queries allocate nothing) and the bytes the parsed file keeps alive.
func costOf(body []byte, urls []string) (best time.Duration, alloc, kept uint64) {
	best = time.Duration(1<<63 - 1)
	for run := range 3 {
		var before, done, collected runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		r := Parse(body)
		for _, a := range costAgents {
			g := r.Group(a)
			for _, u := range urls {
				costSink = g.Allowed(u)
			}
		}
		best = min(best, time.Since(start))
		if run == 0 {
			runtime.ReadMemStats(&done)
			runtime.GC()
			runtime.ReadMemStats(&collected)
			alloc = done.TotalAlloc - before.TotalAlloc
			if collected.HeapAlloc > before.HeapAlloc {
				kept = collected.HeapAlloc - before.HeapAlloc
			}
		}
		runtime.KeepAlive(r)
	}
	return best, alloc, kept
}

// costSize is the number of bytes a case is charged for: the file and the
// URLs asked.
func costSize(body []byte, urls []string) int {
	n := len(body)
	for _, u := range urls {
		n += len(u)
	}
	return n
}

// ordinaryCost returns the per-byte cost, in nanoseconds, of ordinary
// robots.txt files: real files of the corpus of about the median size,
// concatenated to about 1 MiB, or, without the corpus, a generated file of
// typical groups.
func ordinaryCost(t *testing.T) float64 {
	t.Helper()
	body, src := realConcat(sharedPath(t, filepath.Join("corpus", "real")), 1<<20)
	if body == nil {
		body, src = typicalFile(1<<20), "generated typical groups"
	}
	d, _, _ := costOf(body, costURLs)
	perByte := float64(d.Nanoseconds()) / float64(costSize(body, costURLs))
	t.Logf("ordinary files (%s, %d bytes): %v, %.2f ns/byte", src, len(body), d, perByte)
	return perByte
}

// realConcat concatenates, in name order, the real corpus files of 500 to
// 5,000 bytes (the median is about 1 KB) from dir until the result holds
// at least n bytes. It returns nil without the corpus.
func realConcat(dir string, n int) ([]byte, string) {
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(names) == 0 {
		return nil, ""
	}
	slices.Sort(names)
	var b bytes.Buffer
	files := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil || len(data) < 500 || len(data) > 5000 {
			continue
		}
		b.Write(data)
		b.WriteByte('\n')
		files++
		if b.Len() >= n {
			break
		}
	}
	if files == 0 {
		return nil, ""
	}
	return b.Bytes(), fmt.Sprintf("%d real files", files)
}

// typicalFile returns about n bytes of ordinary groups.
func typicalFile(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "# section %d\nUser-agent: Bot%c\nUser-agent: *\nDisallow: /private/%d/\n", i, 'a'+i%26, i)
		fmt.Fprintf(&b, "Allow: /private/%d/public/\nDisallow: /*.pdf$\nDisallow: /search?q=*\nCrawl-delay: 1\n\n", i)
		fmt.Fprintf(&b, "Sitemap: https://example.com/sitemap-%d.xml\n", i)
	}
	return b.Bytes()
}

// checkCost fails when a case costs more per byte than costFactor times
// base, or Parse allocates or keeps more than allocFactor or retainFactor
// bytes per input byte.
func checkCost(t *testing.T, name string, base float64, body []byte, urls []string) {
	t.Helper()
	d, alloc, kept := costOf(body, urls)
	size := costSize(body, urls)
	budget := time.Duration(costFactor * base * float64(max(size, costFloor)))
	ratio := float64(d.Nanoseconds()) / float64(size) / base
	t.Logf("%s: %d bytes, %d URLs: %v (%.1f× ordinary per byte, budget %v); Parse allocated %d bytes, kept %d",
		name, len(body), len(urls), d, ratio, budget, alloc, kept)
	if d > budget {
		t.Errorf("%s: parse and %d queries took %v for %d bytes, over the budget of %v (%d× ordinary files per byte)",
			name, len(urls)*len(costAgents), d, size, budget, costFactor)
	}
	if alloc > allocFactor*uint64(len(body))+memSlack {
		t.Errorf("%s: Parse allocated %d bytes for %d bytes of input, want at most %d per byte", name, alloc, len(body), allocFactor)
	}
	if kept > retainFactor*uint64(len(body))+memSlack {
		t.Errorf("%s: the parsed file keeps %d bytes for %d bytes of input, want at most %d per byte", name, kept, len(body), retainFactor)
	}
}

// readURLs reads a .urls file: one URL per line.
func readURLs(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var urls []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		urls = append(urls, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return urls
}

// TestSyntheticCost parses each hostile file of the shared corpus and asks
// it its .urls, or a few fixed URLs, within the budget.
func TestSyntheticCost(t *testing.T) {
	if !longTests() {
		t.Skip("times every synthetic file; set ROBOTSTXT_LONG=1 to run it")
	}
	dir := needShared(t, filepath.Join("corpus", "synthetic"))
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		t.Skipf("no files in %s: %v", dir, err)
	}
	base := ordinaryCost(t)
	for _, name := range names {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		urls := costURLs
		if u := strings.TrimSuffix(name, ".txt") + ".urls"; haveFile(u) {
			urls = readURLs(t, u)
		}
		checkCost(t, filepath.Base(name), base, body, urls)
	}
}

// letterToken returns a product token made of letters only, distinct for each
// i, as User-agent values like "bot12" all reduce to "bot".
func letterToken(i int) string {
	b := []byte("x")
	for ; i > 0; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}

// hostileCases are hostile files the shared corpus lacks, built in code.
func hostileCases() []struct {
	name string
	body []byte
	urls []string
} {
	var rules bytes.Buffer // one group, 200k short rules, about 4 MB
	rules.WriteString("User-agent: *\nUser-agent: a\n")
	for i := range 200000 {
		switch i % 4 {
		case 0, 1:
			fmt.Fprintf(&rules, "Disallow: /p/%d/\n", i)
		case 2:
			fmt.Fprintf(&rules, "Allow: /p/%d*.h\n", i)
		case 3:
			fmt.Fprintf(&rules, "Disallow: /*/%d$\n", i)
		}
	}

	var agents bytes.Buffer // 100k User-agent lines in one group
	for i := range 100000 {
		fmt.Fprintf(&agents, "User-agent: %s\n", letterToken(i))
	}
	agents.WriteString("Disallow: /\nUser-agent: a\nAllow: /\n")

	var groups bytes.Buffer // 100k groups that all name the agent
	for i := range 100000 {
		fmt.Fprintf(&groups, "User-agent: a\nDisallow: /g%d\n", i)
	}

	star := "/" + strings.Repeat("*a", 8000) + "b"
	var stars bytes.Buffer // many rules of many stars each
	stars.WriteString("User-agent: a\n")
	for i := range 200 {
		fmt.Fprintf(&stars, "Disallow: %s%d\n", star, i)
		fmt.Fprintf(&stars, "Allow: /%s$\n", strings.Repeat("*", 16000+i))
	}
	longA := "/" + strings.Repeat("a", 100000)

	return []struct {
		name string
		body []byte
		urls []string
	}{
		{"200k short rules in one group", rules.Bytes(), costURLs},
		{"100k user-agent lines", agents.Bytes(), costURLs},
		{"100k groups naming one agent", groups.Bytes(), costURLs},
		{"one line of 10 MB", []byte("User-agent: a\nDisallow: /" + strings.Repeat("a", 10<<20) + "\nDisallow: /b\n"), costURLs},
		{"one line of 10 MB of stars", []byte("User-agent: a\nDisallow: /" + strings.Repeat("*", 10<<20) + "\nDisallow: /b\n"), costURLs},
		{"4 MB of CR", bytes.Repeat([]byte("\r"), 4<<20), costURLs},
		{"4 MB of LF CR", bytes.Repeat([]byte("\n\r"), 2<<20), costURLs},
		// The lexer passes over the CR of each CR LF in its search for a
		// lone CR (lexer.searchCR), and a line that starts with '#' before
		// split.
		{"4 MB of CR LF, then a lone CR", append(bytes.Repeat([]byte("\r\n"), 2<<20), '\r'), costURLs},
		{"4 MB of CR CR LF", bytes.Repeat([]byte("\r\r\n"), 4<<20/3), costURLs},
		{"4 MB of CR LF and NUL", bytes.Repeat([]byte("\r\n\x00"), 4<<20/3), costURLs},
		{"4 MB of comment lines", bytes.Repeat([]byte("#\r\n"), 4<<20/3), costURLs},
		{"4 MB of the shortest groups", bytes.Repeat([]byte("useragent:\rallow:\r"), 4<<20/18), costURLs},
		{"4 MB of the shortest agent lines", bytes.Repeat([]byte("useragent:a\r"), 4<<20/12), costURLs},
		{"deeply repeated stars", stars.Bytes(), []string{longA, longA + "b", "/" + strings.Repeat("ab", 50000), "?" + longA[1:]}},
		{"4 MB of non-ASCII patterns", []byte("User-agent: a\nDisallow: /" + strings.Repeat("\xff%aa", 1<<20) + "\n"), costURLs},
		{"4 MB of user-agent values", []byte("User-agent: " + strings.Repeat("a", 4<<20) + "\nDisallow: /\n"), costURLs},
	}
}

// TestHostileCost checks the hostile cases built in code against the same
// budget as the shared corpus.
func TestHostileCost(t *testing.T) {
	if !longTests() {
		t.Skip("builds about 60 MB of input; set ROBOTSTXT_LONG=1 to run it")
	}
	base := ordinaryCost(t)
	for _, c := range hostileCases() {
		checkCost(t, c.name, base, c.body, c.urls)
	}
}

// TestQueryCostIgnoresOtherGroups checks that a query costs about the same
// in a file where the agent's group sits among 100k groups of other agents
// as in a file of that group alone (SPEC §5: nothing per query depends on
// file size beyond the selected group).
func TestQueryCostIgnoresOtherGroups(t *testing.T) {
	const group = "User-agent: a\nDisallow: /x\nAllow: /x/y\n"
	var big bytes.Buffer
	for i := range 100000 {
		fmt.Fprintf(&big, "User-agent: %s\nDisallow: /%d\n", letterToken(i+1), i)
	}
	big.WriteString("User-agent: *\nDisallow: /\n" + group)
	queries := func(r *Robots) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			for range 10000 {
				costSink = r.Allowed("a", "https://example.com/x/y/z")
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := queries(Parse([]byte(group))), queries(Parse(big.Bytes()))
	t.Logf("10000 queries: %v with one group, %v among 100k groups", small, large)
	if large > costFactor*small+time.Millisecond {
		t.Errorf("10000 queries took %v among 100k groups of other agents and %v with the group alone", large, small)
	}
}

// TestCorpusAgreesWithSlow parses every file of the shared corpus, real and
// synthetic, and checks the invariants of FuzzParse and the agreement with
// the slow reference on a few questions each.
func TestCorpusAgreesWithSlow(t *testing.T) {
	dir := needShared(t, "corpus")
	var names []string
	for _, sub := range []string{"real", "synthetic"} {
		m, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Skipf("no files in %s", dir)
	}
	agents := []string{"Googlebot", "*", "", "bingbot", "GPTBot"}
	urls := []string{"/", "https://example.com/admin/", "https://example.com?q", "/search?q=a"}
	for _, name := range names {
		if strings.HasSuffix(name, ".urls") {
			continue
		}
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r := Parse(body)
		if !longTests() || len(body) > 64<<10 {
			checkInvariants(t, body, r, agents, urls)
			continue
		}
		slow := slowParse(body)
		checkFile(t, body, r, slow)
		for _, a := range agents {
			for _, u := range urls {
				checkDecide(t, body, r, slow, a, u)
			}
		}
	}
}
