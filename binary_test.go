package robotstxt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// load marshals r and loads the result into a new Robots.
func load(t testing.TB, r *Robots) *Robots {
	t.Helper()
	data, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var out Robots
	if err := out.UnmarshalBinary(data); err != nil {
		t.Fatalf("UnmarshalBinary(MarshalBinary()) = %v", err)
	}
	return &out
}

// sameAnswers checks that b answers as a does: every agent and URL, and
// what does not depend on the URL.
func sameAnswers(t *testing.T, name string, a, b *Robots, agents, urls []string) {
	t.Helper()
	if a.Kind() != b.Kind() {
		t.Fatalf("%s: Kind %v, loaded %v", name, a.Kind(), b.Kind())
	}
	if diff := cmp.Diff(a.Sitemaps(), b.Sitemaps()); diff != "" {
		t.Fatalf("%s: Sitemaps differ (-parsed +loaded):\n%s", name, diff)
	}
	for _, agent := range agents {
		ga, gb := a.Group(agent), b.Group(agent)
		if diff := cmp.Diff(ga.Rules(), gb.Rules()); diff != "" {
			t.Fatalf("%s: Rules(%q) differ:\n%s", name, agent, diff)
		}
		if diff := cmp.Diff(ga.Others(), gb.Others()); diff != "" {
			t.Fatalf("%s: Others(%q) differ:\n%s", name, agent, diff)
		}
		da, oka := ga.CrawlDelay()
		db, okb := gb.CrawlDelay()
		if da != db || oka != okb {
			t.Fatalf("%s: CrawlDelay(%q) = %v %v, loaded %v %v", name, agent, da, oka, db, okb)
		}
		for _, u := range urls {
			if x, y := a.Decide(agent, u), b.Decide(agent, u); x != y {
				t.Fatalf("%s: Decide(%q, %q) = %+v, loaded %+v", name, agent, u, x, y)
			}
		}
	}
}

func TestBinaryRoundTrip(t *testing.T) {
	tests := []struct {
		reason string
		r      *Robots
	}{
		{"nil marshals as allow-all", nil},
		{"allow-all from a 404", FromStatus(404, nil)},
		{"disallow-all from a 503", FromStatus(503, nil)},
		{"an empty file keeps no records", Parse(nil)},
		{"only a sitemap", Parse([]byte("Sitemap: https://h/s.xml"))},
		{"escapes, index fallback, other lines, raw values", Parse([]byte("User-agent: a\nUser-agent: b\nAllow: /d/index.html\nDisallow: /%aa\xc3\xa9$\nCrawl-delay: 2\nHost: h\nUser-agent: *\nDisallow: /*.pdf$\nUser-agent: a\nDisallow: /x"))},
		{"an indexed group", parseWith([]byte("User-agent: *\nDisallow: /a/\nDisallow: /a/b*c\nAllow: /a/b/\nDisallow: /*x$\nDisallow:"), 1)},
	}
	agents := []string{"a", "b", "c", "*", ""}
	urls := []string{"/", "/d/", "/d/index.html", "/%AA%C3%A9", "/f.pdf", "/x", "/a/b/c", "/a/bc", "/yx", "http://h?q"}
	for _, tt := range tests {
		want := tt.r
		if want == nil {
			want = FromStatus(404, nil)
		}
		sameAnswers(t, tt.reason, want, load(t, tt.r), agents, urls)
	}
}

// TestBinaryCorpus round-trips every testdata file and every real corpus
// file: the loaded file answers the conformance questions as the reference
// does, and lists the same sitemaps, other lines, rules and crawl-delays as
// the parsed one for the agents the file names and for '*'.
func TestBinaryCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r := Parse(body)
		sameAnswers(t, name, r, load(t, r), []string{"Googlebot", "bingbot", "*"}, []string{"/", "/private/x", "/docs/", "/a.pdf"})
	}
	dir := needShared(t, filepath.Join("corpus", "real"))
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus files in %s: %v", dir, err)
	}
	step := 10 // every tenth file; all of them in the long sweeps
	if longTests() {
		step = 1
	}
	for k := 0; k < len(names); k += step {
		name := names[k]
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p := Parse(body)
		l := load(t, p)
		if diff := cmp.Diff(p.Others(), l.Others()); diff != "" {
			t.Fatalf("%s: Others differ:\n%s", name, diff)
		}
		agents := []string{"*", "Googlebot"}
		base, n := p.compiled().agents()
		for i := range min(n, 16) {
			agents = append(agents, p.tokenAt(base, i))
		}
		sameAnswers(t, name, p, l, agents, nil)
	}
	path := needShared(t, filepath.Join("conformance", "corpus.tsv"))
	loaded := map[string]*Robots{}
	for _, c := range readConformance(t, path) {
		r, ok := loaded[c.file]
		if !ok {
			p := Parse(c.robots)
			r = load(t, p)
			loaded[c.file] = r
			if diff := cmp.Diff(p.Sitemaps(), r.Sitemaps()); diff != "" {
				t.Fatalf("%s: Sitemaps differ:\n%s", c.file, diff)
			}
		}
		d := r.Decide(c.agent, c.url)
		if d.Allowed != c.allowed || d.Line != c.line {
			t.Errorf("%s agent=%q url=%q: loaded file says allowed=%v line=%d, reference %v %d",
				c.file, c.agent, c.url, d.Allowed, d.Line, c.allowed, c.line)
		}
	}
}

// reseal recomputes the checksum of a binary form, so that a changed text
// reaches the checks of the records.
func reseal(data []byte) {
	if len(data) >= binaryHeader {
		binary.LittleEndian.PutUint32(data[16:], crc32.Checksum(data[binaryHeader:], castagnoli))
	}
}

func TestBinaryRejects(t *testing.T) {
	good, _ := parseWith([]byte("User-agent: a\nDisallow: /a*b\nAllow: /%aa\nCrawl-delay: 1\nUser-agent: *\nDisallow: /x\nSitemap: /s"), 1).MarshalBinary()
	mod := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	tests := []struct {
		reason string
		data   []byte
	}{
		{"empty", nil},
		{"random bytes", []byte("not a robots.txt binary form")},
		{"truncated header", good[:10]},
		{"truncated text", good[:len(good)-1]},
		{"padded", append(slices.Clone(good), 0)},
		{"another version", mod(func(b []byte) []byte { b[4] = binaryVersion + 1; return b })},
		{"unknown kind", mod(func(b []byte) []byte { b[5] = 9; return b })},
		{"a flipped bit", mod(func(b []byte) []byte { b[len(b)-3] ^= 4; return b })},
		{"allow-all with text", mod(func(b []byte) []byte { b[5] = byte(AllowAll); return b })},
		{"records past the text", mod(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[8:], uint32(len(b)))
			reseal(b)
			return b
		})},
		{"sections out of order", mod(func(b []byte) []byte {
			at := binaryHeader + int(binary.LittleEndian.Uint32(b[8:]))
			binary.LittleEndian.PutUint32(b[at+4*hGroups:], 1<<20)
			reseal(b)
			return b
		})},
	}
	for _, tt := range tests {
		var r Robots
		if err := r.UnmarshalBinary(tt.data); !errors.Is(err, errInvalidBinary) {
			t.Errorf("%s: UnmarshalBinary = %v, want errInvalidBinary", tt.reason, err)
		}
	}
}

// TestBinaryMutations changes every word of the records of real encodings,
// one at a time and resealed, and requires each to be refused or to answer
// queries without panicking.
func TestBinaryMutations(t *testing.T) {
	bodies := [][]byte{
		[]byte("User-agent: a\nUser-agent: b\nAllow: /d/index.html\nDisallow: /%aa$\nHost: h\nUser-agent: *\nDisallow: /*.pdf$\nUser-agent: a\nDisallow: /x\nSitemap: /s"),
	}
	bodies = append(bodies, []byte(strings.Repeat("User-agent: a\nDisallow: /x\nUser-agent: *\nAllow: /y\n", mergeMin)))
	if body, err := os.ReadFile(filepath.Join("testdata", "small.txt")); err == nil {
		bodies = append(bodies, body)
	}
	rng := rand.New(rand.NewPCG(9309, 13))
	for _, body := range bodies {
		for _, indexMin := range []int{1, indexMin} {
			good, _ := parseWith(body, indexMin).MarshalBinary()
			wordsAt := binaryHeader + int(binary.LittleEndian.Uint32(good[8:]))
			for at := wordsAt; at+4 <= len(good); at += 4 {
				old := binary.LittleEndian.Uint32(good[at:])
				for _, v := range []uint32{0, 1, old + 1, old - 1, old ^ 1<<31, 1 << 31, ^uint32(0), rng.Uint32()} {
					b := slices.Clone(good)
					binary.LittleEndian.PutUint32(b[at:], v)
					reseal(b)
					exercise(t, b)
				}
			}
		}
	}
}

// exercise loads data and, when it loads, asks it everything.
func exercise(t *testing.T, data []byte) {
	t.Helper()
	var r Robots
	if err := r.UnmarshalBinary(data); err != nil {
		if !errors.Is(err, errInvalidBinary) {
			t.Fatalf("UnmarshalBinary = %v, not errInvalidBinary", err)
		}
		return
	}
	r.Sitemaps()
	for _, agent := range []string{"a", "b", "*", "", "googlebot"} {
		g := r.Group(agent)
		g.Rules()
		g.Others()
		g.CrawlDelay()
		for _, u := range []string{"/", "/d/", "/d/index.html", "/x.pdf", "/%AA", "http://h?q", "/a/b/c", strings.Repeat("/ab", 20)} {
			r.Decide(agent, u)
		}
	}
	again, _ := r.MarshalBinary()
	if string(again) != string(data) {
		t.Fatalf("a loaded value marshals differently")
	}
}

// tokenAt returns the lower-case token of agent i, whose records start at
// word base (see compiledFile.agents). It ends where the next agent's token
// begins.
func (r *Robots) tokenAt(base, i uint32) string {
	s := r.compiled().words(base+i*agentWords, agentWords+1)
	return r.compiled().text[le32(s[0:4]):le32(s[4*agentWords:])]
}

// FuzzUnmarshal loads any bytes, raw and with the checksum recomputed so
// that the checks of the records are reached; a value that loads must
// answer every query without panicking and marshal back to itself.
func FuzzUnmarshal(f *testing.F) {
	for _, body := range []string{
		"User-agent: a\nUser-agent: b\nAllow: /d/index.html\nDisallow: /%aa$\nHost: h\nUser-agent: *\nDisallow: /*.pdf$\nSitemap: /s",
		"User-agent: *\nDisallow: /a/\nDisallow: /a/b*c\nAllow: /a/b/\nDisallow: /*x$\nDisallow:",
		"",
	} {
		for _, indexMin := range []int{1, indexMin} {
			b, _ := parseWith([]byte(body), indexMin).MarshalBinary()
			f.Add(b)
		}
	}
	if files, _ := filepath.Glob(filepath.Join("testdata", "*.txt")); len(files) > 0 {
		for _, name := range files {
			if body, err := os.ReadFile(name); err == nil && len(body) < 64<<10 {
				b, _ := Parse(body).MarshalBinary()
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(t, data)
		b := slices.Clone(data)
		reseal(b)
		exercise(t, b)
	})
}

// BenchmarkBinary compares loading the binary form of testdata/small.txt
// with parsing it, and times marshalling.
func BenchmarkBinary(b *testing.B) {
	body, err := os.ReadFile(filepath.Join("testdata", "small.txt"))
	if err != nil {
		b.Fatal(err)
	}
	r := Parse(body)
	data, _ := r.MarshalBinary()
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			robotsSink = Parse(body)
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var l Robots
			if err := l.UnmarshalBinary(data); err != nil {
				b.Fatal(err)
			}
			robotsSink = &l
		}
	})
	b.Run("marshal", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			data, _ = r.MarshalBinary()
		}
	})
}

// TestBinaryOldVersions: a value written by an earlier version of the
// stored form is refused with an error that names both versions, and the
// Robots it was loaded into keeps its answers (binary.go, binaryVersion).
func TestBinaryOldVersions(t *testing.T) {
	good, _ := Parse([]byte("User-agent: *\nDisallow: /a\n")).MarshalBinary()
	for v := range byte(binaryVersion) {
		old := slices.Clone(good)
		old[4] = v
		r := Parse([]byte("User-agent: *\nDisallow: /b\n"))
		err := r.UnmarshalBinary(old)
		if !errors.Is(err, errInvalidBinary) {
			t.Fatalf("version %d: UnmarshalBinary = %v, want errInvalidBinary", v, err)
		}
		if want := fmt.Sprintf("version %d, want %d", v, binaryVersion); !strings.Contains(err.Error(), want) {
			t.Errorf("version %d: error %q does not say %q", v, err, want)
		}
		if r.Allowed("x", "/b") || !r.Allowed("x", "/a") {
			t.Errorf("version %d: a refused value changed the Robots", v)
		}
	}
}
