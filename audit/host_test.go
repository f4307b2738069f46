package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvalidHostSkipped holds that a capture whose URL has a host the
// library does not take as an origin (robotstxt.Origin: ErrInvalidHost)
// is reported and skipped, never lost: every record is answered, counted
// as an older capture of its origin, or reported.
func TestInvalidHostSkipped(t *testing.T) {
	dir := t.TempDir()
	body := "User-agent: *\nDisallow: /x\n"
	cs := []capture{
		{url: "https://a.example/robots.txt", status: 200, body: body, date: "2026-01-01T00:00:00Z"},
		{url: "https://a_b..example/robots.txt", status: 200, body: body}, // an empty label
		{url: "https://a.example/robots.txt", status: 200, body: body, date: "2026-01-02T00:00:00Z"},
		{url: "https://xn--zz.example/robots.txt", status: 200, body: body}, // IDNA rejects it
		{url: "https://b.example/robots.txt", status: 200, body: body, date: "2026-01-01T00:00:00Z"},
		{url: "https://a.example/robots.txt", status: 200, body: body, date: "2026-01-03T00:00:00Z"},
		{url: "https://b.example/robots.txt", status: 200, body: body, date: "2026-01-02T00:00:00Z"},
	}
	bad := map[int]bool{1: true, 3: true}
	var jl bytes.Buffer
	var lineOffs []int64
	for _, c := range cs {
		lineOffs = append(lineOffs, int64(jl.Len()))
		fmt.Fprintf(&jl, `{"url": %q, "status": 200, "body": %q, "date": %q}`+"\n", c.url, c.body, c.date)
	}
	jpath := filepath.Join(dir, "c.jsonl")
	if err := os.WriteFile(jpath, jl.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		for _, tc := range []struct {
			name string
			path string
			offs []int64
		}{
			{"warc", filepath.Join(dir, "c.warc.gz"), nil},
			{"warc, uncompressed", filepath.Join(dir, "c.warc"), nil},
			{"jsonl", jpath, lineOffs},
		} {
			t.Run(fmt.Sprintf("%s all=%v", tc.name, all), func(t *testing.T) {
				offs := tc.offs
				if offs == nil {
					offs = writeRawWARC(t, tc.path, cs)
				}
				_, s := run(t, Config{Inputs: []string{tc.path}, Format: FormatCSV, AllCaptures: all})
				answered := int64(2)
				if all {
					answered = 5
				}
				if s.Captures != answered || s.Seen != 5 || s.Skipped != 2 {
					t.Errorf("%d read, %d answered, %d skipped; want 5, %d, 2 (problems %v)", s.Seen, s.Captures, s.Skipped, answered, s.Problems)
				}
				if s.Seen+int64(s.Skipped) != int64(len(cs)) {
					t.Errorf("%d read + %d skipped, want the %d records", s.Seen, s.Skipped, len(cs))
				}
				for i := range cs {
					if !bad[i] {
						continue
					}
					found := false
					for _, p := range s.Problems {
						found = found || p.Offset == offs[i] && p.Kind == ProblemURL && p.Skipped && strings.Contains(p.Detail, "invalid host")
					}
					if !found {
						t.Errorf("no url problem naming the invalid host at %d: %v", offs[i], s.Problems)
					}
				}
			})
		}
	}
}

// writeRawWARC is writeWARC for URLs the WARC library's record builder
// would not write as given: each record is built for a stand-in URL that
// is then replaced in its header.
func writeRawWARC(t testing.TB, name string, cs []capture) []int64 {
	t.Helper()
	var out bytes.Buffer
	var offs []int64
	for _, c := range cs {
		offs = append(offs, int64(out.Len()))
		u := c.url
		c.url = "https://stand-in.example/robots.txt"
		rec := bytes.Replace(warcRecord(t, c), []byte(c.url), []byte(u), 1)
		if strings.HasSuffix(name, ".gz") {
			rec = gzipMember(t, rec)
		}
		out.Write(rec)
	}
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return offs
}
