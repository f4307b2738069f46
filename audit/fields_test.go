package audit

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLStatusAndDate holds the fields of a JSON line to what they
// stand for: "status" an HTTP status (RFC 9110 §15: three digits, 100 to
// 599 the classes defined) and "date" an RFC 3339 date, as the README
// documents; a line that is neither is refused with a problem.
func TestJSONLStatusAndDate(t *testing.T) {
	dir := t.TempDir()
	body := "User-agent: *\nDisallow: /x\n"
	lines := []struct {
		line   string
		refuse string // what the problem names, "" when the line is answered
	}{
		{`{"url": "https://ok.example/robots.txt", "status": 200, "body": %q, "date": "2026-01-02T03:04:05Z"}`, ""},
		{`{"url": "https://nodate.example/robots.txt", "status": 404, "body": %q}`, ""},
		{`{"url": "https://big.example/robots.txt", "status": 999999999999, "body": %q}`, `"status"`},
		{`{"url": "https://neg.example/robots.txt", "status": -200, "body": %q}`, `"status"`},
		{`{"url": "https://low.example/robots.txt", "status": 99, "body": %q}`, `"status"`},
		{`{"url": "https://high.example/robots.txt", "status": 600, "body": %q}`, `"status"`},
		{`{"url": "https://frac.example/robots.txt", "status": 200.5, "body": %q}`, `"status"`},
		{`{"url": "https://formula.example/robots.txt", "status": 200, "body": %q, "date": "=1+1"}`, `"date"`},
		{`{"url": "https://day.example/robots.txt", "status": 200, "body": %q, "date": "2026-01-02"}`, `"date"`},
		{`{"url": "https://esc.example/robots.txt", "status": 200, "body": %q, "date": "\u001b[2J"}`, `"date" "\x1b[2J"`}, // quoted for the terminal
		{`{"url": "https://lo.example/robots.txt", "status": 100, "body": %q, "date": "2026-01-02T03:04:05.5+02:00"}`, ""},
		{`{"url": "https://hi.example/robots.txt", "status": 599, "body": %q}`, ""},
	}
	var jl bytes.Buffer
	want := map[int64]string{}
	answered := int64(0)
	for _, l := range lines {
		off := int64(jl.Len())
		fmt.Fprintf(&jl, l.line+"\n", body)
		if l.refuse != "" {
			want[off] = l.refuse
		} else {
			answered++
		}
	}
	p := filepath.Join(dir, "c.jsonl")
	if err := os.WriteFile(p, jl.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, s := run(t, Config{Inputs: []string{p}, Format: FormatJSONL, AllCaptures: true, Agents: []Agent{{Tokens: []string{"Googlebot"}}}})
	if s.Captures != answered {
		t.Errorf("answered %d, want %d (problems %v)", s.Captures, answered, s.Problems)
	}
	got := map[int64]string{}
	for _, pr := range s.Problems {
		if pr.Kind == ProblemJSON && pr.Skipped {
			got[pr.Offset] = pr.Detail
		}
	}
	for off, field := range want {
		if !strings.Contains(got[off], field) {
			t.Errorf("line at %d: problem %q, want one naming %s", off, got[off], field)
		}
	}
	if len(got) != len(want) {
		t.Errorf("problems %v, want %d", s.Problems, len(want))
	}
	for _, r := range decodeRows(t, out) {
		if r.Status < 100 || r.Status > 599 || strings.HasPrefix(r.Date, "=") {
			t.Errorf("row %s: status %d date %q answered", r.URL, r.Status, r.Date)
		}
	}

	// A WARC response's status is held to the same range.
	w := filepath.Join(dir, "s.warc")
	offs := writeWARC(t, w, []capture{
		{url: "https://ok.example/robots.txt", status: 200, body: body},
		{url: "https://high.example/robots.txt", status: 600, body: body},
	})
	_, s = run(t, Config{Inputs: []string{w}, Format: FormatCSV, AllCaptures: true})
	if s.Captures != 1 || len(s.Problems) != 1 || s.Problems[0].Kind != ProblemHTTP || s.Problems[0].Offset != offs[1] || !strings.Contains(s.Problems[0].Detail, "600") {
		t.Errorf("WARC status 600: %d answered, problems %v", s.Captures, s.Problems)
	}
}

// TestCSVNoFormulas holds that no CSV cell starts as a spreadsheet
// formula (OWASP, "CSV Injection": a cell beginning with =, +, -, @, tab
// or CR is run by Excel, LibreOffice and Google Sheets): text from a site
// (a rule as written, a URL, a date) cannot make a cell that runs. Such a
// cell is written with a leading "'", which the spreadsheet hides; the
// numbers the audit writes itself are left as they are.
func TestCSVNoFormulas(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"=1+1", "'=1+1"},
		{"+1+1", "'+1+1"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"-1", "-1"},
		{"-0.5", "-0.5"},
		{"+3", "+3"},
		{"/private", "/private"},
		{"", ""},
	} {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Write([]string{"a", tc.want})
		w.Flush()
		var seen csvSeen
		for range 2 { // the second time from what seen remembers
			if got := appendCSVSeen(nil, []string{"a", tc.in}, &seen); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("cell %q written %q, want %q", tc.in, got, want.Bytes())
			}
		}
		if got := appendCSV(nil, []string{"a", tc.in}); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("cell %q written %q, want %q", tc.in, got, want.Bytes())
		}
	}

	// End to end: a rule and a WARC-Date that start as formulas.
	dir := t.TempDir()
	p := filepath.Join(dir, "f.warc.gz")
	writeWARC(t, p, []capture{{url: "https://f.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: =cmd|x\nAllow: @SUM(1)\n", date: "=1+1"}})
	out, _ := run(t, Config{Inputs: []string{p}, Format: FormatCSV, Paths: []string{"/=cmd|x", "/@SUM(1)"}, Agents: []Agent{{Tokens: []string{"Googlebot"}}}})
	recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		for i, f := range rec {
			if f != "" && strings.ContainsRune("=+-@\t\r", rune(f[0])) {
				t.Errorf("column %s: cell %q starts as a formula", recs[0][i], f)
			}
		}
	}
}
