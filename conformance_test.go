package robotstxt

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/sharedtest"
)

// sharedDir is where the conformance answers and the corpus live, beside the
// repository. Tests that need it skip when it is absent, and fail under CI.
const sharedDir = "../shared"

// longTests reports whether the long sweeps run: the cost budgets of the
// hostile and synthetic files, the slow reference over the whole corpus and
// the larger property tests. They take minutes under the race detector on
// a small machine, so a plain go test runs them small or not at all; set
// ROBOTSTXT_LONG=1 to run them in full, as .ci/run does.
func longTests() bool { return sharedtest.Long() }

func needShared(t testing.TB, rel string) string { return sharedtest.Need(t, rel) }

func sharedPath(t testing.TB, rel string) string { return sharedtest.Path(t, rel) }

// unescapeField undoes the byte escaping of the conformance files: \\ \t \n
// \r \0 and \xHH.
func unescapeField(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 >= len(s) {
			return nil, fmt.Errorf("trailing backslash in %q", s)
		}
		i++
		switch s[i] {
		case '\\':
			out = append(out, '\\')
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case '0':
			out = append(out, 0)
		case 'x':
			if i+2 >= len(s) {
				return nil, fmt.Errorf("short \\x escape in %q", s)
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return nil, fmt.Errorf("bad \\x escape in %q: %v", s, err)
			}
			out = append(out, byte(v))
			i += 2
		default:
			return nil, fmt.Errorf("unknown escape \\%c in %q", s[i], s)
		}
	}
	return out, nil
}

// conformanceCase is one question and the reference's answer.
type conformanceCase struct {
	lineNo  int // in the .tsv file
	file    string
	robots  []byte
	agent   string
	url     string
	allowed bool
	line    int // -1 when the source asserts no line (Google's own tests)
	note    string
}

// parseKey names the robots.txt of c, to parse each body once.
func (c conformanceCase) parseKey() string {
	if c.file != "" {
		return c.file
	}
	return string(c.robots)
}

// readConformance reads a conformance .tsv file. For corpus.tsv the robots
// body is read from the corpus folder.
func readConformance(t testing.TB, path string) []conformanceCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var header []string
	var cases []conformanceCase
	bodies := map[string][]byte{}
	for n := 1; sc.Scan(); n++ {
		fields := bytes.Split(sc.Bytes(), []byte("\t"))
		if header == nil {
			for _, h := range fields {
				header = append(header, string(h))
			}
			continue
		}
		if len(fields) != len(header) {
			t.Fatalf("%s:%d: %d fields, want %d", path, n, len(fields), len(header))
		}
		c := conformanceCase{lineNo: n}
		for i, h := range header {
			v := string(fields[i])
			switch h {
			case "file", "robots", "agent", "url", "note":
				b, err := unescapeField(v)
				if err != nil {
					t.Fatalf("%s:%d: %v", path, n, err)
				}
				switch h {
				case "file":
					c.file = string(b)
				case "robots":
					c.robots = b
				case "agent":
					c.agent = string(b)
				case "url":
					c.url = string(b)
				case "note":
					c.note = string(b)
				}
			case "allowed":
				c.allowed = v == "1"
			case "line":
				if v == "-" {
					c.line = -1
					continue
				}
				c.line, err = strconv.Atoi(v)
				if err != nil {
					t.Fatalf("%s:%d: line %q: %v", path, n, v, err)
				}
			}
		}
		if c.file != "" {
			body, ok := bodies[c.file]
			if !ok {
				body, err = os.ReadFile(filepath.Join(sharedDir, "corpus", c.file))
				if err != nil {
					t.Fatalf("%s:%d: %v", path, n, err)
				}
				bodies[c.file] = body
			}
			c.robots = body
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// conformanceDir holds the answer sets that travel with the repository, so
// that a fresh clone checks "same answers as Google" with a plain go test:
// google.tsv, the cases of Google's own robots_test.cc, and edge.tsv, the
// hand-written edge cases answered by Google's parser (a copy of
// ../shared/conformance/edge.tsv). The answers about the real corpus need
// the corpus itself and stay in ../shared.
const conformanceDir = "testdata/conformance"

// TestConformance asks every question of the reference's answer sets and
// requires the same answer and the same deciding line.
//
// The sweep runs twice: as Parse lays files out, and with every group
// indexed (see index.go), so that the index answers every question of the
// real files, not only those of their few large groups.
func TestConformance(t *testing.T) {
	for _, name := range []string{"google.tsv", "edge.tsv", "corpus.tsv"} {
		t.Run(name, func(t *testing.T) { conformance(t, name, indexMin) })
		t.Run(name+"/indexed", func(t *testing.T) { conformance(t, name, 1) })
	}
}

// conformancePath returns where the answer set name is: in the repository,
// or else in ../shared, skipping the test when it is in neither.
func conformancePath(t *testing.T, name string) string {
	p := filepath.Join(conformanceDir, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return needShared(t, filepath.Join("conformance", name))
}

// TestConformanceCopy checks that the repository's copy of edge.tsv is the
// reference's own, when ../shared is there to compare with.
func TestConformanceCopy(t *testing.T) {
	shared := needShared(t, filepath.Join("conformance", "edge.tsv"))
	a, err := os.ReadFile(shared)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(conformanceDir, "edge.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s differs from %s: copy it again", filepath.Join(conformanceDir, "edge.tsv"), shared)
	}
}

func conformance(t *testing.T, name string, indexMin int) {
	path := conformancePath(t, name)
	cases := readConformance(t, path)
	if len(cases) == 0 {
		t.Fatalf("%s holds no questions", path)
	}
	parsed := map[string]*Robots{}
	var okAllowed, okLine int
	for _, c := range cases {
		r, found := parsed[c.parseKey()]
		if !found {
			r = parseWith(c.robots, indexMin)
			parsed[c.parseKey()] = r
		}
		d := r.Decide(c.agent, c.url)
		if d.Allowed == c.allowed {
			okAllowed++
		}
		lineOK := c.line < 0 || d.Line == c.line
		if lineOK {
			okLine++
		}
		if d.Allowed != c.allowed || !lineOK {
			t.Errorf("%s:%d %s agent=%q url=%q: got allowed=%v line=%d, want allowed=%v line=%d %s",
				name, c.lineNo, c.file, c.agent, c.url, d.Allowed, d.Line, c.allowed, c.line, c.note)
		}
		if got := r.Allowed(c.agent, c.url); got != d.Allowed {
			t.Errorf("%s:%d: Allowed=%v but Decide.Allowed=%v", name, c.lineNo, got, d.Allowed)
		}
		if indexMin > 1 && len(c.robots) <= lazyMax {
			// The first question of a fresh Parse, read from the lines:
			// the same rule.
			checkFirst(t, c.robots, c.agent, c.url, d)
		}
	}
	n := len(cases)
	t.Logf("%s: allowed %d/%d (%.2f%%), line %d/%d (%.2f%%)", name,
		okAllowed, n, 100*float64(okAllowed)/float64(n), okLine, n, 100*float64(okLine)/float64(n))
	if indexMin > 1 {
		fmt.Printf("conformance %s: allowed %d/%d, line %d/%d\n", name, okAllowed, n, okLine, n)
	}
}
