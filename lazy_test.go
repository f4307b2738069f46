package robotstxt

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestFirstQuestion asks each file one question on a fresh Parse, which
// answers it from the file's lines (see lazy.go), then the same question
// again, which the compiled file answers. Each row says which part of the
// first question's reading it holds.
func TestFirstQuestion(t *testing.T) {
	for _, tt := range []struct {
		why, body, agent, url string
		want                  bool
	}{
		{"the longest match decides (SPEC §5)", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "x", "/a/b/c", true},
		{"Allow wins a tie (SPEC §5)", "User-agent: *\nDisallow: /a\nAllow: /a\n", "x", "/a", true},
		{"a group naming the agent without rules: nothing applies (SPEC §4)", "User-agent: *\nDisallow: /\n\nUser-agent: x\n", "x", "/p", true},
		{"groups naming the agent merge (SPEC §4)", "User-agent: x\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: X\nDisallow: /c\n", "x", "/c", false},
		{"the global group is not read for a named agent", "User-agent: x\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "x", "/b", true},
		{"a group naming both", "User-agent: y\nUser-agent: *\nDisallow: /b\n", "x", "/b", false},
		{"rules before the first group belong to none", "Disallow: /\nUser-agent: *\nDisallow: /b\n", "x", "/a", true},
		{"the agent is compared as given (SPEC §4)", "User-agent: x\nDisallow: /\n", "x/1.0", "/a", true},
		{"a value reduced to its token", "User-agent: x/1.0\nDisallow: /\n", "X", "/a", false},
		{"the index fallback: the bare directory (SPEC §5)", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "x", "/d/", true},
		{"the index fallback is anchored", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "x", "/d/x", false},
		{"a fallback whose value differs from the path past its '/'", "User-agent: *\nDisallow: /\nAllow: /index.htm\n", "x", "/", true},
		{"an escaped pattern matches the escaped path (SPEC §3)", "User-agent: *\nDisallow: /%c3%a9\n", "x", "/%C3%A9", false},
		{"a byte ≥ 0x80 is matched %-encoded", "User-agent: *\nDisallow: /\xc3\xa9\n", "x", "/%C3%A9", false},
		{"escaping makes the pattern longer, and so stronger", "User-agent: *\nAllow: /\xc3\nDisallow: /%C3\n", "x", "/%C3", true},
		{"a '*' spans the path", "User-agent: *\nDisallow: /*.pdf$\n", "x", "/a/b.pdf", false},
		{"'$' anchors", "User-agent: *\nDisallow: /a$\n", "x", "/a/", true},
		{"an empty Disallow allows", "User-agent: *\nDisallow:\n", "x", "/", true},
		{"a query before any path: '/' + rest", "User-agent: *\nDisallow: /?q\n", "x", "http://h?q", false},
		{"the path ends at '#'", "User-agent: *\nDisallow: /a$\n", "x", "/a#b", false},
		{"lines ending with CR alone are read again", "User-agent: *\r\nDisallow: /a\r\nUser-agent: x\rDisallow: /b\r\n", "x", "/b", false},
		{"a comment ends the value", "User-agent: *\nDisallow: /a # not /b\n", "x", "/a", false},
		{"a value not starting with '/' or '*' still ends the agents", "User-agent: x\nDisallow: a\nUser-agent: y\nDisallow: /\n", "x", "/", true},
	} {
		r := Parse([]byte(tt.body))
		if got := r.Allowed(tt.agent, tt.url); got != tt.want {
			t.Errorf("%s: first Allowed(%q, %q) = %v, want %v", tt.why, tt.agent, tt.url, got, tt.want)
		}
		if got := r.Allowed(tt.agent, tt.url); got != tt.want {
			t.Errorf("%s: compiled Allowed(%q, %q) = %v, want %v", tt.why, tt.agent, tt.url, got, tt.want)
		}
	}
}

// TestFirstQuestionAgreesWithSlow holds the first question of a fresh
// Parse, answered from the file's lines, and the second, answered by the
// compiled file, to the slow reference on pseudo-random files. URLs made
// from the rules' own patterns reach the rules that a first question
// compiles; near misses, those it passes over.
func TestFirstQuestionAgreesWithSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9309, 29))
	agents := []string{"a", "A", "b", "c", "", "*", "a/1.0", "ab", "b-_"}
	asked := 0
	for range 3000 {
		body := randRobots(rng)
		if len(body) == 0 || len(body) > lazyMax {
			continue
		}
		slow := slowParse(body)
		ask := func(agent, url string) {
			want := slow.decide(agent, url)
			// The deciding line, which the first question reads as the
			// order of the rule it finds.
			line := 0
			if o := firstOrder(string(body), agent, url); o != 0 {
				line = int(^uint32(o))
			}
			if line != want.Line {
				t.Fatalf("%q: the first question of (%q, %q) finds line %d, slow reference says %+v", clipBody(body), agent, url, line, want)
			}
			r := Parse(body)
			for _, what := range []string{"first", "compiled"} {
				if got := r.Allowed(agent, url); got != want.Allowed {
					t.Fatalf("%q: %s Allowed(%q, %q) = %v, slow reference says %+v", clipBody(body), what, agent, url, got, want)
				}
			}
			asked++
		}
		for range 4 {
			agent := agents[rng.IntN(len(agents))]
			ask(agent, randURL(rng))
			for _, sr := range slow.rules(agent) {
				if len(sr.pattern) > 64 {
					continue // the slow matcher is quadratic
				}
				ask(agent, urlFromPattern(rng, sr.pattern))
				if i := strings.LastIndex(sr.pattern, "/index.htm"); i >= 0 {
					// The bare directory, which only the fallback matches.
					ask(agent, sr.pattern[:i+1])
				}
			}
		}
	}
	if asked < 10000 {
		t.Fatalf("%d questions asked, want more", asked)
	}
}

// TestDeferredParse pins which files Parse defers (see lazyMax) and that
// every entry point answers from the compiled file, whichever query
// comes first.
func TestDeferredParse(t *testing.T) {
	small := []byte("Host: h\nUser-agent: *\nDisallow: /a\nSitemap: https://h/s.xml\n")
	if r := Parse(small); r.srcN == 0 {
		t.Error("a small file is compiled by Parse")
	}
	large := []byte("User-agent: *\n" + strings.Repeat("Disallow: /a\n", lazyMax/12))
	if r := Parse(large); r.srcN != 0 || !r.compiled().hasWords() {
		t.Errorf("a file of %d bytes is deferred", len(large))
	}
	if r := Parse(nil); r.srcN != 0 {
		t.Error("an empty file is deferred")
	}
	want := parse(small)
	for _, first := range []struct {
		name string
		ask  func(r *Robots)
	}{
		{"Allowed", func(r *Robots) { r.Allowed("x", "/a") }},
		{"Group", func(r *Robots) { r.Group("x") }},
		// The bench's whole parse is Parse, then NoGroup (bench/libs.go).
		{"NoGroup", func(r *Robots) { r.NoGroup() }},
		{"Sitemaps", func(r *Robots) { r.Sitemaps() }},
		{"MarshalBinary", func(r *Robots) { r.MarshalBinary() }},
	} {
		r := Parse(small)
		first.ask(r)
		c := r.compiled()
		if c.text != want.compiled().text || c.wordsAt != want.compiled().wordsAt {
			t.Errorf("after %s first, the compiled file differs from parse's", first.name)
		}
		if r.Allowed("x", "/a") || !r.Allowed("x", "/b") {
			t.Errorf("after %s first, Allowed answers wrongly", first.name)
		}
		if got := r.Others(); len(got) != 1 || got[0].Key != "Host" {
			t.Errorf("after %s first, Others() = %+v", first.name, got)
		}
		if r.src.Load() != nil {
			t.Errorf("after %s first and a compile, the file's copy is kept", first.name)
		}
	}
}

// checkFirst checks that the first question of a fresh Parse of body,
// answered from its lines (see firstOrder), finds the rule that decides d,
// the compiled file's Decision: the same line and answer.
func checkFirst(t *testing.T, body []byte, agent, url string, d Decision) {
	t.Helper()
	o := firstOrder(string(body[:min(len(body), maxFileLen)]), agent, url)
	line, allowed := 0, true
	if o != 0 {
		line, allowed = int(^uint32(o)), orderAllows(o)
	}
	if line != d.Line || allowed != d.Allowed {
		t.Fatalf("%q: the first question of (%q, %q) finds line %d (allowed %v), Decide says %+v", clipBody(body), agent, url, line, allowed, d)
	}
}

// TestFirstQuestionNoAllocs checks that the first question of a deferred
// file allocates nothing: it reads the lines into the parse's pooled
// working space and keeps nothing.
func TestFirstQuestionNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector, sync.Pool drops what is put in it")
	}
	for _, name := range []string{"small.txt", "agents.txt"} {
		src := string(readTestdata(t, name))
		if len(src) > lazyMax {
			t.Fatalf("%s has %d bytes: Parse does not defer it", name, len(src))
		}
		for _, q := range [][2]string{
			{"Googlebot", "https://shop.example.com/checkout/step-2"},
			{"UnknownBot", "https://shop.example.com?sessionid=1"},
			{"UnknownBot", "https://shop.example.com/caf%C3%A9/%e3%82"},
			{"", "/"},
		} {
			if n := testing.AllocsPerRun(100, func() { boolSink = firstOrder(src, q[0], q[1]) != 0 }); n != 0 {
				t.Errorf("%s: the first Allowed(%q, %q) allocates %v times, want 0", name, q[0], q[1], n)
			}
		}
	}
}

// TestFirstQuestionsRace has goroutines ask a fresh deferred Robots at
// once, so that the first question, the compile and the questions after
// it race; run with -race. Each answer must be the compiled file's.
func TestFirstQuestionsRace(t *testing.T) {
	body := []byte(concurrentBody)
	urls := []string{"/", "/private/x", "/d/", "/a/b.pdf", "/caf%C3%A9/menu", "/x/tmp/y"}
	want := parse(body)
	for range 20 {
		r := Parse(body)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for n := range 8 {
			wg.Go(func() {
				<-start
				for k := range urls {
					u := urls[(n+k)%len(urls)]
					if got := r.Allowed("Googlebot", u); got != want.Allowed("Googlebot", u) {
						t.Errorf("Allowed(Googlebot, %q) = %v, want %v", u, got, !got)
					}
					if n%3 == 0 {
						r.Sitemaps()
					}
				}
			})
		}
		close(start)
		wg.Wait()
		if r.src.Load() != nil || r.full.p.Load() == &streamedOnce {
			t.Error("after many questions the file is not compiled, or its copy is kept")
		}
	}
}

// TestFirstQuestionAfterCompile holds the first question's way out when
// a later question compiled the file between the first one's claim and
// its read of the bytes: the bytes are gone, and the compiled file
// answers instead.
func TestFirstQuestionAfterCompile(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /x\n"))
	if r.compile(true) != nil {
		t.Fatal("the first question of a deferred parse compiled it")
	}
	c := r.compile(false) // a second question, before the first reads
	if c == nil || r.src.Load() != nil {
		t.Fatal("the second question did not compile the file, or kept its bytes")
	}
	if _, ok := r.allowedFirst("a", "/x"); ok {
		t.Fatal("the first question read bytes that were dropped")
	}
	if r.compiled() != c || r.Allowed("a", "https://e.example/x") {
		t.Fatal("after the compile, the compiled file does not answer")
	}
}
