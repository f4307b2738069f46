package lint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// summaryInputs are the files Summarize is checked on: the lint examples,
// odd inputs, the hostile files built in code (with ROBOTSTXT_LONG=1) and,
// when present, the real and synthetic files of the shared corpus.
func summaryInputs(t testing.TB) map[string][]byte {
	in := map[string][]byte{}
	for i, s := range []string{"", "\n", "\r\n\r", "\xef\xbb", "\xef\xbb\xbfUser-agent: *", ":", "a:b:c", "#", "\x00", "\xff\xfe", "<",
		strings.Repeat("*", 20000), "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00/\x00"} {
		in["odd"+string(rune('a'+i))] = []byte(s)
	}
	if longTests() { // several MB: seconds
		var rules strings.Builder
		rules.WriteString("User-agent: *\n")
		for i := range 200000 {
			fmt.Fprintf(&rules, "Disallow: /p%d/*x$\n", i)
		}
		in["hostile/rules"] = []byte(rules.String())
	}
	var globs = []string{filepath.Join("..", "testdata", "lint", "*"), filepath.Join("..", "testdata", "*.txt"),
		filepath.Join(sharedPath(t, filepath.Join("corpus", "real")), "*"), filepath.Join(sharedPath(t, filepath.Join("corpus", "synthetic")), "*")}
	for _, g := range globs {
		names, _ := filepath.Glob(g)
		for i, n := range names {
			if strings.HasSuffix(n, ".urls") || len(names) > 1000 && i%4 != 0 && !longTests() {
				continue // every fourth real file; ROBOTSTXT_LONG=1 checks them all
			}
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			in[n] = b
		}
	}
	return in
}

// TestSummarizeMatchesDiagnose is the seam between Summarize and Diagnose:
// on every input, Summarize gives Diagnose's Counts, and per cause and
// severity as many findings as Diagnose's report holds, tallied here apart
// from Summary.add.
func TestSummarizeMatchesDiagnose(t *testing.T) {
	in := summaryInputs(t)
	if _, err := os.Stat(filepath.Join(sharedDir, "corpus", "real")); err != nil {
		t.Logf("shared corpus absent (%v): only %d built-in inputs", err, len(in))
	}
	kinds := map[error]bool{}
	for name, body := range in {
		got := Summarize(body)
		rep := Diagnose(body)
		if got.Counts != rep.Counts {
			t.Errorf("%s: Summarize Counts %+v, Diagnose %+v", name, got.Counts, rep.Counts)
		}
		type key struct {
			err error
			sev Severity
		}
		want := map[key]int{}
		var bySev [3]int
		for _, f := range rep.Findings {
			want[key{f.Err, f.Severity}]++
			bySev[f.Severity]++
		}
		gotM := map[key]int{}
		for i, f := range got.Findings {
			if _, dup := gotM[key{f.Err, f.Severity}]; dup {
				t.Errorf("%s: %v (%v) twice in Findings", name, f.Err, f.Severity)
			}
			gotM[key{f.Err, f.Severity}] = f.Count
			kinds[f.Err] = true
			if i > 0 && !got.Findings[i-1].less(&got.Findings[i]) {
				t.Errorf("%s: Findings out of order at %d: %v", name, i, got.Findings)
			}
		}
		if !reflect.DeepEqual(gotM, want) {
			t.Errorf("%s: Summarize tallies %v, Diagnose's findings %v", name, gotM, want)
		}
		if got.Infos != bySev[SeverityInfo] || got.Warnings != bySev[SeverityWarning] || got.Errors != bySev[SeverityError] {
			t.Errorf("%s: Summarize %d/%d/%d infos/warnings/errors, Diagnose %v", name, got.Infos, got.Warnings, got.Errors, bySev)
		}
		if s := rep.Summary(); !reflect.DeepEqual(s, got) {
			t.Errorf("%s: Summarize = %+v, Diagnose().Summary() = %+v", name, got, s)
		}
	}
	t.Logf("%d inputs, %d causes seen", len(in), len(kinds))
}

// TestSummaryOrder pins the order of Findings: by the cause's text, then
// by severity (as the doc comment of Summary says).
func TestSummaryOrder(t *testing.T) {
	s := Summarize([]byte("Disallow: /a\nUser-agent: Googlebot/2.1\nUser-agent: Googlebot*\nFoo: bar\nDisallow: a\nCrawl-delay: x\nUser-agent: b\n"))
	var got []string
	for _, f := range s.Findings {
		got = append(got, f.Err.Error()+"/"+f.Severity.String())
	}
	want := []string{
		"group without rules/warning",                           // the group for b
		"invalid or repeated crawl-delay/warning",               // "x"
		"line before any user-agent line/error",                 // Disallow: /a
		"pattern can never match/error",                         // Disallow: a
		"unknown key/warning",                                   // Foo
		"user-agent value reduced to its product token/info",    // Googlebot/2.1
		"user-agent value reduced to its product token/warning", // Googlebot*
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Findings:\n got %q\nwant %q", got, want)
	}
}

// TestParseWithSummary is the seam between ParseWithSummary and the two
// calls it stands for: on every input, its Robots is Parse's, byte for
// byte, and its Summary is Summarize's.
func TestParseWithSummary(t *testing.T) {
	for name, body := range summaryInputs(t) {
		checkParseWithSummary(t, name, body)
	}
}

func checkParseWithSummary(t *testing.T, name string, body []byte) {
	t.Helper()
	r, s := ParseWithSummary(body)
	got, _ := r.MarshalBinary()
	if want, _ := robotstxt.Parse(body).MarshalBinary(); !bytes.Equal(got, want) {
		t.Errorf("%s: ParseWithSummary's Robots differs from Parse's (%d and %d bytes in binary form)", name, len(got), len(want))
	}
	if want := Summarize(body); !reflect.DeepEqual(s, want) {
		t.Errorf("%s: ParseWithSummary's Summary = %+v, Summarize = %+v", name, s, want)
	}
}

// FuzzSummarize checks the seams on any input: Summarize against
// Diagnose, and ParseWithSummary against Parse and Summarize.
func FuzzSummarize(f *testing.F) {
	for _, s := range []string{"", "User-agent: *\nDisallow: /\n", "Foo: bar\nUser-agent: a/1\n", "<html>", "\xff\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, want := Summarize(b), Diagnose(b).Summary()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Summarize = %+v, Diagnose().Summary() = %+v", got, want)
		}
		checkParseWithSummary(t, "input", b)
	})
}

// BenchmarkLint compares Diagnose and Summarize over the real corpus.
func BenchmarkLint(b *testing.B) {
	dir := needShared(b, filepath.Join("corpus", "real"))
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	var files [][]byte
	var size int64
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += int64(len(data))
	}
	for _, bc := range []struct {
		name string
		f    func([]byte)
	}{
		{"Diagnose", func(d []byte) { _ = Diagnose(d) }},
		{"Summarize", func(d []byte) { _ = Summarize(d) }},
		{"ParseAndSummarize", func(d []byte) { _, _ = robotstxt.Parse(d), Summarize(d) }},
		{"ParseWithSummary", func(d []byte) { _, _ = ParseWithSummary(d) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range files {
					bc.f(d)
				}
			}
		})
	}
}
