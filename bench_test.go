package robotstxt

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// The benchmarks run on three files of testdata/:
//
//   - small.txt, a typical shop's file of about 1 KB, written by hand;
//   - agents.txt, a blog's file that blocks forty AI crawlers one group each;
//   - large.txt, 190 KB shaped like the files of big news and retail sites
//     (50 named crawlers, a "*" group of 6,000 rules, wildcards, '$',
//     %-escapes, non-ASCII paths, comments, sitemaps), written by
//     "go run testdata/gen_large.go > testdata/large.txt".
//
// BenchmarkCorpus runs on ../shared/corpus and skips when it is absent. The
// comparison with other Go libraries is a separate module in bench/.

// Results go to package-level sinks so that the compiler keeps the calls.
var (
	boolSink     bool
	decisionSink Decision
	robotsSink   *Robots
	pathSink     urlPath
)

func readTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkParse times the whole parse: parse, which Parse calls for a
// file of more than lazyMax bytes and a query for a smaller one (see
// lazy.go).
func BenchmarkParse(b *testing.B) {
	for _, name := range []string{"tiny.txt", "small.txt", "agents.txt", "large.txt"} {
		data := readTestdata(b, name)
		b.Run(strings.TrimSuffix(name, ".txt"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				robotsSink = parse(data)
			}
		})
	}
}

// allowedBenchCases are the questions of BenchmarkAllowed. Each row's answer
// is checked before it is timed, so a row cannot silently stop measuring
// what its name says.
var allowedBenchCases = []struct {
	name, file string
	agent, url string
	want       bool
	reason     string
}{
	{"small/named-disallow", "small.txt", "Googlebot", "https://shop.example.com/checkout/step-2",
		false, "the common hit: a prefix rule of a named group"},
	{"small/named-allow-wins", "small.txt", "Googlebot", "https://shop.example.com/account/login?next=%2F",
		true, "a longer Allow beats a Disallow, so the scan goes past the first match"},
	{"small/named-miss", "small.txt", "Googlebot", "https://shop.example.com/products/blue-shoes-42",
		true, "no rule matches: every rule of the group is tried"},
	{"small/global-wildcard", "small.txt", "UnknownBot", "https://shop.example.com/p/x?color=red&sessionid=42",
		false, "an unknown agent falls back to '*', decided by a mid-pattern wildcard"},
	{"small/global-anchor-miss", "small.txt", "UnknownBot", "https://shop.example.com/data/feed.json?v=2",
		true, "a '$' rule that nearly matches"},
	{"small/agent-with-version", "small.txt", "Googlebot/2.1 (+http://www.google.com/bot.html)", "https://shop.example.com/cart",
		false, "a full User-Agent string names no group and is answered by '*'"},
	{"small/no-path", "small.txt", "UnknownBot", "https://shop.example.com?sessionid=1",
		false, "a query with no path gets a virtual '/'"},
	{"agents/blocked-ai", "agents.txt", "GPTBot", "https://blog.example.com/2024/05/a-post/",
		false, "the agent lookup among 42 tokens, then Disallow: /"},
	{"agents/unlisted", "agents.txt", "SomeBot", "https://blog.example.com/2024/05/a-post/",
		true, "an agent that is not listed, answered by '*'"},
	{"large/named-hit", "large.txt", "Googlebot", "https://www.example.com/de/item/12345",
		false, "a prefix rule of a named group in a large file"},
	{"large/global-miss", "large.txt", "UnknownBot", "https://www.example.com/nothing/matches/here.html",
		true, "no rule of the 6,000-rule '*' group matches: the worst realistic scan"},
	{"large/global-hit", "large.txt", "UnknownBot", "https://www.example.com/live/delta/today",
		false, "a hit in the 6,000-rule '*' group"},
	{"large/global-query", "large.txt", "UnknownBot", "https://www.example.com/shop/list?page=2&color=red&size=9&utm_source=feed",
		false, "a long query against the '*?param=' rules"},
}

func BenchmarkAllowed(b *testing.B) {
	parsed := map[string]*Robots{}
	robots := func(name string) *Robots {
		if r, ok := parsed[name]; ok {
			return r
		}
		r := Parse(readTestdata(b, name))
		parsed[name] = r
		return r
	}
	for _, tc := range allowedBenchCases {
		r := robots(tc.file)
		if got := r.Allowed(tc.agent, tc.url); got != tc.want {
			b.Fatalf("%s: Allowed(%q, %q) = %v, want %v (%s)", tc.name, tc.agent, tc.url, got, tc.want, tc.reason)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				boolSink = r.Allowed(tc.agent, tc.url)
			}
		})
	}

	// A crawler asking many URLs of one site selects the agent's group once.
	urls := []string{
		"https://www.example.com/de/item/12345",
		"https://www.example.com/nothing/matches/here.html",
		"https://www.example.com/live/delta/today",
		"https://www.example.com/shop/list?page=2&color=red",
	}
	for _, agent := range []string{"Googlebot", "UnknownBot"} {
		g := robots("large.txt").Group(agent)
		b.Run("large/group-reuse/"+agent, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, u := range urls {
					boolSink = g.Allowed(u)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(urls)), "ns/query")
		})
	}

	r := robots("large.txt")
	b.Run("large/decide", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			decisionSink = r.Decide("UnknownBot", "https://www.example.com/live/delta/today")
		}
	})
}

// BenchmarkAllowedSteps times the steps every query takes, whatever the
// file: taking the path from the URL, finding the agent, and a whole query
// on a file of one rule.
func BenchmarkAllowedSteps(b *testing.B) {
	const url = "https://blog.example.com/2024/05/a-post/"
	b.Run("path", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			pathSink = pathOf(url)
		}
	})
	// The file's search alone: agents.txt is small, and its parse
	// deferred, so the search asks the file its first query compiles.
	agents := Parse(readTestdata(b, "agents.txt")).compiled()
	if _, ok := agents.findAgent("GPTBot"); !ok {
		b.Fatal("agents.txt names no GPTBot")
	}
	b.Run("agent-among-42", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, boolSink = agents.findAgent("GPTBot")
		}
	})
	one := Parse([]byte("User-agent: *\nDisallow: /private/\n"))
	b.Run("one-rule-file", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			boolSink = one.Allowed("GPTBot", url)
		}
	})
}

// pathologicalCases are hostile patterns and paths (SPEC §5: no
// backtracking, at most O(len(path) × len(pattern)) per rule).
var pathologicalCases = []struct {
	name   string
	robots string
	url    string
	want   bool
	reason string
}{
	{"30-stars-anchored-miss",
		"User-agent: *\nDisallow: /" + strings.Repeat("*a", 30) + "$\n",
		"/" + strings.Repeat("a", 2000) + "b", true,
		"a backtracking matcher tries every way to place 30 stars in 2,000 bytes"},
	{"30-stars-anchored-hit",
		"User-agent: *\nDisallow: /" + strings.Repeat("*a", 30) + "$\n",
		"/" + strings.Repeat("a", 2001), false,
		"the same pattern where the anchor matches"},
	{"a*a*a*a*b-100k",
		"User-agent: *\nDisallow: /*a*a*a*a*b\n",
		"/" + strings.Repeat("a", 100_000), true,
		"path/match_test.go's a*b*c*d*e*/f shape on a 100 KB path with no 'b'"},
	{"500-stars-then-x",
		"User-agent: *\nDisallow: /" + strings.Repeat("*", 500) + "x$\n",
		"/" + strings.Repeat("a", 10_000), true,
		"a run of 500 stars before one literal"},
	{"500-star-a-pieces",
		"User-agent: *\nDisallow: /" + strings.Repeat("*a", 500) + "b\n",
		"/" + strings.Repeat("a", 10_000), true,
		"500 pieces, each found at once, then a last piece that is missing"},
	{"1000-wildcard-rules",
		"User-agent: *\n" + strings.Repeat("Disallow: /*a*a*a*b\n", 1000),
		"/" + strings.Repeat("a", 2000), true,
		"a group of 1,000 hostile rules, none of which matches"},
}

func BenchmarkPathological(b *testing.B) {
	for _, tc := range pathologicalCases {
		r := Parse([]byte(tc.robots))
		if got := r.Allowed("Googlebot", tc.url); got != tc.want {
			b.Fatalf("%s: Allowed = %v, want %v (%s)", tc.name, got, tc.want, tc.reason)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				boolSink = r.Allowed("Googlebot", tc.url)
			}
		})
	}
}

// corpusFile is one robots.txt of ../shared/corpus, named relative to it.
type corpusFile struct {
	name string
	data []byte
}

// readCorpus reads every file of ../shared/corpus/<dir>, sorted by name,
// leaving out the URL lists beside the synthetic files.
func readCorpus(tb testing.TB, dir string) []corpusFile {
	tb.Helper()
	root := needShared(tb, filepath.Join("corpus", dir))
	entries, err := os.ReadDir(root)
	if err != nil {
		tb.Fatal(err)
	}
	var files []corpusFile
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, corpusFile{dir + "/" + e.Name(), data})
	}
	return files
}

// BenchmarkCorpus parses the real files of the corpus, asks the conformance
// questions, and measures the heap a parsed file keeps.
func BenchmarkCorpus(b *testing.B) {
	files := readCorpus(b, "real")
	var total int64
	for _, f := range files {
		total += int64(len(f.data))
	}

	b.Run("parse", func(b *testing.B) {
		// The whole parse, as BenchmarkParse.
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				robotsSink = parse(f.data)
			}
		}
	})

	// w1 on the files crawlers meet most: each file of at most 4 KiB
	// parsed and asked once whether Googlebot may fetch "/", as a crawler
	// visiting many origins does. Per-file fixed costs dominate it.
	var small []corpusFile
	var smallBytes int64
	for _, f := range files {
		if len(f.data) <= smallFile {
			small = append(small, f)
			smallBytes += int64(len(f.data))
		}
	}
	b.Run("w1-small", func(b *testing.B) {
		b.SetBytes(smallBytes)
		b.ReportAllocs()
		for b.Loop() {
			w1(small)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(small)), "ns/file")
	})

	cases := readConformance(b, needShared(b, "conformance/corpus.tsv"))
	for _, dir := range []string{"real", "synthetic"} {
		b.Run("queries-"+dir, func(b *testing.B) {
			benchQueries(b, cases, dir+"/")
		})
	}

	b.Run("retained-heap", func(b *testing.B) {
		benchRetainedHeap(b, files)
	})
}

// w1 parses each file and asks whether Googlebot may fetch "/". It is a
// function of its own so that callgrind can count it alone
// (--toggle-collect='*.w1').
//
//go:noinline
func w1(files []corpusFile) {
	for _, f := range files {
		boolSink = Parse(f.data).Allowed("Googlebot", "https://example.com/")
	}
}

// smallFile is the size up to which a file counts as small in the w1-small
// benchmark: three quarters of the real files.
const smallFile = 4096

// benchQueries asks the conformance questions about the files under prefix,
// each file parsed once beforehand. One op is the whole set of questions;
// ns/query and allocs/query are per question.
func benchQueries(b *testing.B, cases []conformanceCase, prefix string) {
	type query struct {
		r          *Robots
		agent, url string
	}
	parsed := map[string]*Robots{}
	var queries []query
	for _, c := range cases {
		if !strings.HasPrefix(c.file, prefix) {
			continue
		}
		r, ok := parsed[c.file]
		if !ok {
			r = Parse(c.robots)
			parsed[c.file] = r
		}
		queries = append(queries, query{r, c.agent, c.url})
	}
	if len(queries) == 0 {
		b.Skipf("no questions about %s files", prefix)
	}
	allocs := testing.AllocsPerRun(1, func() {
		for _, q := range queries {
			boolSink = q.r.Allowed(q.agent, q.url)
		}
	})
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range queries {
			boolSink = q.r.Allowed(q.agent, q.url)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(queries)), "ns/query")
	b.ReportMetric(allocs/float64(len(queries)), "allocs/query")
	b.ReportMetric(float64(len(queries)), "queries")
}

// benchRetainedHeap measures the heap that parsed files keep alive, as a
// multiple of their source size, in two ways:
//
//   - heap-B/src-B: all files parsed and held at once, live heap after a GC
//     minus live heap before, over the total source bytes;
//   - median-heap-B/src-B: per file, K copies parsed and held (K chosen so
//     that the copies add up to about 256 KiB of source, so that small files
//     rise above the noise of a heap measurement), the same difference
//     divided by K and by the file size; the median over the non-empty files.
//
// HeapAlloc after runtime.GC counts only live objects; the slices that hold
// the results are allocated before the first reading, so only what Parse
// returned is counted. The source bytes are not counted: Parse does not
// refer to them. ns/op is left out as it measures the GCs.
func benchRetainedHeap(b *testing.B, files []corpusFile) {
	var total int64
	for _, f := range files {
		total += int64(len(f.data))
	}
	held := make([]*Robots, len(files))
	var ratio float64
	for b.Loop() {
		clear(held)
		before := liveHeap()
		for i, f := range files {
			held[i] = parse(f.data) // compiled, as a file asked twice holds it
		}
		ratio = float64(liveHeap()-before) / float64(total)
		runtime.KeepAlive(held)
	}

	const perFile = 256 << 10
	var ratios []float64
	copies := make([]*Robots, perFile)
	for _, f := range files {
		if len(f.data) == 0 {
			continue
		}
		ratios = append(ratios, heapPerCopy(f.data, perFile, copies, parse)/float64(len(f.data)))
	}
	slices.Sort(ratios)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(ratio, "heap-B/src-B")
	b.ReportMetric(ratios[len(ratios)/2], "median-heap-B/src-B")
	b.ReportMetric(ratios[len(ratios)*9/10], "p90-heap-B/src-B")
}

// liveHeap returns the bytes of live heap objects after two full
// collections: the first moves what sync.Pools hold (package robotstxt keeps
// its parse scratch space in one) to their victim caches, the second frees
// it, so that only what the parsed files keep alive is counted.
// heapPerCopy returns the live heap that a parse of data keeps, by parse,
// averaged over as many copies as make perSource bytes of source (one at
// least), each held in held, so that the garbage a collection leaves does
// not count for a small file.
func heapPerCopy(data []byte, perSource int, held []*Robots, parse func([]byte) *Robots) float64 {
	k := max(1, perSource/len(data))
	clear(held)
	before := liveHeap()
	for i := range k {
		held[i] = parse(data)
	}
	after := liveHeap()
	runtime.KeepAlive(held)
	runtime.KeepAlive(data)
	return float64(after-before) / float64(k)
}

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// sizeBands are the bands of file size BenchmarkBands splits the real
// corpus into: the files Parse defers (at most lazyMax bytes), then
// those up to 32 KiB, then the rest.
var sizeBands = []struct {
	name     string
	min, max int
}{
	{"small", 1, lazyMax},
	{"mid", lazyMax + 1, 32 << 10},
	{"large", 32<<10 + 1, maxFileLen},
}

// BenchmarkBands times, per band of file size, three passes over the real
// files of the band, each file once a pass: q1, Parse and one question
// (whether Googlebot may fetch "/"), as a crawler meeting a host; lines,
// the first question of a deferred parse (firstOrder: the lines read and
// the question answered, nothing compiled), which q1 is for the small
// files and would be for the others if their parse were deferred too; lex,
// the lexer alone, every line passed over. Each pass is a function of its
// own, so that callgrind can count it alone (--toggle-collect='*.bandQ1').
func BenchmarkBands(b *testing.B) {
	files := readCorpus(b, "real")
	for _, band := range sizeBands {
		var in []corpusFile
		var bytes int64
		for _, f := range files {
			if band.min <= len(f.data) && len(f.data) <= band.max {
				in = append(in, f)
				bytes += int64(len(f.data))
			}
		}
		for _, pass := range []struct {
			name string
			run  func([]corpusFile)
		}{{"q1", bandQ1}, {"lines", bandLines}, {"lex", bandLex}} {
			b.Run(pass.name+"-"+band.name, func(b *testing.B) {
				b.SetBytes(bytes)
				b.ReportAllocs()
				for b.Loop() {
					pass.run(in)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in)), "ns/file")
			})
		}
	}
}

//go:noinline
func bandQ1(files []corpusFile) {
	for _, f := range files {
		boolSink = Parse(f.data).Allowed("Googlebot", "https://example.com/")
	}
}

//go:noinline
func bandLines(files []corpusFile) {
	for _, f := range files {
		src := unsafe.String(unsafe.SliceData(f.data), len(f.data))
		boolSink = firstOrder(src, "Googlebot", "https://example.com/") == 0
	}
}

//go:noinline
func bandLex(files []corpusFile) {
	n := 0
	for _, f := range files {
		lx := newLexer(f.data)
		for {
			line, ok := lx.next()
			if !ok {
				break
			}
			n += len(line)
		}
	}
	boolSink = n == 0
}
